@testable import CanopyHTML
import Testing

/// The target selectors' feature table against a Dictionary, with keys chosen to land on the
/// same slots (equal once their halves are folded together) and enough of them to grow it often.
struct PrehashedTableTests {
    @Test func agreesWithADictionary() {
        var generator = SystemRandomNumberGenerator()
        var table = PrehashedTable<[Int32]>()
        var reference: [UInt64: [Int32]] = [:]
        var keys: [UInt64] = [0, 1, 1 << 32, (1 << 32) | 1, UInt64.max]
        for _ in 0..<300 { keys.append(UInt64.random(in: 0...UInt64.max, using: &generator)) }
        for shift in 0..<40 { keys.append(UInt64(shift) << 32 | UInt64(shift)) }  // each folds to 0
        for step in 0..<4000 {
            let key = keys.randomElement(using: &generator)!
            table.update(key, default: []) { $0.append(Int32(step)) }
            reference[key, default: []].append(Int32(step))
        }
        #expect(table.count == reference.count)
        for key in keys { #expect(table[key] == reference[key], "\(key)") }
        for _ in 0..<200 {
            let absent = UInt64.random(in: 0...UInt64.max, using: &generator)
            if reference[absent] == nil { #expect(table[absent] == nil) }
        }
        table.set(keys[0], to: [7])
        #expect(table[keys[0]] == [7] && table.count == reference.count)
    }
}
