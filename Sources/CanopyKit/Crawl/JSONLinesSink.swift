import CanopyCrawl
import Foundation

/// Writes one line of JSON for every URL the crawl records, as soon as it is done, so results
/// stream to disk instead of piling up in memory. An audited page's line is its axe-shaped
/// result (`url`, `timestamp`, `testEngine`, `violations`, `incomplete`, `passes`,
/// `inapplicable`) with a `crawl` member added; a page that was not audited (failed, error
/// status, not HTML, a redirect that ended elsewhere) has only `url` and `crawl`, which says
/// why. `crawl` always has the same keys, null where nothing is known: see `CrawlLineRecord`.
/// The axe `url` is the document audited (after redirects); `crawl.requestedURL` is the URL as
/// the crawl planned it, the key of the page in the run store.
public final class JSONLinesSink: CrawlSink, @unchecked Sendable {
    // @unchecked: the crawler calls `record` from one thread at a time (under its sink lock).
    private let handle: FileHandle
    private let encoder: JSONEncoder
    public let path: String

    /// Pages of a resumed run that were on record but had no line left in the file (it was
    /// replaced or removed since): their results are in the store only.
    public private(set) var missingLines = 0

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

    private init(path: String, contents: Data) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Written whole to a temporary file and renamed, so a kill now leaves the old file or the new one.
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit { try? handle.close() }

    public func record(_ page: CrawledPage) {
        handle.write(Data((Self.line(for: page, encoder: encoder) + "\n").utf8))
    }

    static func line(for page: CrawledPage, encoder: JSONEncoder) -> String {
        let crawl = (try? encoder.encode(CrawlLineRecord(page))).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        // The axe line is one compact JSON object made by JSONEncoder, so the member can go in
        // before its closing brace; decoding and re-encoding it would cost more than the audit.
        if let axe = page.axeJSONLine, axe.hasSuffix("}") {
            return String(axe.dropLast()) + ",\"crawl\":" + crawl + "}"
        }
        let url = (try? encoder.encode(page.url)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return "{\"crawl\":" + crawl + ",\"url\":" + url + "}"
    }
}

/// What the crawl knows about one URL, the `crawl` member of a `results.jsonl` line.
struct CrawlLineRecord: Encodable {
    struct Hop: Encodable {
        let from: String
        let status: Int
        let to: String
    }

    let page: CrawledPage

    init(_ page: CrawledPage) {
        self.page = page
    }

    enum CodingKeys: String, CodingKey {
        case requestedURL, audited, status, finalURL, redirects, contentType, bytes, depth, attempts
        case fetchMilliseconds, auditMilliseconds, title, canonical, error, skipped
    }

    func encode(to encoder: any Encoder) throws {
        // Every key is written, null when unknown, so each line has the same shape.
        var container = encoder.container(keyedBy: CodingKeys.self)
        let record = page.record
        try container.encode(record.url, forKey: .requestedURL)
        try container.encode(page.audited, forKey: .audited)
        try container.encode(record.statusCode, forKey: .status)
        try container.encode(record.finalURL ?? (record.statusCode != nil ? record.url : nil), forKey: .finalURL)
        try container.encode(page.redirects.map { Hop(from: $0.from, status: $0.status, to: $0.to) }, forKey: .redirects)
        try container.encode(record.contentType, forKey: .contentType)
        try container.encode(record.bytes, forKey: .bytes)
        try container.encode(record.depth, forKey: .depth)
        try container.encode(page.attempts, forKey: .attempts)
        try container.encode(record.fetchMilliseconds, forKey: .fetchMilliseconds)
        try container.encode(record.auditMilliseconds, forKey: .auditMilliseconds)
        try container.encode(record.title, forKey: .title)
        try container.encode(page.canonicalURL, forKey: .canonical)
        try container.encode(record.error, forKey: .error)
        try container.encode(page.skippedReason, forKey: .skipped)
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
