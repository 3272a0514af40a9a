import Foundation

/// Lengths as a static cascade can resolve them: absolute units, font-relative units against
/// known font sizes, viewport units against the viewport, and `calc()` of those. Percentages
/// need a base the caller knows (for font sizes, the parent's size); anything that needs layout
/// is nil.
public struct LengthContext: Sendable {
    public var fontSize: Double
    public var rootFontSize: Double
    public var viewport: Viewport

    public init(fontSize: Double, rootFontSize: Double, viewport: Viewport) {
        self.fontSize = fontSize
        self.rootFontSize = rootFontSize
        self.viewport = viewport
    }
}

public enum CSSLength {
    public static func pixels(_ text: some StringProtocol, in context: LengthContext, percentBase: Double? = nil) -> Double? {
        let value = text.trimmingASCIIWhitespace().lowercased()
        if value.hasPrefix("calc("), value.hasSuffix(")") {
            var parser = CalcParser(Array(value.dropFirst(5).dropLast()), context: context, percentBase: percentBase)
            return parser.parse()
        }
        return dimension(value, context: context, percentBase: percentBase)
    }

    public static func dimension(_ value: String, context: LengthContext, percentBase: Double?) -> Double? {
        var end = value.startIndex
        while end < value.endIndex, "+-.0123456789".contains(value[end]) { end = value.index(after: end) }
        guard end > value.startIndex, let number = Double(value[..<end]) else { return nil }
        let unit = value[end...]
        switch unit {
        case "": return number == 0 ? 0 : nil
        case "px": return number
        case "pt": return number * 96 / 72
        case "pc": return number * 16
        case "in": return number * 96
        case "cm": return number * 96 / 2.54
        case "mm": return number * 96 / 25.4
        case "q": return number * 96 / 101.6
        case "em": return number * context.fontSize
        case "rem": return number * context.rootFontSize
        case "ex", "ch": return number * context.fontSize / 2
        case "vw", "svw", "lvw", "dvw": return number * context.viewport.width / 100
        case "vh", "svh", "lvh", "dvh": return number * context.viewport.height / 100
        case "vmin": return number * min(context.viewport.width, context.viewport.height) / 100
        case "vmax": return number * max(context.viewport.width, context.viewport.height) / 100
        case "%": return percentBase.map { number * $0 / 100 }
        default: return nil
        }
    }

    /// `+ - * /` over lengths and numbers, with parentheses.
    private struct CalcParser {
        let characters: [Character]
        let context: LengthContext
        let percentBase: Double?
        var index = 0

        init(_ characters: [Character], context: LengthContext, percentBase: Double?) {
            self.characters = characters
            self.context = context
            self.percentBase = percentBase
        }

        /// A value with whether it is a length (true) or a bare number.
        mutating func parse() -> Double? {
            guard let (value, isLength) = sum(), isLength || value == 0 else { return nil }
            skipSpace()
            return index == characters.count ? value : nil
        }

        mutating func skipSpace() { while index < characters.count, characters[index] == " " { index += 1 } }

        mutating func sum() -> (Double, Bool)? {
            guard var (value, isLength) = product() else { return nil }
            while true {
                skipSpace()
                guard index < characters.count, characters[index] == "+" || characters[index] == "-" else { return (value, isLength) }
                let negative = characters[index] == "-"
                index += 1
                guard let (next, nextIsLength) = product(), nextIsLength == isLength else { return nil }
                value += negative ? -next : next
                isLength = isLength || nextIsLength
            }
        }

        mutating func product() -> (Double, Bool)? {
            guard var (value, isLength) = term() else { return nil }
            while true {
                skipSpace()
                guard index < characters.count, characters[index] == "*" || characters[index] == "/" else { return (value, isLength) }
                let divide = characters[index] == "/"
                index += 1
                guard let (next, nextIsLength) = term() else { return nil }
                if divide {
                    guard !nextIsLength, next != 0 else { return nil }
                    value /= next
                } else {
                    guard !(isLength && nextIsLength) else { return nil }
                    value *= next
                    isLength = isLength || nextIsLength
                }
            }
        }

        mutating func term() -> (Double, Bool)? {
            skipSpace()
            guard index < characters.count else { return nil }
            if characters[index] == "(" {
                index += 1
                let inner = sum()
                skipSpace()
                guard index < characters.count, characters[index] == ")" else { return nil }
                index += 1
                return inner
            }
            let start = index
            while index < characters.count, characters[index] != " ", characters[index] != ")", characters[index] != "*", characters[index] != "/" {
                // A sign after the first character is an operator only with spaces around it.
                index += 1
            }
            let word = String(characters[start..<index])
            if let number = Double(word) { return (number, false) }
            return CSSLength.dimension(word, context: context, percentBase: percentBase).map { ($0, true) }
        }
    }
}

/// Font sizes and weights as browsers compute them.
public enum FontMetrics {
    /// The font-size keywords for a 16px `medium`.
    static let keywordSizes: [String: Double] = [
        "xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24, "xx-large": 32, "xxx-large": 48,
    ]

    public static func fontSize(_ declared: String, parent: Double, root: Double, viewport: Viewport) -> Double? {
        let value = declared.lowercased()
        if let size = keywordSizes[value] { return size }
        if value == "smaller" { return parent / 1.2 }
        if value == "larger" { return parent * 1.2 }
        // em and % refer to the parent's size for font-size.
        return CSSLength.pixels(value, in: LengthContext(fontSize: parent, rootFontSize: root, viewport: viewport), percentBase: parent)
    }

    public static func fontWeight(_ declared: String, parent: Double) -> Double? {
        switch declared.lowercased() {
        case "normal": return 400
        case "bold": return 700
        case "bolder":
            // CSS Fonts 4, relative weights.
            if parent < 350 { return 400 }
            if parent < 550 { return 700 }
            return max(parent, 900)
        case "lighter":
            if parent < 550 { return 100 }
            if parent < 750 { return 400 }
            return 700
        default:
            guard let number = Double(declared), number >= 1, number <= 1000 else { return nil }
            return number
        }
    }
}
