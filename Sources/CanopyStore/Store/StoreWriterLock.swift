import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One writer per store: a crawl, an import or a prune holds this for as long as it writes, and a
/// second one is refused at once with the holder's process id, instead of two crawls interleaving
/// runs in one history. Readers (reports, the gate) never take it.
///
/// An advisory `flock` on `<store>.lock`: the kernel drops it when the holder's process ends,
/// however it ends, so a killed crawl never leaves a stale lock behind. Each acquisition opens the
/// file anew, so two holders in one process (parallel tests on one store) exclude each other too.
public final class StoreWriterLock: @unchecked Sendable {
    // @unchecked: `descriptor` changes only in `release`, under `lock`.
    public let storePath: String
    private let lock = NSLock()
    private var descriptor: Int32

    /// Takes the store's writer lock, or throws `StoreBusy` naming the process that holds it.
    public init(storePath: String) throws {
        self.storePath = storePath
        let lockPath = Self.lockPath(forStoreAt: storePath)
        let folder = (lockPath as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let opened = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw StoreBusy(storePath: storePath, holder: nil, reason: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(readFrom: opened)
            close(opened)
            throw StoreBusy(storePath: storePath, holder: holder, reason: nil)
        }
        descriptor = opened
        // Who holds it, for the message the next writer gets.
        let note = "pid \(getpid()) on \(ProcessInfo.processInfo.hostName)\n"
        _ = ftruncate(opened, 0)
        _ = note.withCString { pwrite(opened, $0, strlen($0), 0) }
    }

    deinit { release() }

    /// Lets the next writer in; also done when the lock is freed or the process ends.
    public func release() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    public static func lockPath(forStoreAt storePath: String) -> String { storePath + ".lock" }

    private static func holder(readFrom descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 200)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}

/// Another process is writing the store.
public struct StoreBusy: Error, CustomStringConvertible, Sendable {
    public let storePath: String
    /// "pid 123 on host", as the holder wrote it.
    public let holder: String?
    /// Set when the lock could not even be tried (an unreadable folder).
    public let reason: String?

    public var description: String {
        if let reason { return "cannot lock the store \(storePath) for writing: \(reason)" }
        let who = holder.map { "another Canopy process (\($0))" } ?? "another Canopy process"
        return "the store \(storePath) is being written by \(who); wait for it to finish, or give this run another store with --store"
    }
}
