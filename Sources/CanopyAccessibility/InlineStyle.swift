/// The declarations of a style attribute (or a style rule's block) that decide whether an
/// element is rendered. Nil fields were not declared, so they cascade or inherit.
struct InlineStyle: Equatable {
    /// `display`: true for `none`, false for any other value.
    var displayNone: Bool?
    /// `visibility` as declared: nil when not declared (it inherits).
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

    init(displayNone: Bool? = nil, visibility: Visibility? = nil) {
        self.displayNone = displayNone
        self.visibility = visibility
    }

    var declaresAnything: Bool { displayNone != nil || visibility != nil }

    /// This style with `other`'s declarations taking precedence where it has any.
    func overridden(by other: InlineStyle) -> InlineStyle {
        InlineStyle(displayNone: other.displayNone ?? displayNone, visibility: other.visibility ?? visibility)
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
