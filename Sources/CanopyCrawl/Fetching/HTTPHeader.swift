import CanopyHTML

/// One HTTP header field, as sent or received, with its name spelled as on the wire.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, _ value: String) {
        self.init(name: name, value: value)
    }

    /// Header names are ASCII tokens and compare case-insensitively (RFC 9110 §5.1).
    public func hasName(_ otherName: String) -> Bool {
        asciiCaseInsensitiveEqual(name, otherName)
    }
}

/// Compares ASCII letters without regard to case and every other byte exactly,
/// so a non-ASCII name never matches through Unicode case folding.
func asciiCaseInsensitiveEqual(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    for (a, b) in zip(left, right) where a.asciiLowercased != b.asciiLowercased {
        return false
    }
    return true
}

extension HTTPHeader {
    /// RFC 9110 token characters: what a header name may be made of.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// A value with CR, LF or NUL would let a caller smuggle extra header lines
    /// (or cut the request short), so such values are refused.
    static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
