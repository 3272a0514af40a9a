import CanopyCrawl
import CanopyHistory
import CanopyStore

/// A line of results.jsonl. An audited page's line is its axe-shaped result (`url`, `timestamp`,
/// `testEngine`, `violations`, `incomplete`, `passes`, `inapplicable`) with a `crawl` member
/// added; a page that was not audited (failed, error status, not HTML, a redirect that ended
/// elsewhere) has only `url` and `crawl`, which says why. `crawl` always has the same keys, null
/// where nothing is known: see `appendCrawlRecord`. The axe `url` is the document audited (after
/// redirects); `crawl.requestedURL` is the URL as the crawl planned it, the key of the page in the
/// run store. A client-rendered page (`crawl.notAudited`, with the signals that decided it) has
/// no axe part: its shell was not audited. A page an incremental crawl found unchanged has `crawl.unchanged` (how it knew) and
/// `crawl.unchangedSince` (the run whose audit it carries); its nodes have no source lines.
public enum CrawlResultLine {
    /// The line and its line feed, handed to `write` in pieces: the page's axe object as the
    /// worker wrote it, then the rest. Written as bytes: the axe part is already JSON, and a
    /// page's line runs to tens of kilobytes (megabytes for a page with thousands of findings),
    /// which String surgery, JSONEncoder or a copy into one buffer would walk again.
    public static func write(_ page: AuditedPage, to write: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var tail: [UInt8]
        if let axe = page.result?.axeJSONLine, axe.last == UInt8(ascii: "}") {
            // The `crawl` member goes in before the axe object's closing brace.
            try axe.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
            tail = Array(#","crawl":"#.utf8)
            appendCrawlRecord(page, to: &tail)
        } else {
            tail = Array(#"{"crawl":"#.utf8)
            appendCrawlRecord(page, to: &tail)
            tail.append(contentsOf: #","url":"#.utf8)
            JSONText.append(page.url, to: &tail)
        }
        tail.append(contentsOf: "}\n".utf8)
        try tail.withUnsafeBytes(write)
    }

    /// One line, without its line feed.
    public static func line(for page: AuditedPage) -> [UInt8] {
        var line: [UInt8] = []
        write(page) { line.append(contentsOf: $0) }
        line.removeLast()
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
        key("audited"); json.append(contentsOf: (page.result?.audited == true ? "true" : "false").utf8)
        key("bytes"); number(page.bytes)
        key("canonical"); string(page.canonicalURL)
        key("contentType"); string(page.contentType)
        key("depth"); number(page.depth)
        key("error"); string(page.error)
        key("fetchMilliseconds"); number(page.fetchMilliseconds)
        key("finalURL"); string(page.finalURL ?? (page.statusCode != nil ? page.url : nil))
        key("framesAudited"); number(page.result?.frames.audited ?? 0)
        key("framesSkipped"); number(page.result?.frames.unavailable ?? 0)
        key("notAudited")
        if let notAudited = page.result?.notAudited {
            notAudited.appendJSON(to: &json)
        } else {
            json.append(contentsOf: "null".utf8)
        }
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
        key("unchanged"); string(page.unchanged?.rawValue)
        key("unchangedSince"); json.append(contentsOf: (page.result?.carriedFrom.map { String($0.rawValue) } ?? "null").utf8)
        json.append(UInt8(ascii: "}"))
    }
}
