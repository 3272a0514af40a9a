/// A 64-bit FNV-1a hash that is the same in every process and on every machine: fingerprints,
/// issue keys and structure hashes, and the store's digests of the values it keeps once.
///
/// Swift's `Hasher` is seeded randomly per process, so it cannot name anything stored across runs.
/// 64 bits keep the chance of two different issues colliding negligible at the scale of a site's
/// history (millions of findings, thousands of distinct issues per run).
public struct StableHasher: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Goes on from a value this hasher had: what was combined before it, then what is combined
    /// next. Lets a caller keep the hash of a prefix (one per element) instead of its text.
    public init(continuingFrom value: UInt64) {
        state = value
    }

    public mutating func combine(_ text: String) {
        combine(piece: text)
        endField()
    }

    public mutating func combine(_ number: UInt64) {
        var value = number
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
        endField()
    }

    /// Part of a field, without the separator that ends it: pieces followed by `endField()`
    /// hash exactly as `combine` of their concatenation, without building it.
    public mutating func combine(piece text: String) {
        // The string's own bytes where it has them contiguous (native strings do): a copy to call
        // `withUTF8` on was a retain and a release for every piece.
        if text.utf8.withContiguousStorageIfAvailable({ combine(piece: $0) }) != nil { return }
        var text = text
        text.withUTF8 { combine(piece: $0) }
    }

    /// `combine(piece:)` of text given as UTF-8 bytes: over the contiguous bytes, with the state
    /// in a local (a step of the view's iterator for each byte made this 1.8% of a crawl's
    /// instructions, callgrind).
    public mutating func combine(piece bytes: UnsafeBufferPointer<UInt8>) {
        var state = self.state
        for byte in bytes { state = Self.mixed(state, byte) }
        self.state = state
    }

    /// `combine(piece:)` of text given as UTF-8 bytes.
    public mutating func combine(piece bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { combine(piece: $0) }
    }

    /// The separator after each field, which keeps ("ab", "c") and ("a", "bc") apart.
    public mutating func endField() {
        mix(0x1F)
    }

    private mutating func mix(_ byte: UInt8) {
        state = Self.mixed(state, byte)
    }

    @inline(__always)
    private static func mixed(_ state: UInt64, _ byte: UInt8) -> UInt64 {
        (state ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    public var value: UInt64 { state }

    /// The hash as 16 lowercase hex digits, the form stored and shown in reports.
    public var hex: String { Self.hex(state) }

    public static func hex(_ value: UInt64) -> String {
        // Written in place: every finding's signatures are formatted, and the radix conversion
        // plus padding made three strings for each.
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }

    /// The hash of a list of fields, as hex.
    public static func hex(of fields: String...) -> String {
        hex(value(of: fields))
    }

    /// The hash of a list of fields (`hex(of:)` before it is written out).
    public static func value(of fields: [String]) -> UInt64 {
        var hasher = StableHasher()
        for field in fields { hasher.combine(field) }
        return hasher.value
    }
}
