import CanopyCrawl
import CanopyStore

/// One URL of a crawl and what became of it: fetched and audited, skipped with a reason, or
/// failed with an error. Every URL the crawl takes in gets exactly one. `record` is what the
/// run store keeps; the rest serves the crawl's own outputs.
public struct CrawledPage: Sendable {
    public var record: PageRecord
    /// Requests sent for the last hop (more than 1 after retries).
    public var attempts: Int
    /// Why a fetched page was not audited although nothing failed: not HTML, a redirect to a
    /// page crawled under another URL, a redirect out of scope.
    public var skippedReason: String?
    /// Set when a redirect led out of the crawl's scope: why the target was turned away (the
    /// target is the last of `redirects`).
    public var redirectedOutOfScope: CrawlScope.Decision?
    public var canonicalURL: String?
    public var audited = false
    /// The page's axe-shaped result (violations and incomplete in full), one line of JSON as
    /// UTF-8 bytes.
    public var axeJSONLine: [UInt8]?
    /// The full redirect chain with statuses (the record keeps the URLs).
    public var redirects: [Redirect] = []

    public init(url: String, depth: Int, attempts: Int) {
        self.record = PageRecord(url: url, depth: depth)
        self.attempts = attempts
    }

    public var url: String { record.url }
    public var error: String? { record.error }
    public var violationCount: Int { record.findings.filter { $0.outcome == .violation }.count }
    public var incompleteCount: Int { record.findings.filter { $0.outcome == .incomplete }.count }

    mutating func merge(_ audit: PageAuditor.AuditedPage) {
        audited = true
        record.title = audit.title
        record.findings = audit.findings
        record.passCounts = audit.passCounts
        record.components = audit.components
        record.auditMilliseconds = audit.seconds * 1000
        canonicalURL = audit.canonicalURL
        axeJSONLine = audit.axeJSONLine
    }

    mutating func setRedirects(_ chain: [Redirect]) {
        redirects = chain
        record.redirectChain = chain.map(\.to)
        record.finalURL = chain.last?.to
    }
}
