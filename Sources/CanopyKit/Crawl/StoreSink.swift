import CanopyCrawl
import CanopyHistory
import CanopyStore
import Foundation

/// Records a crawl's pages in the run store in batches: one transaction per batch keeps
/// writing cheap at thousands of pages a second, and a crash loses at most the last batch,
/// never earlier runs (the run stays `running`, then `interrupted`, and trends ignore it).
public final class StoreSink: CrawlSink, @unchecked Sendable {
    public typealias Result = PageAudit
    // @unchecked: the crawler calls `record` from one thread at a time; `flush` is called
    // after the crawl by the same owner.
    private let store: RunStore
    public let run: RunID
    private let batchSize: Int
    private var pending: [PageRecord] = []
    /// Pages handed over so far: one for every URL the crawl took in, audited or not.
    public private(set) var pagesReceived = 0
    /// The first write error; the crawl goes on and the caller reports it at the end.
    public private(set) var writeError: (any Error)?

    public init(store: RunStore, run: RunID, batchSize: Int = 200) {
        self.store = store
        self.run = run
        self.batchSize = max(1, batchSize)
    }

    public func record(_ page: AuditedPage) {
        pagesReceived += 1
        pending.append(PageRecord(page))
        if pending.count >= batchSize { flush() }
    }

    /// Writes whatever is waiting.
    public func flush() {
        guard !pending.isEmpty else { return }
        do {
            try store.record(pending, run: run)
        } catch {
            if writeError == nil { writeError = error }
        }
        pending.removeAll(keepingCapacity: true)
    }
}

extension PageRecord {
    /// What the run store keeps of a crawled page.
    init(_ page: AuditedPage) {
        self.init(
            url: page.url, finalURL: page.finalURL, statusCode: page.statusCode, redirectChain: page.redirectChain,
            contentType: page.contentType, bytes: page.bytes, depth: page.depth, title: page.result?.title,
            fetchMilliseconds: page.fetchMilliseconds, auditMilliseconds: page.result.map { $0.seconds * 1000 },
            error: page.error, findings: page.result?.findings ?? [], passCounts: page.result?.passCounts ?? [:],
            components: page.result?.components ?? [], discoveredLinks: page.discoveredLinks
        )
        framesAudited = page.result?.frames.audited ?? 0
        framesSkipped = page.result?.frames.unavailable ?? 0
        if page.error == nil {
            notAudited = page.result?.notAudited ?? page.skip.map { NotAudited(reason: $0.reason, details: [$0.description]) }
        }
        if let audit = page.result, audit.audited {
            revision = PageRevision(
                etag: page.validators?.etag, lastModified: page.validators?.lastModified, contentDigest: page.contentDigest,
                stylesheetURLs: audit.stylesheetURLs, stylesheetDigest: audit.stylesheetDigest, links: page.links,
                canonicalURL: page.canonicalURL, unchanged: page.unchanged?.rawValue
            )
            unchangedSince = audit.carriedFrom
        }
    }
}
