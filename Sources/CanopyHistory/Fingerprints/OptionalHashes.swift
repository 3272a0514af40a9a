/// A fixed number of 64-bit hashes, each known or not, in eight bytes and one bit an entry.
/// `[UInt64?]` takes sixteen (the optional's flag is padded to the next eight bytes), and the
/// fingerprinter keeps three such tables over a page's elements: 5 MB on javadoc's 106,000-element
/// uses of `String`, audited when a styled crawl peaks.
struct OptionalHashes {
    private var values: [UInt64]
    /// One bit an entry: set when its value is known.
    private var known: [UInt64]

    init(count: Int) {
        values = Array(repeating: 0, count: count)
        known = Array(repeating: 0, count: (count + 63) / 64)
    }

    var count: Int { values.count }

    subscript(index: Int) -> UInt64? {
        get { known[index >> 6] & (1 << UInt64(index & 63)) != 0 ? values[index] : nil }
        set {
            let bit: UInt64 = 1 << UInt64(index & 63)
            if let value = newValue {
                values[index] = value
                known[index >> 6] |= bit
            } else {
                known[index >> 6] &= ~bit
            }
        }
    }
}
