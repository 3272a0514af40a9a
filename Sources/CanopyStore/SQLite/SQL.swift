/// SQL text that can only be written in the source: a string literal, or literals joined with
/// other `SQL` values. Nothing read at run time (a URL, a rule id, a snippet) can become part of
/// a statement; values go in as bound parameters (`SQLiteValue`). Interpolating a `String`
/// is a compile error, so the guarantee is checked by the compiler on every call.
public struct SQL: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public let text: String

    public init(stringLiteral value: StaticString) {
        text = value.description
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
    }

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
