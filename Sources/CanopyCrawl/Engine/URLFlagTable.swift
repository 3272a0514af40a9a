import Foundation

/// Every URL a crawl has met, with a few flag bits each (offered, fetched, turned away), packed
/// so that a crawl of a million URLs keeps tens of megabytes, not hundreds: the UTF-8 bytes of
/// the URLs one after another in one array, and an open-addressing table of 8-byte slots. A
/// `Set<CrawlURL>` took about 250 bytes a URL, and a crawl kept three of them; this takes the
/// URL's length plus about 20 bytes.
public struct URLFlagTable: Sendable {
    /// Each entry: its flags (1 byte), the URL's length (4 bytes, little-endian), the URL.
    private var bytes: [UInt8] = []
    /// 0 is empty; else the entry's offset + 1 in the low 40 bits, 24 bits of its hash above.
    private var slots: [UInt64] = Array(repeating: 0, count: 1024)
    public private(set) var count = 0

    private static let offsetBits: UInt64 = 40
    private static let offsetMask: UInt64 = (1 << offsetBits) - 1

    public init() {}

    /// The flags set on `url`; 0 when the table does not have it.
    public func flags(_ url: String) -> UInt8 {
        var url = url
        return url.withUTF8 { key in
            let (slot, found) = find(key, hash: Self.hash(key))
            return found ? bytes[Int(slots[slot] & Self.offsetMask) - 1] : 0
        }
    }

    /// Adds `flags` to those of `url`, taking the URL in when it is new; returns its flags before.
    @discardableResult
    public mutating func insert(_ flags: UInt8, for url: String) -> UInt8 {
        var url = url
        return url.withUTF8 { key in
            let hash = Self.hash(key)
            let (slot, found) = find(key, hash: hash)
            if found {
                let offset = Int(slots[slot] & Self.offsetMask) - 1
                let before = bytes[offset]
                bytes[offset] = before | flags
                return before
            }
            let offset = UInt64(bytes.count)
            bytes.append(flags)
            PackedUInt32.append(UInt32(key.count), to: &bytes)
            bytes.append(contentsOf: key)
            slots[slot] = (offset + 1) | (Self.tag(hash) << Self.offsetBits)
            count += 1
            // Linear probing stays short below about two thirds full.
            if count * 3 > slots.count * 2 { grow() }
            return 0
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    private func find(_ key: UnsafeBufferPointer<UInt8>, hash: Int) -> (slot: Int, found: Bool) {
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var slot = hash & mask
        while true {
            let value = slots[slot]
            if value == 0 { return (slot, false) }
            if value >> Self.offsetBits == tag, matches(key, at: Int(value & Self.offsetMask) - 1) { return (slot, true) }
            slot = (slot + 1) & mask
        }
    }

    private func matches(_ key: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard length(at: offset) == key.count else { return false }
        return key.isEmpty || bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset + 5, key.baseAddress!, key.count) == 0 }
    }

    /// The length of the URL of the entry at `offset`.
    private func length(at offset: Int) -> Int {
        Int(PackedUInt32.read(bytes, at: offset + 1))
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for value in old where value != 0 {
            let offset = Int(value & Self.offsetMask) - 1
            let length = length(at: offset)
            let hash = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[(offset + 5)..<(offset + 5 + length)])) }
            var slot = hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = value
        }
    }

    /// The top 24 bits: the slot number comes from the low ones, so these tell more keys apart.
    private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash) >> 40) }

    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(key))
        return hasher.finalize()
    }
}
