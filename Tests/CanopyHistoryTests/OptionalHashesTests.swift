@testable import CanopyHistory
import Testing

/// The fingerprinter's compact tables of optional hashes answer as `[UInt64?]` would.
struct OptionalHashesTests {
    @Test("random writes and clears, across the 64-entry words, read back as an array of optionals does")
    func behavesAsAnArrayOfOptionals() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 63, 64, 65, 200] {
            var compact = OptionalHashes(count: count)
            var reference = [UInt64?](repeating: nil, count: count)
            #expect(compact.count == count)
            for _ in 0..<(count * 4) {
                let index = Int.random(in: 0..<count, using: &generator)
                // Zero and all ones are values like any other, not markers.
                let value: UInt64? = [nil, 0, .max, generator.next()].randomElement(using: &generator)!
                compact[index] = value
                reference[index] = value
            }
            #expect((0..<count).map { compact[$0] } == reference, "\(count) entries")
        }
    }
}
