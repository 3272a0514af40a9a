/// SQL text that can only be written in the source: a string literal, or literals joined with
/// other `SQL` values. Nothing read at run time (a URL, a rule id, a snippet) can become part of
/// a statement; values go in as bound parameters (`SQLiteValue`). Interpolating a `String`
/// is a compile error, so the guarantee is checked by the compiler on every call.
public struct SQL: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    private enum Source: Sendable {
        case literal(StaticString)
        case composed(String)
    }

    private let source: Source

    public var text: String {
        switch source {
        case .literal(let literal): return literal.description
        case .composed(let text): return text
        }
    }

    /// A plain literal's identity, where its bytes lie in the program: the statement cache looks
    /// it up by this number rather than by hashing the text (a crawl prepares statements hundreds
    /// of thousands of times, and hashing their text for each was half a microsecond).
    var literalAddress: Int? {
        guard case .literal(let literal) = source, literal.hasPointerRepresentation else { return nil }
        return Int(bitPattern: literal.utf8Start)
    }

    /// Where a composed text's bytes lie, while it lives: with the text compared on a match, it
    /// lets the statement cache find a statement kept in a `static let` without hashing its text.
    var composedAddress: Int? {
        guard case .composed(let text) = source else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { Int(bitPattern: $0.baseAddress) }
    }

    public init(stringLiteral value: StaticString) {
        source = .literal(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        source = .composed(stringInterpolation.text)
    }

    public static func == (left: SQL, right: SQL) -> Bool { left.text == right.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity)
        }

        public mutating func appendLiteral(_ literal: StaticString) {
            text += literal.description
        }

        /// Only other SQL: a column list or a fixed clause chosen in code.
        public mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.text
        }
    }
}
