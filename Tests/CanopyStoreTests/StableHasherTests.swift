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
}
