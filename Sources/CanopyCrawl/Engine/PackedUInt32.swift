/// A 4-byte little-endian length or number inside a byte buffer: the frontier's file and the
/// URL table's entries are laid out with them.
enum PackedUInt32 {
    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        var little = value.littleEndian
        withUnsafeBytes(of: &little) { bytes.append(contentsOf: $0) }
    }

    static func read(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
