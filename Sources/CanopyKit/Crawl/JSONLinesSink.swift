import Foundation

/// Writes each audited page's axe-shaped result as one line of a JSON-lines file as soon as
/// the page is done, so results stream to disk instead of piling up in memory.
public final class JSONLinesSink: CrawlSink, @unchecked Sendable {
    // @unchecked: the crawler calls `record` from one thread at a time (under its sink lock).
    private let handle: FileHandle
    public let path: String

    public init(path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
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
