/// A media query list (`screen and (max-width: 600px), print`), evaluated against the one device
/// Canopy styles for: a screen of `Viewport` size, at rest, light scheme, mouse, no preferences.
/// Anything unknown or malformed is false, as a browser treats it.
public struct MediaQueryList: Sendable, Hashable {
    public let text: String
    private let queries: [Query]

    public init(_ text: String) {
        self.text = text
        var queries: [Query] = []
        for part in CSSValueParts.commaSeparated(text) {
            var parser = MediaConditionParser(part.lowercased())
            queries.append(parser.parseQuery() ?? .never)
        }
        self.queries = queries
    }

    /// An empty list means all media.
    public func matches(_ viewport: Viewport) -> Bool {
        queries.isEmpty || queries.contains { $0.evaluate(viewport) }
    }

    indirect enum Query: Sendable, Hashable {
        case never
        case always
        case not(Query)
        case and([Query])
        case or([Query])
        case feature(name: String, value: MediaValue?)
        /// `lower op name op upper`, either bound optional; ops are "<", "<=", ">", ">=", "=".
        case range(name: String, lower: (MediaValue, String)?, upper: (MediaValue, String)?)

        static func == (lhs: Query, rhs: Query) -> Bool { String(describing: lhs) == String(describing: rhs) }
        func hash(into hasher: inout Hasher) { hasher.combine(String(describing: self)) }

        func evaluate(_ viewport: Viewport) -> Bool {
            switch self {
            case .never: return false
            case .always: return true
            case .not(let inner): return !inner.evaluate(viewport)
            case .and(let parts): return parts.allSatisfy { $0.evaluate(viewport) }
            case .or(let parts): return parts.contains { $0.evaluate(viewport) }
            case .feature(let name, let value): return MediaFeatures.evaluate(name, value, viewport)
            case .range(let name, let lower, let upper):
                guard let actual = MediaFeatures.number(name, viewport) else { return false }
                if let (value, op) = lower {
                    // `value op name`: e.g. 400px < width
                    guard let bound = value.number, Self.compare(bound, op, actual) else { return false }
                }
                if let (value, op) = upper {
                    guard let bound = value.number, Self.compare(actual, op, bound) else { return false }
                }
                return true
            }
        }

        private static func compare(_ left: Double, _ op: String, _ right: Double) -> Bool {
            switch op {
            case "<": return left < right
            case "<=": return left <= right
            case ">": return left > right
            case ">=": return left >= right
            case "=": return abs(left - right) < 0.0001
            default: return false
            }
        }
    }
}

/// A media feature's value: a number in canonical units (px, dppx, a ratio) or a keyword.
enum MediaValue: Sendable, Hashable {
    case number(Double)
    case keyword(String)

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// Lengths with a 16px em (media queries do not see page font sizes), ratios, resolutions.
    init?(_ text: String) {
        let trimmed = text.trimmingASCIIWhitespace()
        if let slash = trimmed.firstIndex(of: "/") {
            guard let numerator = Double(trimmed[..<slash].trimmingASCIIWhitespace()),
                  let denominator = Double(trimmed[trimmed.index(after: slash)...].trimmingASCIIWhitespace()), denominator != 0
            else { return nil }
            self = .number(numerator / denominator)
            return
        }
        var numberEnd = trimmed.startIndex
        while numberEnd < trimmed.endIndex, "+-.0123456789eE".contains(trimmed[numberEnd]) { numberEnd = trimmed.index(after: numberEnd) }
        guard numberEnd > trimmed.startIndex, let value = Double(trimmed[..<numberEnd]) else {
            guard !trimmed.isEmpty, trimmed.first!.isLetter || trimmed.first == "-" else { return nil }
            self = .keyword(trimmed)
            return
        }
        let unit = String(trimmed[numberEnd...])
        let scale: Double?
        switch unit {
        case "", "px", "dppx", "x": scale = 1
        case "em", "rem": scale = 16
        case "pt": scale = 96.0 / 72
        case "pc": scale = 16
        case "in": scale = 96
        case "cm": scale = 96 / 2.54
        case "mm": scale = 96 / 25.4
        case "q": scale = 96 / 101.6
        case "dpi": scale = 1.0 / 96
        case "dpcm": scale = 2.54 / 96
        default: scale = nil
        }
        guard let scale else { return nil }
        self = .number(value * scale)
    }
}

