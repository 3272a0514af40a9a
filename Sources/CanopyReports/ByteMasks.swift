/// Tests on eight bytes at once, read as one little-endian word (the first byte lowest): the
/// writers of large reports scan every value they write for the few bytes that need care.
enum ByteMasks {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` equal to `byte`: exact for the lowest one flagged,
    /// while bytes above it may be flagged by a borrow. Zero exactly when no byte is equal.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    /// The eight bytes at `offset` of `bytes`, which must hold them.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    }
}
