import CanopyCrawl
import CanopyHistory
import CanopyReports
import Foundation

/// Writes results.jsonl: one line of JSON (`CrawlResultLine`) for every URL the crawl records,
/// as soon as it is done, so results stream to disk instead of piling up in memory.
public final class JSONLinesSink: CrawlSink, @unchecked Sendable {
    public typealias Result = PageAudit
    // @unchecked: the crawler calls `record` from one thread at a time (under its sink lock).
    private let handle: FileHandle
    public let path: String

    /// Pages of a resumed run that were on record but had no line left in the file (it was
    /// replaced or removed since): their results are in the store only.
    public private(set) var missingLines = 0

    /// The first error writing a line (a full disk, a file system gone read-only). The lines after
    /// it are not written, the last one may be cut short, and the crawl goes on: every page is
    /// still recorded in the store.
    public private(set) var writeError: (any Error)?
    /// Pages whose line was not written whole because of `writeError`.
    public private(set) var linesNotWritten = 0

    /// Starts the file afresh.
    public convenience init(path: String) throws {
        try self.init(path: path, contents: Data())
    }

    /// Continues the file of an interrupted run: keeps the first line of each of `keptURLs`
    /// (the pages the run recorded, by `crawl.requestedURL`, their key in the store) and drops
    /// the rest: a line cut short by a kill, and lines of pages the store lost, which are
    /// crawled again.
    public convenience init(resuming path: String, keeping keptURLs: Set<String>) throws {
        let old = FileManager.default.contents(atPath: path) ?? Data()
        var kept = Data()
        var written: Set<String> = []
        for line in old.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let crawl = object["crawl"] as? [String: Any], let url = crawl["requestedURL"] as? String,
                  keptURLs.contains(url), written.insert(url).inserted else { continue }
            kept.append(contentsOf: line)
            kept.append(UInt8(ascii: "\n"))
        }
        try self.init(path: path, contents: kept)
        missingLines = keptURLs.count - written.count
    }

    private convenience init(path: String, contents: Data) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written whole to a temporary file and renamed, so a kill now leaves the old file or the new one.
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        self.init(path: path, appendingTo: handle)
    }

    /// Appends the lines to `handle`, which stands for the file at `path`.
    init(path: String, appendingTo handle: FileHandle) {
        self.path = path
        self.handle = handle
    }

    deinit { try? handle.close() }

    public func record(_ page: AuditedPage) {
        guard writeError == nil else {
            linesNotWritten += 1
            return
        }
        // Written as the page holds it, without a copy of a line that can be megabytes long.
        // (`FileHandle.write(_: Data)` stops the process on an error; this one throws.)
        do {
            try CrawlResultLine.write(page) { bytes in try handle.write(contentsOf: bytes) }
        } catch {
            writeError = error
            linesNotWritten += 1
        }
    }
}