enum MediaFeatures {
    static func number(_ name: String, _ viewport: Viewport) -> Double? {
        switch name {
        case "width", "device-width": return viewport.width
        case "height", "device-height": return viewport.height
        case "aspect-ratio", "device-aspect-ratio": return viewport.width / viewport.height
        case "resolution", "-webkit-device-pixel-ratio": return 1
        case "color": return 8
        case "color-index", "monochrome", "grid": return 0
        default: return nil
        }
    }

    /// What the one device Canopy styles for answers to each discrete feature.
    private static let keywords: [String: String] = [
        "orientation": "", "hover": "hover", "any-hover": "hover", "pointer": "fine", "any-pointer": "fine",
        "prefers-color-scheme": "light", "prefers-reduced-motion": "no-preference", "prefers-contrast": "no-preference",
        "prefers-reduced-transparency": "no-preference", "prefers-reduced-data": "no-preference", "forced-colors": "none",
        "inverted-colors": "none", "scripting": "enabled", "update": "fast", "display-mode": "browser",
        "overflow-block": "scroll", "overflow-inline": "scroll", "color-gamut": "srgb", "dynamic-range": "standard",
        "video-dynamic-range": "standard", "scan": "progressive",
    ]

    static func evaluate(_ name: String, _ value: MediaValue?, _ viewport: Viewport) -> Bool {
        var feature = name
        var comparison = "="
        if feature.hasPrefix("min-") {
            feature.removeFirst(4)
            comparison = ">="
        } else if feature.hasPrefix("max-") {
            feature.removeFirst(4)
            comparison = "<="
        } else if feature.hasPrefix("-webkit-min-") {
            feature = "-webkit-" + feature.dropFirst(12)
            comparison = ">="
        } else if feature.hasPrefix("-webkit-max-") {
            feature = "-webkit-" + feature.dropFirst(12)
            comparison = "<="
        }
        if let actual = number(feature, viewport) {
            guard let value else { return comparison == "=" && actual != 0 }
            guard let expected = value.number else { return false }
            switch comparison {
            case ">=": return actual >= expected - 0.0001
            case "<=": return actual <= expected + 0.0001
            default: return abs(actual - expected) < 0.0001
            }
        }
        guard comparison == "=" else { return false }
        if feature == "orientation" {
            let actual = viewport.height >= viewport.width ? "portrait" : "landscape"
            guard let value else { return true }
            return value == .keyword(actual)
        }
        guard let actual = keywords[feature] else { return false }
        guard let value else { return actual != "none" && actual != "no-preference" }
        return value == .keyword(actual)
    }
}

