/// A table keyed by 64-bit values that are hashes already or nearly (the FNV-1a hashes of
/// selector features, element name keys, style node signatures), looked up by the key's own
/// bits. A `Dictionary` hashes each key again with SipHash, about 90 instructions a lookup, and
/// target selectors look features up half a million times per 300 javadoc pages. Open
/// addressing over a power-of-two array of slots, at most half full.
public struct PrehashedTable<Value> {
    private var keys: [UInt64] = []
    private var values: [Value?] = []
    public private(set) var count = 0

    public init() {}

    /// The first slot to try: the key's low bits mixed with its high ones.
    @inline(__always)
    private static func home(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: key ^ (key >> 32)) & mask
    }

    public subscript(key: UInt64) -> Value? {
        guard !keys.isEmpty else { return nil }
        let mask = keys.count - 1
        var slot = Self.home(of: key, mask: mask)
        while let value = values[slot] {
            if keys[slot] == key { return value }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Changes the value of `key` in place, starting from `initial` when there is none.
    public mutating func update(_ key: UInt64, default initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = Self.home(of: key, mask: mask)
        while values[slot] != nil {
            if keys[slot] == key { return change(&values[slot]!) }
            slot = (slot + 1) & mask
        }
        var value = initial()
        change(&value)
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    public mutating func set(_ key: UInt64, to value: Value) {
        update(key, default: value) { $0 = value }
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        let capacity = max(16, keys.count * 2)
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: nil, count: capacity)
        count = 0
        for (key, value) in zip(oldKeys, oldValues) {
            guard let value else { continue }
            set(key, to: value)
        }
    }
}

extension PrehashedTable: Sendable where Value: Sendable {}
