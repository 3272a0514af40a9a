/// Builds a valid gzip stream (RFC 1952) around stored, uncompressed deflate
/// blocks (RFC 1951 §3.2.4): enough for curl's zlib to have something real to
/// decode, without linking zlib into the tests.
public enum GzipStoredEncoder {
    public static func encode(_ data: [UInt8]) -> [UInt8] {
        // Magic, deflate method, no flags, no mtime, no extra flags, unknown OS.
        var stream: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var offset = 0
        repeat {
            let length = min(0xFFFF, data.count - offset)
            let isFinal = offset + length == data.count
            stream.append(isFinal ? 0x01 : 0x00)  // BFINAL bit, BTYPE 00 (stored)
            let complement = ~UInt16(length)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(complement & 0xFF), UInt8(complement >> 8)]
            stream += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        stream += littleEndianBytes(crc32(data))
        stream += littleEndianBytes(UInt32(truncatingIfNeeded: data.count))
        return stream
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
