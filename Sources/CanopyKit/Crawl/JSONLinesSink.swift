import Foundation

/// Writes each audited page's axe-shaped result as one line of a JSON-lines file as soon as
/// the page is done, so results stream to disk instead of piling up in memory.
public final class JSONLinesSink: CrawlSink, @unchecked Sendable {
    // @unchecked: the crawler calls `record` from one thread at a time (under its sink lock).
    private let handle: FileHandle
    public let path: String

    /// Pages of a resumed run that were on record but had no line left in the file (it was
    /// replaced or removed since): their results are in the store only.
    public private(set) var missingLines = 0

    /// Starts the file afresh.
    public convenience init(path: String) throws {
        try self.init(path: path, contents: Data())
    }

    /// Continues the file of an interrupted run: keeps the first line of each of `keptURLs`
    /// (the pages the run recorded, by the URL their results are under) and drops the rest: a
    /// line cut short by a kill, and lines of pages the store lost, which are crawled again.
    public convenience init(resuming path: String, keeping keptURLs: Set<String>) throws {
        let old = FileManager.default.contents(atPath: path) ?? Data()
        var kept = Data()
        var written: Set<String> = []
        for line in old.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let url = object["url"] as? String, keptURLs.contains(url), written.insert(url).inserted else { continue }
            kept.append(contentsOf: line)
            kept.append(UInt8(ascii: "\n"))
        }
        try self.init(path: path, contents: kept)
        missingLines = keptURLs.count - written.count
    }

    private init(path: String, contents: Data) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written whole to a temporary file and renamed, so a kill now leaves the old file or the new one.
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    deinit { try? handle.close() }

    public func record(_ page: CrawledPage) {
        guard let line = page.axeJSONLine else { return }
        handle.write(Data((line + "\n").utf8))
    }
}

/// Hands every page to several sinks in turn.
public final class CombinedSink: CrawlSink, @unchecked Sendable {
    private let sinks: [any CrawlSink]

    public init(_ sinks: [any CrawlSink]) {
        self.sinks = sinks
    }

    public func record(_ page: CrawledPage) {
        for sink in sinks { sink.record(page) }
    }
}
