#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only table from byte strings (ids, class names, attribute names as a page stores them)
/// to small integers, looked up with the bytes themselves: no string is made for a lookup and no
/// SipHash is run, which is what a `[String: Int32]` costs for every element of every page that
/// asks which of a stylesheet's ids and classes it has. Open addressing over a power-of-two
/// array of slots, FNV-1a hashes, and keys compared byte for byte, so a lookup is exact.
public struct ByteStringTable: Sendable {
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var keyStarts: [Int32] = []
    private var keyBytes: [UInt8] = []
    private var values: [Int32] = []
    private var mask: Int

    public init() {
        slots = []
        mask = -1
    }

    /// The table of `pairs`; a key given twice keeps its first value.
    public init(_ pairs: some Sequence<(key: String, value: Int32)>) {
        let list = Array(pairs)
        var capacity = 4
        while capacity < list.count * 2 { capacity <<= 1 }
        slots = Array(repeating: -1, count: capacity)
        mask = capacity - 1
        for (key, value) in list where self.value(for: key) == nil {
            var key = key
            let hash = key.withUTF8 { Self.hash($0) }
            keyStarts.append(Int32(keyBytes.count))
            keyBytes.append(contentsOf: key.utf8)
            hashes.append(hash)
            values.append(value)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(values.count - 1)
        }
        keyStarts.append(Int32(keyBytes.count))
    }

    public var isEmpty: Bool { values.isEmpty }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = FNV1a()
        for byte in bytes { hash.add(byte) }
        return hash.value
    }

    /// The value of the key whose UTF-8 bytes are `bytes`, nil when there is none.
    public func value(forUTF8 bytes: ArraySlice<UInt8>) -> Int32? {
        guard !values.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { value(in: $0) }
    }

    /// The value of `key`, nil when there is none.
    public func value(for key: String) -> Int32? {
        guard !values.isEmpty else { return nil }
        var key = key
        return key.withUTF8 { value(in: $0) }
    }

    // Concrete, not generic over collections: callers in other modules would get an
    // unspecialized copy that dispatches every byte through a protocol.
    private func value(in bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return nil }
            if hashes[entry] == hash {
                let start = Int(keyStarts[entry]), end = Int(keyStarts[entry + 1])
                if end - start == bytes.count,
                    bytes.isEmpty || keyBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, bytes.baseAddress!, bytes.count) }) == 0
                {
                    return values[entry]
                }
            }
            slot = (slot + 1) & mask
        }
    }
}

/// 64-bit FNV-1a, the hash of the tables keyed by a page's bytes (`ByteStringTable`, the target
/// selectors' feature counts): a multiply and an exclusive or per byte, no seed, so a page's
/// short names cost a few nanoseconds where a SipHash of a string cost tens.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
}
