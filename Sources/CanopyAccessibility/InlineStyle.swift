/// The declarations of a `style` attribute that decide whether an element is rendered.
struct InlineStyle: Equatable {
    var displayNone = false
    /// `visibility` as declared on this element: nil when not declared (it inherits).
    var visibility: Visibility?

    enum Visibility: Equatable { case visible, hidden }

    init(parsing declarations: String?) {
        guard let declarations, !declarations.isEmpty else { return }
        for declaration in declarations.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let property = declaration[..<colon].trimmingWhitespace().lowercased()
            var value = declaration[declaration.index(after: colon)...].trimmingWhitespace().lowercased()
            if let bang = value.firstIndex(of: "!") { value = value[..<bang].trimmingWhitespace() }  // `!important`
            switch property {
            case "display": displayNone = value == "none"
            case "visibility":
                if value == "hidden" || value == "collapse" { visibility = .hidden }
                else if value == "visible" { visibility = .visible }
            default: break
            }
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
