import CZlib

/// Inflates gzip data (RFC 1952) with zlib, stopping as soon as the output passes a
/// limit, so a small compressed file cannot expand into gigabytes (a "zip bomb").
enum GzipInflater {
    enum Failure: Error, Equatable {
        case tooLarge(limit: Int)
        case corrupt(String)
    }

    /// Whether `bytes` start with gzip's magic number 1f 8b.
    static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var input = compressed
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let result: Result<Void, Failure> = input.withUnsafeMutableBufferPointer { inputBuffer in
            chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                var stream = z_stream()
                // 16 + 15: a gzip wrapper (not zlib or raw deflate) with the largest window.
                guard canopy_inflate_init2(&stream, 16 + MAX_WBITS) == Z_OK else {
                    return .failure(.corrupt("zlib could not start inflating"))
                }
                defer { inflateEnd(&stream) }
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                while true {
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    let produced = chunkBuffer.count - Int(stream.avail_out)
                    guard output.count + produced <= limit else { return .failure(.tooLarge(limit: limit)) }
                    output.append(contentsOf: chunkBuffer[..<produced])
                    switch status {
                    case Z_OK:
                        continue
                    case Z_STREAM_END:
                        // gzip allows several members one after another (RFC 1952 §2.2).
                        guard stream.avail_in >= 2, stream.next_in[0] == 0x1F, stream.next_in[1] == 0x8B else {
                            return .success(())
                        }
                        guard inflateReset(&stream) == Z_OK else { return .failure(.corrupt("zlib could not continue")) }
                    case Z_BUF_ERROR where stream.avail_in == 0:
                        return .failure(.corrupt("the gzip data ends early"))
                    default:
                        let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                        return .failure(.corrupt(message))
                    }
                }
            }
        }
        try result.get()
        return output
    }
}
