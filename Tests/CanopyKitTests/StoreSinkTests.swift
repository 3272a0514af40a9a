import CanopyCrawl
import CanopyHistory
import CanopyHTML
@testable import CanopyKit
import CanopyRules
import CanopyStore
import Foundation
import Testing

@Suite("Store sink")
struct StoreSinkTests {
    /// A page audited as a crawl audits it, with as many image-alt violations as `images`.
    static func page(_ number: Int, images: Int) throws -> AuditedPage {
        let url = "https://shop.example/p\(number)"
        let html = "<!doctype html><html lang=en><title>p</title><body><main>" + String(repeating: "<img src=a.png>", count: images) + "</main></body></html>"
        let plan = CrawlPlan(startURLs: [try URLNormalizer().normalize("https://shop.example/")])
        let processed = PageAuditor(crawl: plan, audit: AuditPlan(rules: RuleSet.standard().rules)).process(HTMLParser().parse(html: html, url: url), url: url)
        var page = AuditedPage(url: url, depth: 1, attempts: 1)
        page.statusCode = 200
        page.result = processed.result
        return page
    }

    /// A store in `folder` with a run begun.
    static func runningStore(in folder: ReportTestFolder) throws -> (RunStore, RunID) {
        let store = try RunStore(path: folder.file("canopy.sqlite"))
        let run = try store.begin(RunStart(
            configHash: "c", ruleSetName: "default", ruleIDs: [], ruleSetHash: "h", canopyVersion: "t", startURLs: ["https://shop.example/"]
        ))
        return (store, run)
    }

    @Test("a batch is written once its pages hold enough findings, before it has enough pages")
    func batchesAreBoundedByFindings() throws {
        let folder = try ReportTestFolder("store-sink")
        let (store, run) = try Self.runningStore(in: folder)
        let sink = StoreSink(store: store, run: run, batchSize: 200, batchFindings: 10)
        let first = try Self.page(1, images: 6)
        #expect((first.result?.findings.count ?? 0) >= 6)
        sink.record(first)
        sink.waitForWrites()
        #expect(try store.pages(run: run).isEmpty)
        sink.record(try Self.page(2, images: 6))
        sink.waitForWrites()
        #expect(try store.pages(run: run).count == 2, "12 findings or more: written before the 200th page")
        sink.record(try Self.page(3, images: 1))
        sink.waitForWrites()
        #expect(try store.pages(run: run).count == 2)
        sink.flush()
        #expect(try store.pages(run: run).count == 3)
    }

    @Test("batches written on the sink's own thread keep their order, and the first failure is kept for the caller")
    func writesInOrderAndKeepsTheFirstError() throws {
        let folder = try ReportTestFolder("store-sink")
        let (store, run) = try Self.runningStore(in: folder)
        let sink = StoreSink(store: store, run: run, batchSize: 1)
        for number in 1...30 { sink.record(try Self.page(number, images: number % 3)) }
        sink.flush()
        #expect(sink.writeError == nil)
        #expect(try store.pages(run: run).map(\.url) == (1...30).map { "https://shop.example/p\($0)" })

        // A run no longer running takes no pages: the crawl goes on, and the error waits for it.
        try store.markInterrupted(run)
        sink.record(try Self.page(31, images: 1))
        sink.record(try Self.page(32, images: 1))
        sink.flush()
        #expect(sink.writeError != nil)
        #expect(sink.pagesReceived == 32)
        #expect(try store.pages(run: run).count == 30)
    }
}
