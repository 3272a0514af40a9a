import Foundation

/// Where a report's bytes go as they are produced: a file being written, or memory.
protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A report file written in pieces under a temporary name and renamed when `commit` is called,
/// so a dashboard or a browser never reads half a file while a report is being written. A file
/// dropped without `commit` (an error on the way) leaves nothing behind.
///
/// @unchecked Sendable: used by one thread at a time, as a `ReaderJob` hands it on: its thread
/// writes the file, and the thread that waited for the job commits it.
final class ReportFile: ByteSink, @unchecked Sendable {
    let path: String
    private let temporary: String
    private var descriptor: Int32

    init(path: String) throws {
        self.path = path
        temporary = path + ".partial-\(getpid())"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ReportFileError(path: temporary, action: "create", code: errno) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try writeAll(bytes, to: descriptor, naming: temporary)
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Closes the file and gives it its name.
    func commit() throws {
        let closing = descriptor
        descriptor = -1
        guard close(closing) == 0 else {
            let code = errno
            unlink(temporary)
            throw ReportFileError(path: temporary, action: "write", code: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ReportFileError(path: path, action: "rename \(temporary) to", code: code)
        }
    }

    /// Closes the file and removes it, now rather than when the last reference goes.
    func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporary)
    }

    deinit { discard() }

    /// Writes a whole file at once.
    static func write(_ path: String, _ produce: (ReportFile) throws -> Void) throws {
        let file = try ReportFile(path: path)
        try produce(file)
        try file.commit()
    }
}

/// A file without a name, in a report folder, that bytes are written to and read back from:
/// made and unlinked at once, so nothing is left behind whatever happens to the process. In the
/// report folder rather than in the temporary one, which may be kept in memory.
///
/// @unchecked Sendable: used by one thread at a time, as a `ReaderJob` hands it on: its thread
/// writes the file, and the thread that waited for the job reads it.
final class ScratchFile: ByteSink, @unchecked Sendable {
    private var descriptor: Int32
    private var size = 0

    init(in folder: String) throws {
        var template = Array((folder as NSString).appendingPathComponent(".canopy-scratch-XXXXXX").utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        // mkstemp wrote the name over the X's; the terminating NUL is not part of it.
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw ReportFileError(path: path, action: "create", code: errno) }
        unlink(path)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try writeAll(bytes, to: descriptor, naming: "a scratch file")
        size += bytes.count
    }

    /// Hands everything written so far to `body`, a piece of at most `chunkSize` bytes at a time.
    func read(chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: min(chunkSize, max(size, 1)))
        var offset = 0
        while offset < size {
            let count = try buffer.withUnsafeMutableBytes { piece -> Int in
                let read = pread(descriptor, piece.baseAddress, min(piece.count, size - offset), off_t(offset))
                if read < 0, errno != EINTR { throw ReportFileError(path: "a scratch file", action: "read", code: errno) }
                if read == 0 { throw ReportFileError(path: "a scratch file", action: "read all of", code: EIO) }
                return max(read, 0)
            }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    deinit { close(descriptor) }
}

/// Writes every byte to the open file, going on after interrupted and partial writes.
private func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, naming path: String) throws {
    guard var next = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
        let written = Foundation.write(descriptor, next, left)
        if written < 0 {
            if errno == EINTR { continue }
            throw ReportFileError(path: path, action: "write", code: errno)
        }
        next += written
        left -= written
    }
}

/// Bytes kept in memory: what a report's `render()` returns.
final class InMemorySink: ByteSink {
    private(set) var bytes: [UInt8] = []

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}

struct ReportFileError: Error, CustomStringConvertible {
    let path: String
    let action: String
    let code: Int32

    var description: String { "cannot \(action) \(path): \(String(cString: strerror(code)))" }
}

/// Bytes gathered in a reusable buffer and handed to a sink in pieces of about `chunkSize`:
/// the writers of the big reports (trend.json, open-issues.csv, latest-results.jsonl) hold one
/// piece, never the file. With no sink, everything stays in `bytes` (small outputs, tests).
struct ChunkedOutput {
    var bytes: [UInt8] = []
    private let sink: ByteSink?
    private let chunkSize: Int

    init(sink: ByteSink?, chunkSize: Int = 1 << 20) {
        self.sink = sink
        self.chunkSize = chunkSize
        if sink != nil { bytes.reserveCapacity(chunkSize + chunkSize / 4) }
    }

    /// Hands the buffer on once it holds a piece; call it between items, never inside one.
    mutating func flushIfFull() throws {
        if bytes.count >= chunkSize { try flush() }
    }

    /// Hands on whatever is buffered.
    mutating func flush() throws {
        guard let sink, !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        if bytes.capacity > 4 * chunkSize {
            // One item far larger than a chunk (a page with thousands of findings) must not keep
            // its buffer for the rest of the file.
            bytes = []
            bytes.reserveCapacity(chunkSize + chunkSize / 4)
        } else {
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Everything `scratch` holds, after what is buffered: handed to the sink as it is read.
    mutating func append(contentsOf scratch: ScratchFile) throws {
        guard let sink else {
            try scratch.read { bytes.append(contentsOf: $0) }
            return
        }
        try flush()
        try scratch.read { try sink.write($0) }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A number in decimal digits, as `String(value)` writes it, without making the String.
    mutating func append(decimal value: Int) {
        guard value != 0 else { return bytes.append(UInt8(ascii: "0")) }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for 24 digits, read as bytes
        let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            return buffer.count - index
        }
        withUnsafeBytes(of: &digits) { bytes.append(contentsOf: $0.suffix(count)) }
    }
}
