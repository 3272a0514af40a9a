/// A small, fast, seedable random number generator (SplitMix64): generated sites, histories and
/// test schedules come out the same on every machine and every run of the same seed, with no
/// global state. Shared by the benchmarks and the tests.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number from 0 to `bound - 1` (0 when `bound` is not positive).
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
