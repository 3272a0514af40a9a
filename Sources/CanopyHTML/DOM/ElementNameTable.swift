/// Values by element local name, found by the name's key word (`Element.localNameKey`): for
/// tables asked about every element of every page, where hashing the name as a string cost more
/// than the work the value leads to. Names of up to seven bytes are told by their key alone;
/// longer ones that share a key are then compared whole.
public struct ElementNameTable<Value>: Sendable where Value: Sendable {
    /// Sorted by key; equal keys (longer names sharing seven bytes and a length) are adjacent.
    private let entries: [(key: UInt64, name: String, value: Value)]

    public init(_ values: [String: Value]) {
        entries = values.map { (key: NameKey.of($0.key), name: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
    }

    /// The value for the element's local name, as written (no case folding).
    public subscript(element: Element) -> Value? {
        let key = element.localNameKey
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].key == key else { return nil }
        if key >> 56 <= 7 { return entries[low].value }
        let name = element.localName
        var index = low
        while index < entries.count, entries[index].key == key {
            if entries[index].name == name { return entries[index].value }
            index += 1
        }
        return nil
    }
}