/// Media Queries 4 syntax over lowercased text.
struct MediaConditionParser {
    private let scalars: [Character]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text)
    }

    private mutating func skipSpace() {
        while index < scalars.count, scalars[index].isWhitespace { index += 1 }
    }

    private mutating func word() -> String {
        skipSpace()
        let start = index
        while index < scalars.count, scalars[index].isLetter || scalars[index].isNumber || scalars[index] == "-" || scalars[index] == "_" {
            index += 1
        }
        return String(scalars[start..<index])
    }

    private var atEnd: Bool { index >= scalars.count }

    mutating func parseQuery() -> MediaValue.QueryResult? {
        skipSpace()
        if atEnd { return .always }
        let start = index
        var negated = false
        var type = word()
        if type == "not" || type == "only" {
            let save = index
            skipSpace()
            if !atEnd, scalars[index] == "(" {
                // `not (condition)`
                index = start
                return parseCondition()
            }
            index = save
            negated = type == "not"
            type = word()
        }
        if type.isEmpty {
            index = start
            return parseCondition()
        }
        let typeMatches: Bool
        switch type {
        case "all", "screen": typeMatches = true
        case "print", "speech", "tty", "tv", "projection", "handheld", "braille", "embossed", "aural": typeMatches = false
        default: return nil
        }
        var result: MediaValue.QueryResult = typeMatches ? .always : .never
        skipSpace()
        if !atEnd {
            guard word() == "and", let condition = parseConditionWithoutOr() else { return nil }
            result = .and([result, condition])
        }
        skipSpace()
        guard atEnd else { return nil }
        return negated ? .not(result) : result
    }

    private mutating func parseCondition() -> MediaValue.QueryResult? {
        guard let condition = parseConditionAllowingOr() else { return nil }
        skipSpace()
        return atEnd ? condition : nil
    }

    private mutating func parseConditionAllowingOr() -> MediaValue.QueryResult? { parseCondition(allowingOr: true) }

    private mutating func parseConditionWithoutOr() -> MediaValue.QueryResult? { parseCondition(allowingOr: false) }

    /// `not (...)`, or parenthesised parts joined by `and` (or by `or` where the grammar allows
    /// it, never both without parentheses).
    private mutating func parseCondition(allowingOr: Bool) -> MediaValue.QueryResult? {
        skipSpace()
        let save = index
        if word() == "not" {
            guard let inner = parseInParens() else { return nil }
            return .not(inner)
        }
        index = save
        guard let first = parseInParens() else { return nil }
        var parts = [first]
        var joiner = ""
        while true {
            skipSpace()
            let before = index
            let next = word()
            guard next == "and" || (allowingOr && next == "or") else {
                index = before
                break
            }
            if joiner.isEmpty { joiner = next } else if joiner != next { return nil }  // mixing needs parentheses
            guard let part = parseInParens() else { return nil }
            parts.append(part)
        }
        if parts.count == 1 { return first }
        return joiner == "and" ? .and(parts) : .or(parts)
    }

    /// `( condition )`, `( feature )`, `( feature: value )` or a range.
    private mutating func parseInParens() -> MediaValue.QueryResult? {
        skipSpace()
        guard !atEnd, scalars[index] == "(" else { return nil }
        guard let end = CSSParentheses.closing(in: scalars, openingAt: index) else { return nil }
        let inner = String(scalars[(index + 1)..<end]).trimmingASCIIWhitespace()
        index = end + 1
        if inner.hasPrefix("(") || inner.hasPrefix("not ") || inner.hasPrefix("not(") {
            var nested = MediaConditionParser(inner)
            return nested.parseCondition()
        }
        if let colon = inner.firstIndex(of: ":") {
            let name = inner[..<colon].trimmingASCIIWhitespace()
            guard let value = MediaValue(String(inner[inner.index(after: colon)...])) else { return nil }
            return .feature(name: name, value: value)
        }
        if inner.contains(where: { $0 == "<" || $0 == ">" || $0 == "=" }) { return Self.range(inner) }
        guard !inner.isEmpty, inner.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        return .feature(name: inner, value: nil)
    }

    /// `width >= 600px`, `600px <= width`, `400px < width <= 700px`.
    private static func range(_ text: String) -> MediaValue.QueryResult? {
        var pieces: [String] = []
        var operators: [String] = []
        var current = ""
        var iterator = Array(text)
        var position = 0
        while position < iterator.count {
            let character = iterator[position]
            if character == "<" || character == ">" || character == "=" {
                pieces.append(current.trimmingASCIIWhitespace())
                current = ""
                var op = String(character)
                if position + 1 < iterator.count, iterator[position + 1] == "=" {
                    op += "="
                    position += 1
                }
                operators.append(op)
            } else {
                current.append(character)
            }
            position += 1
        }
        iterator = []
        pieces.append(current.trimmingASCIIWhitespace())
        func isName(_ piece: String) -> Bool { piece.first.map { $0.isLetter } ?? false }
        // Turn `value > name` into the lower bound `value > name` read as name < value: flip.
        func flipped(_ op: String) -> String {
            switch op {
            case "<": return ">"
            case ">": return "<"
            case "<=": return ">="
            case ">=": return "<="
            default: return op
            }
        }
        switch (pieces.count, operators.count) {
        case (2, 1):
            if isName(pieces[0]), let value = MediaValue(pieces[1]) {
                return .range(name: pieces[0], lower: nil, upper: (value, operators[0]))
            }
            if isName(pieces[1]), let value = MediaValue(pieces[0]) {
                return .range(name: pieces[1], lower: (value, operators[0]), upper: nil)
            }
            return nil
        case (3, 2):
            guard isName(pieces[1]), let low = MediaValue(pieces[0]), let high = MediaValue(pieces[2]) else { return nil }
            if operators[0].hasPrefix(">") {
                // `700px > width > 400px`
                return .range(name: pieces[1], lower: (high, flipped(operators[1])), upper: (low, flipped(operators[0])))
            }
            return .range(name: pieces[1], lower: (low, operators[0]), upper: (high, operators[1]))
        default:
            return nil
        }
    }
}

extension MediaValue {
    typealias QueryResult = MediaQueryList.Query
}

/// Where a parenthesised group of a condition's text ends.
enum CSSParentheses {
    /// The index of the `)` that closes the `(` at `open`, nil when it is never closed.
    static func closing(in characters: [Character], openingAt open: Int) -> Int? {
        var depth = 0
        for position in open..<characters.count {
            if characters[position] == "(" { depth += 1 }
            if characters[position] == ")" {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }
}
