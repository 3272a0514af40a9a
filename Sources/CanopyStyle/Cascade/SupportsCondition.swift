import CanopyHTML

/// An `@supports` condition, decided once when the sheet is parsed: Canopy stands for a current
/// desktop browser, which supports any standard property and the `-webkit-` prefixed ones, but
/// no other vendor's prefix. `selector()` is supported when Canopy can match the selector.
public struct SupportsCondition: Sendable, Hashable {
    public let text: String
    public let holds: Bool

    public init(_ text: String) {
        self.text = text
        var parser = Parser(Array(text))
        holds = parser.parseCondition() ?? false
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        init(_ characters: [Character]) {
            self.characters = characters
        }

        mutating func skipSpace() {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
        }

        mutating func word() -> String {
            skipSpace()
            let start = index
            while index < characters.count, characters[index].isLetter || characters[index] == "-" { index += 1 }
            return String(characters[start..<index]).lowercased()
        }

        mutating func parseCondition() -> Bool? {
            skipSpace()
            let save = index
            if word() == "not" {
                guard let inner = parseInParens() else { return nil }
                return !inner
            }
            index = save
            guard var result = parseInParens() else { return nil }
            var joiner = ""
            while true {
                skipSpace()
                let before = index
                let next = word()
                guard next == "and" || next == "or" else {
                    index = before
                    break
                }
                if joiner.isEmpty { joiner = next } else if joiner != next { return nil }
                guard let part = parseInParens() else { return nil }
                result = next == "and" ? (result && part) : (result || part)
            }
            skipSpace()
            return result
        }

        /// `(condition)`, `(property: value)`, `selector(...)`, or another function (false).
        mutating func parseInParens() -> Bool? {
            skipSpace()
            let functionName = word()
            guard index < characters.count, characters[index] == "(" else { return nil }
            guard let end = CSSParentheses.closing(in: characters, openingAt: index) else { return nil }
            let inner = String(characters[(index + 1)..<end]).trimmingASCIIWhitespace()
            index = end + 1
            switch functionName {
            case "":
                if let colon = inner.firstIndex(of: ":"), !inner.hasPrefix("(") {
                    return Self.supportsProperty(inner[..<colon].trimmingASCIIWhitespace().lowercased())
                }
                var nested = Parser(Array(inner))
                return nested.parseCondition()
            case "selector":
                return (try? StyleSelector.parseList(inner)) != nil
            case "font-tech", "font-format":
                return true
            default:
                return false
            }
        }

        static func supportsProperty(_ name: String) -> Bool {
            guard name.hasPrefix("-") else { return !name.isEmpty }
            return name.hasPrefix("--") || name.hasPrefix("-webkit-")
        }
    }
}
