/// Accessible names computed so far, by element position: a four-byte number per element into
/// the names in the order they were computed (-1: not computed yet). As `[String?]` the cache
/// was 16 bytes an element, most never computed, and each destroyed when the page's model went.
struct NameSlots {
    private var numbers: [Int32] = []
    private var names: [String] = []

    var isEmpty: Bool { numbers.isEmpty }

    /// Room for `count` positions, none computed.
    mutating func allocate(_ count: Int) {
        numbers = Array(repeating: -1, count: count)
        names = []
    }

    /// Forgets everything.
    mutating func removeAll() {
        numbers = []
        names = []
    }

    /// nil when the position's name is not computed yet.
    subscript(position: Int) -> String? {
        let number = numbers[position]
        return number < 0 ? nil : names[Int(number)]
    }

    mutating func set(_ name: String, at position: Int) {
        numbers[position] = Int32(names.count)
        names.append(name)
    }
}
