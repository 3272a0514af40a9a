import CanopyStore
import Testing

@Suite("Stable hashes")
struct StableHasherTests {
    @Test("hex is 16 lowercase digits, zero-padded, the value in base 16")
    func hexDigits() {
        #expect(StableHasher.hex(0) == "0000000000000000")
        #expect(StableHasher.hex(0xDEAD_BEEF) == "00000000deadbeef")
        #expect(StableHasher.hex(.max) == "ffffffffffffffff")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)
            let hex = StableHasher.hex(value)
            #expect(hex.utf8.count == 16)
            #expect(UInt64(hex, radix: 16) == value)
            #expect(hex == hex.lowercased())
        }
    }

    @Test("a hash does not change between releases: stored signatures depend on it")
    func knownValues() {
        // FNV-1a 64 over "a" and the field separator 0x1F, worked out apart from this code.
        #expect(StableHasher.hex(of: "a") == "089be907b544fdc9")
        #expect(StableHasher.hex(of: "") == "af63d24c8601db8e")
    }

    @Test("pieces of a field hash as their concatenation, and a kept value goes on as the hasher would")
    func piecesAndContinuation() {
        for pieces in [["a"], ["", ""], ["a", "|", "href", "=", "/x"], ["é", "\u{301}", "👩🏽‍💻"]] {
            var whole = StableHasher()
            whole.combine(pieces.joined())
            var pieced = StableHasher()
            for piece in pieces { pieced.combine(piece: piece) }
            pieced.endField()
            #expect(pieced.value == whole.value, "\(pieces)")
            whole.combine(42)
            var continued = StableHasher(continuingFrom: pieced.value)
            continued.combine(42)
            #expect(continued.value == whole.value)
        }
        var prefix = StableHasher()
        prefix.combine(piece: "a")
        #expect(StableHasher.hex(prefix.value) != StableHasher.hex(of: "a"), "a field is not ended until endField")
    }
}
