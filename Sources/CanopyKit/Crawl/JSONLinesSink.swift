import CanopyCrawl
import CanopyReports
import Foundation

/// Writes one line of JSON for every URL the crawl records, as soon as it is done, so results
/// stream to disk instead of piling up in memory. An audited page's line is its axe-shaped
/// result (`url`, `timestamp`, `testEngine`, `violations`, `incomplete`, `passes`,
/// `inapplicable`) with a `crawl` member added; a page that was not audited (failed, error
/// status, not HTML, a redirect that ended elsewhere) has only `url` and `crawl`, which says
/// why. `crawl` always has the same keys, null where nothing is known: see `appendCrawlRecord`.
/// The axe `url` is the document audited (after redirects); `crawl.requestedURL` is the URL as
/// the crawl planned it, the key of the page in the run store.
public final class JSONLinesSink: CrawlSink, @unchecked Sendable {
    public typealias Result = PageAudit
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
    }

    deinit { try? handle.close() }

    public func record(_ page: AuditedPage) {
        var line = Self.line(for: page)
        line.append(0x0A)
        handle.write(Data(line))
    }

    /// One line, without its line feed. Written as bytes: the axe part is already JSON, and a
    /// page's line runs to tens of kilobytes, which String surgery or JSONEncoder would copy and
    /// walk again for every page of the crawl.
    static func line(for page: AuditedPage) -> [UInt8] {
        var line: [UInt8] = []
        if let axe = page.result?.axeJSONLine, axe.last == UInt8(ascii: "}") {
            // The `crawl` member goes in before the axe object's closing brace.
            line.reserveCapacity(axe.count + 512)
            line.append(contentsOf: axe.dropLast())
            line.append(contentsOf: #","crawl":"#.utf8)
            appendCrawlRecord(page, to: &line)
            line.append(UInt8(ascii: "}"))
        } else {
            line.append(contentsOf: #"{"crawl":"#.utf8)
            appendCrawlRecord(page, to: &line)
            line.append(contentsOf: #","url":"#.utf8)
            JSONText.append(page.url, to: &line)
            line.append(UInt8(ascii: "}"))
        }
        return line
    }

    /// What the crawl knows about one URL, the `crawl` member of a line. Every key is written,
    /// null when unknown, so each line has the same shape; keys in sorted order.
    static func appendCrawlRecord(_ page: AuditedPage, to json: inout [UInt8]) {
        func key(_ name: String, first: Bool = false) {
            json.append(contentsOf: (first ? "{\"" : ",\"").utf8)
            json.append(contentsOf: name.utf8)
            json.append(contentsOf: "\":".utf8)
        }
        func string(_ value: String?) {
            if let value { JSONText.append(value, to: &json) } else { json.append(contentsOf: "null".utf8) }
        }
        func number(_ value: Int?) { json.append(contentsOf: (value.map(String.init) ?? "null").utf8) }
        func number(_ value: Double?) { json.append(contentsOf: (value.map { String($0) } ?? "null").utf8) }
        key("attempts", first: true); number(page.attempts)
        key("auditMilliseconds"); number(page.result.map { $0.seconds * 1000 })
        key("audited"); json.append(contentsOf: (page.processed ? "true" : "false").utf8)
        key("bytes"); number(page.bytes)
        key("canonical"); string(page.canonicalURL)
        key("contentType"); string(page.contentType)
        key("depth"); number(page.depth)
        key("error"); string(page.error)
        key("fetchMilliseconds"); number(page.fetchMilliseconds)
        key("finalURL"); string(page.finalURL ?? (page.statusCode != nil ? page.url : nil))
        key("redirects"); json.append(UInt8(ascii: "["))
        for (index, hop) in page.redirects.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: #"{"from":"#.utf8)
            JSONText.append(hop.from, to: &json)
            json.append(contentsOf: #","status":"#.utf8)
            number(hop.status)
            json.append(contentsOf: #","to":"#.utf8)
            JSONText.append(hop.to, to: &json)
            json.append(UInt8(ascii: "}"))
        }
        json.append(UInt8(ascii: "]"))
        key("requestedURL"); string(page.url)
        key("skipped"); string(page.skippedReason)
        key("status"); number(page.statusCode)
        key("title"); string(page.result?.title)
        json.append(UInt8(ascii: "}"))
    }
}
