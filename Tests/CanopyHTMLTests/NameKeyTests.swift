@testable import CanopyHTML
import Testing

struct NameKeyTests {
    /// A name's key is its byte length (at most 255) over its first seven UTF-8 bytes, whatever
    /// the string's storage: small, large, a substring's copy, non-ASCII.
    @Test(arguments: ["", "a", "id", "class", "aria-labelledby", "data-testid-with-a-long-name", "é", "ñandú", "名前", String(repeating: "x", count: 300)])
    func keysHoldLengthAndFirstBytes(name: String) {
        let bytes = Array(name.utf8)
        var expected = UInt64(min(bytes.count, 255)) << 56
        for (index, byte) in bytes.prefix(7).enumerated() { expected |= UInt64(byte) << (8 * UInt64(index)) }
        #expect(NameKey.of(name) == expected)
        #expect(NameKey.of(String(Substring(name))) == expected)
    }
}
