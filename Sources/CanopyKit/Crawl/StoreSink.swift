import CanopyStore
import Foundation

/// Records a crawl's pages in the run store in batches: one transaction per batch keeps
/// writing cheap at thousands of pages a second, and a crash loses at most the last batch,
/// never earlier runs (the run stays `running`, then `interrupted`, and trends ignore it).
public final class StoreSink: CrawlSink, @unchecked Sendable {
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

    public func record(_ page: CrawledPage) {
        pagesReceived += 1
        pending.append(page.record)
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
