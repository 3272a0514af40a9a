import CanopyCrawl
import CanopyHistory
import CanopyStore
import Foundation

/// Records a crawl's pages in the run store in batches: one transaction per batch keeps
/// writing cheap at thousands of pages a second, and a crash loses at most the last two batches
/// (the one being written and the one gathering), never earlier runs (the run stays `running`,
/// then `interrupted`, and trends ignore it; `--resume` crawls the lost pages again).
public final class StoreSink: CrawlSink, @unchecked Sendable {
    public typealias Result = PageAudit
    // @unchecked: the crawler calls `record` from one thread at a time, and `flush` after the
    // crawl by the same owner; batches are written in order on `writer`, where `writeError` is
    // set, and it is read after `flush` has waited for them.
    private let store: RunStore
    public let run: RunID
    private let batchSize: Int
    /// A batch is written early once its pages hold this many findings: a site's index pages
    /// have thousands each, and a batch of them held every one until the 200th page came. A
    /// styled crawl of java.base has 25 findings a page, so 200 pages were 5,000 findings held:
    /// at 2,000 its peak was 111-113 MB instead of 113-117 MB (three runs each); at 800, 97-102
    /// MB against 102-103 MB (four runs each, 2026-11-28), in the same time, for a tenth more
    /// page writes and 74 syncs instead of 53 (strace). An unstyled crawl's batches end at 200
    /// pages as before.
    private let batchFindings: Int
    private var pending: [PageRecord] = []
    private var pendingFindings = 0
    /// Batches are written on a thread of their own, in order, one at a time. Written by the
    /// worker that filled them, under the crawler's lock on its sinks, they kept the other worker
    /// waiting for the transaction with its page done: 0.7-0.9 s of a core in a 6 s styled crawl
    /// of java.base.
    private let writer = DispatchQueue(label: "canopy.store-writer")
    /// Taken while a batch is being written: a batch that fills before the one before it is
    /// written waits, so no more than two are ever held.
    private let batchBeingWritten = DispatchSemaphore(value: 1)
    /// Pages handed over so far: one for every URL the crawl took in, audited or not.
    public private(set) var pagesReceived = 0
    /// The first write error; the crawl goes on and the caller reports it at the end.
    public private(set) var writeError: (any Error)?

    public init(store: RunStore, run: RunID, batchSize: Int = 200, batchFindings: Int = 800) {
        self.store = store
        self.run = run
        self.batchSize = max(1, batchSize)
        self.batchFindings = max(1, batchFindings)
    }

    public func record(_ page: AuditedPage) {
        pagesReceived += 1
        let record = PageRecord(page)
        pendingFindings += record.findings.count
        pending.append(record)
        if pending.count >= batchSize || pendingFindings >= batchFindings { handOff() }
    }

    /// Writes whatever is waiting, and returns once every page handed over is in the store.
    public func flush() {
        handOff()
        waitForWrites()
    }

    /// Returns once the batches handed to the writer are written (the pages still gathering
    /// into a batch are not).
    func waitForWrites() {
        writer.sync {}
    }

    /// Gives the waiting pages to the writer as one batch.
    private func handOff() {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pendingFindings = 0
        batchBeingWritten.wait()
        writer.async { [self] in
            do {
                try store.record(batch, run: run)
            } catch {
                if writeError == nil { writeError = error }
            }
            batchBeingWritten.signal()
        }
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
