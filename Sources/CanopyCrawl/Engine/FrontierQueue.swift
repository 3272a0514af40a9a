import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The URLs waiting to be crawled, first in first out, with at most about `memoryLimit` of them
/// in memory: the rest go to a temporary file (unlinked as soon as it is made, so nothing is left
/// behind however the process ends) and come back in order. A breadth-first crawl of a large
/// site has most of the site queued at once; this keeps that on disk.
///
/// If the file cannot be made or written, entries stay in memory: the crawl goes on.
/// Not thread-safe: its owner serializes calls.
public final class FrontierQueue {
    public struct Entry: Equatable, Sendable {
        public var url: String
        public var depth: Int

        public init(url: String, depth: Int) {
            self.url = url
            self.depth = depth
        }
    }

    public let memoryLimit: Int
    private let directory: String
    /// Read side: the oldest entries, taken from `head[headIndex...]`.
    private var head: [Entry] = []
    private var headIndex = 0
    /// Entries newer than the file's, written to it in batches of `batch`.
    private var tail: [Entry] = []
    private let batch: Int
    private var file: Int32 = -1
    private var readOffset: off_t = 0
    private var writeOffset: off_t = 0
    private var entriesInFile = 0
    private var cannotSpill = false

    public private(set) var count = 0
    /// Entries written to disk so far.
    public private(set) var spilled = 0

    /// - Parameters:
    ///   - memoryLimit: entries kept in memory (at least 2).
    ///   - directory: where the temporary file goes.
    public init(memoryLimit: Int = 4096, directory: String = NSTemporaryDirectory()) {
        self.memoryLimit = max(2, memoryLimit)
        self.batch = max(1, self.memoryLimit / 2)
        self.directory = directory
    }

    deinit {
        if file >= 0 { close(file) }
    }

    public var isEmpty: Bool { count == 0 }

    public func push(_ entry: Entry) {
        count += 1
        if entriesInFile == 0, tail.isEmpty, head.count - headIndex < memoryLimit {
            head.append(entry)
            return
        }
        tail.append(entry)
        if tail.count >= batch, !cannotSpill { spill() }
    }

    public func pop() -> Entry? {
        if headIndex == head.count { refill() }
        guard headIndex < head.count else { return nil }
        let entry = head[headIndex]
        headIndex += 1
        count -= 1
        if headIndex >= batch, headIndex * 2 >= head.count {
            // Pushes that land in `head` while it is read would otherwise keep what was read.
            head.removeFirst(headIndex)
            headIndex = 0
        }
        return entry
    }

    // MARK: - The file

    private func spill() {
        if file < 0 {
            var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("canopy-frontier-XXXXXX".utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { cannotSpill = true; return }
            // Unlinked at once: the open descriptor keeps it, and no kill leaves it behind.
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            file = descriptor
        }
        var bytes: [UInt8] = []
        for entry in tail {
            PackedUInt32.append(UInt32(clamping: entry.depth), to: &bytes)
            PackedUInt32.append(UInt32(entry.url.utf8.count), to: &bytes)
            bytes.append(contentsOf: entry.url.utf8)
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { pwrite(file, $0.baseAddress! + written, $0.count - written, writeOffset + off_t(written)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                // Disk full or the like: what is in the file stays readable; the rest stays here.
                cannotSpill = true
                return
            }
            written += result
        }
        writeOffset += off_t(bytes.count)
        entriesInFile += tail.count
        spilled += tail.count
        tail.removeAll(keepingCapacity: true)
    }

    private func refill() {
        head.removeAll(keepingCapacity: true)
        headIndex = 0
        if entriesInFile > 0 {
            readFromFile()
        } else if !tail.isEmpty {
            swap(&head, &tail)
        }
    }

    /// Reads up to `batch` entries, in the order written.
    private func readFromFile() {
        var block: [UInt8] = []
        var used = 0
        while head.count < batch, entriesInFile > 0 {
            // An entry's 8-byte header, then its URL; a block holds many of them.
            if block.count - used < 8 || block.count - used < 8 + Int(PackedUInt32.read(block, at: used + 4)) {
                let needed = block.count - used >= 8 ? 8 + Int(PackedUInt32.read(block, at: used + 4)) : 8
                readOffset += off_t(used)
                block = readBlock(at: readOffset, atLeast: needed)
                used = 0
                guard block.count >= needed else { break }  // cannot happen unless the file was damaged
                continue
            }
            let depth = Int(PackedUInt32.read(block, at: used))
            let length = Int(PackedUInt32.read(block, at: used + 4))
            head.append(Entry(url: String(decoding: block[(used + 8)..<(used + 8 + length)], as: UTF8.self), depth: depth))
            used += 8 + length
            entriesInFile -= 1
        }
        readOffset += off_t(used)
        if entriesInFile == 0 {
            // All read: the file starts over, so the disk it takes stays bounded too.
            _ = ftruncate(file, 0)
            readOffset = 0
            writeOffset = 0
        }
    }

    private func readBlock(at offset: off_t, atLeast needed: Int) -> [UInt8] {
        let size = min(max(needed, 256 * 1024), Int(writeOffset - offset))
        var block = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let result = block.withUnsafeMutableBytes { pread(file, $0.baseAddress! + filled, size - filled, offset + off_t(filled)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { break }
            filled += result
        }
        return Array(block[..<filled])
    }
}
