import CanopyDiagnostics
import CanopyCrawl
import CanopyHistory
import CanopyKit
import CanopyRules
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// `canopy crawl --resume` as the library does it: a stopped run continued over a real HTTP
/// server and a real store, compared with a clean run of the same site.
struct CrawlResumeTests {
    struct Fixture {
        let site: GeneratedSite
        let tripwire = Tripwire()
        let server: TestHTTPServer
        let folder: ReportTestFolder

        init(pages: Int = 300) throws {
            site = GeneratedSite(pageCount: pages)
            server = try TestHTTPServer.serving(site, tripwire: tripwire)
            folder = try ReportTestFolder("resume")
        }

        var storePath: String { folder.file("canopy.sqlite") }
        var resultsPath: String { folder.file("results.jsonl") }

        func options(start: String? = nil, resume: ResumeRequest? = nil, configure: (inout CrawlOverrides) -> Void = { _ in }) -> SiteCrawl.Options {
            var overrides = CrawlOverrides()
            overrides.startURLs = [server.url(start ?? site.startPath)]
            overrides.store = storePath
            overrides.reports = folder.path
            overrides.concurrency = 4
            configure(&overrides)
            return SiteCrawl.Options(overrides: overrides, verbosity: .quiet, resume: resume)
        }

        /// Crawls until `pageRequests` page requests have been received, then stops as SIGINT does.
        func stoppedCrawl(after pageRequests: Int) -> SiteCrawl.Outcome {
            let stopper = SiteCrawl.Stopper()
            tripwire.arm(after: pageRequests) { stopper.stop() }
            defer { tripwire.disarm() }
            return SiteCrawl().run(options(), stopper: stopper)
        }

        /// The requested URLs of the audited pages' lines in results.jsonl, in file order.
        func resultLines() throws -> [String] {
            try resultKeys(resultsPath).audited
        }
    }

    static func path(_ url: String) -> String { URLComponents(string: url)?.path ?? url }

    /// What must be equal between a resumed run and a clean one.
    struct RunContent: Equatable {
        let pagePaths: [String]
        let violations: Int
        let incomplete: Int
        let coverage: RunCoverage

        init(_ store: RunStore, run: RunID) throws {
            pagePaths = try store.pages(run: run).map { CrawlResumeTests.path($0.url) }.sorted()
            let findings = try store.findings(run: run)
            violations = findings.filter { $0.outcome == .violation }.count
            incomplete = findings.filter { $0.outcome == .incomplete }.count
            coverage = try #require(try store.run(run)).coverage
        }
    }

    @Test("a stopped run resumes without fetching its recorded pages again and ends as a clean run would")
    func stoppedRunResumes() throws {
        let fixture = try Fixture()
        let clean = SiteCrawl().run(fixture.options())
        #expect(clean.exitStatus == .violationsFound, "\(clean.messages)")
        let cleanRun = try #require(clean.run)

        let stopped = fixture.stoppedCrawl(after: 150)
        #expect(stopped.interrupted)
        let run = try #require(stopped.run)
        let store = try RunStore(path: fixture.storePath)
        #expect(try store.run(run)?.status == .interrupted)
        let recorded = try store.recordedPages(run: run)
        try #require(!recorded.isEmpty && recorded.count < fixture.site.recordedPaths.count, "the stop should land mid-run: \(recorded.count) pages")
        // Transfers the stop abandoned are not finished pages: no record, no failure.
        #expect(recorded.filter { $0.error != nil && $0.statusCode == nil }.map(\.url) == [])
        #expect(stopped.summary?.pagesFailed == 0)

        let before = fixture.server.requests.count
        let resumed = SiteCrawl().run(fixture.options(resume: .latest))
        #expect(resumed.exitStatus == .violationsFound, "\(resumed.messages)")
        #expect(resumed.run == run)
        #expect(resumed.messages.first == "resuming run \(run): \(recorded.count) pages already recorded are not fetched again")

        // Neither a recorded page nor the redirects it went through is requested again.
        let fetchedAgain = Set(fixture.server.requestedPaths(from: before)).intersection(recorded.flatMap { [$0.url] + $0.redirectChain }.map(Self.path))
        #expect(fetchedAgain.isEmpty, "fetched again: \(fetchedAgain.sorted())")

        #expect(try store.run(run)?.status == .complete)
        let content = try RunContent(store, run: run)
        #expect(content == (try RunContent(store, run: cleanRun)))
        #expect(Set(content.pagePaths) == fixture.site.recordedPaths)
        #expect(content.pagePaths.count == fixture.site.recordedPaths.count)
        let summary = try #require(resumed.summary)
        #expect(summary.pagesAudited == fixture.site.auditedCount)
        #expect(summary.resumedPages == recorded.count)
        #expect(summary.resumedAudited == recorded.filter(\.processed).count)
        #expect(summary.violations == (try #require(clean.summary)).violations)
        let lines = try fixture.resultLines()
        #expect(lines.count == fixture.site.auditedCount)
        #expect(Set(lines).count == lines.count)
        // The links kept to resume a run go once it is complete.
        #expect(try store.recordedPages(run: run).allSatisfy(\.discoveredLinks.isEmpty))
        #expect(try store.trendReport().runs.map(\.runId) == [cleanRun, run])
    }

    @Test("pages lost with the batch a kill interrupted are crawled again, and every page still counts once")
    func lostBatchIsCrawledAgain() throws {
        let fixture = try Fixture()
        let stopped = fixture.stoppedCrawl(after: 200)
        let run = try #require(stopped.run)
        let store = try RunStore(path: fixture.storePath)
        let recorded = try store.recordedPages(run: run)
        try #require(recorded.count >= 20, "the stop should land mid-run: \(recorded.count) pages")
        // A kill loses the batch being written: the last pages in recording order, with their links.
        let kept = recorded.count / 2
        let database = try SQLiteDatabase(path: fixture.storePath)
        try database.run(
            "DELETE FROM pages WHERE run_id = ? AND id > (SELECT id FROM pages WHERE run_id = ? ORDER BY id LIMIT 1 OFFSET ?)",
            [.integer(run.rawValue), .integer(run.rawValue), .integer(Int64(kept - 1))]
        )
        let lost = Set(recorded.dropFirst(kept).map { Self.path($0.url) })
        let linesBefore = try fixture.resultLines()
        #expect(lost.isSubset(of: Set(fixture.site.recordedPaths)))

        let before = fixture.server.requests.count
        let resumed = SiteCrawl().run(fixture.options(resume: .run(run)))
        #expect(resumed.exitStatus == .violationsFound, "\(resumed.messages)")
        let requested = fixture.server.requestedPaths(from: before)
        #expect(lost.isSubset(of: Set(requested)), "the lost pages are fetched again")
        let keptPaths = Set(recorded.prefix(kept).flatMap { [$0.url] + $0.redirectChain }.map(Self.path))
        #expect(keptPaths.isDisjoint(with: requested))

        let content = try RunContent(store, run: run)
        #expect(content.pagePaths.count == fixture.site.recordedPaths.count)
        #expect(Set(content.pagePaths) == fixture.site.recordedPaths)
        #expect(content.coverage.crawled == fixture.site.auditedCount)
        #expect(resumed.summary?.pagesAudited == fixture.site.auditedCount)
        #expect(content.violations == fixture.site.auditedCount, "one image without alt a page")
        let lines = try fixture.resultLines()
        #expect(!Set(linesBefore.map(Self.path)).isDisjoint(with: lost), "results.jsonl had lines of lost pages, now kept once")
        #expect(lines.count == fixture.site.auditedCount)
        #expect(Set(lines).count == lines.count)
    }

    @Test("a resumed crawl skips the redirect targets recorded pages fetched, and crawls a lost page a recorded duplicate pointed at")
    func redirectsOfRecordedPages() throws {
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/a", "/dup", "/old"]),
            "/a": sitePage("A", links: ["/b"]),
            "/b": sitePage("B"),
            "/dup": .redirect(to: "/a"),
            "/old": .redirect(to: "/new", status: 301),
            "/new": sitePage("New", links: ["/c"]),
            "/c": sitePage("C"),
        ])
        defer { server.stop() }
        func url(_ path: String) -> String { server.url(path) }
        // Recorded: "/", "/dup" (a duplicate of "/a", which was crawling) and "/old" (audited as
        // "/new"); "/a" was lost with the last batch.
        let finished = [
            FinishedPage(url: url("/"), statusCode: 200, processed: true, discoveredLinks: [url("/a"), url("/dup"), url("/old")]),
            FinishedPage(url: url("/dup"), depth: 1, statusCode: 302, redirectChain: [url("/a")]),
            FinishedPage(url: url("/old"), depth: 1, statusCode: 200, redirectChain: [url("/new")], processed: true, discoveredLinks: [url("/c")]),
        ]
        var plan = CrawlPlan(startURLs: [try CrawlURL(url("/"))])
        plan.honoursRobots = false
        plan.sitemaps = .none
        plan.workerThreads = 2
        let sink = CollectingSink()
        let summary = try PageAuditor.crawler(
            crawl: plan, audit: AuditPlan(rules: RuleCatalog.defaultRules), sink: sink, resuming: finished
        ).run()

        #expect(sink.all.map { Self.path($0.url) }.sorted() == ["/a", "/b", "/c"])
        #expect(server.requests.map(\.path).sorted() == ["/a", "/b", "/c"])
        #expect(summary.pagesAudited == 5)
        #expect(summary.resumedPages == 3)
        #expect(summary.resumedAudited == 2)
        #expect(summary.duplicatesByRedirect == 1)
        #expect(sink.byPath["/c"]?.depth == 2)
    }

    @Test("refuses, naming the run, when there is nothing to resume or resuming would be wrong; the store is left as it was")
    func refusals() throws {
        let fixture = try Fixture(pages: 30)
        func refusal(_ options: SiteCrawl.Options) -> String {
            let outcome = SiteCrawl().run(options)
            #expect(outcome.exitStatus == .usageError)
            return outcome.messages.map(\.description).joined(separator: "\n")
        }
        #expect(refusal(fixture.options(resume: .latest)) == "error: nothing to resume: the store \(fixture.storePath) has no interrupted run")

        let complete = try #require(SiteCrawl().run(fixture.options()).run)
        let stopper = SiteCrawl.Stopper()
        stopper.stop()
        let interrupted = try #require(SiteCrawl().run(fixture.options(), stopper: stopper).run)
        let store = try RunStore(path: fixture.storePath)
        #expect(try store.run(interrupted)?.status == .interrupted)

        #expect(refusal(fixture.options(resume: .run(RunID(99)))).contains("cannot resume run 99: there is no run 99 in the store"))
        #expect(refusal(fixture.options(resume: .run(complete))) == "error: cannot resume run \(complete): it is complete")
        #expect(refusal(fixture.options(start: "/p/1", resume: .latest)).contains("cannot resume run \(interrupted): it started from \(fixture.server.url("/p/0"))"))
        #expect(refusal(fixture.options(resume: .latest) { $0.maxDepth = 3 }).contains("cannot resume run \(interrupted): its configuration differs"))
        #expect(refusal(fixture.options(resume: .latest) { $0.onlyRules = ["image-alt"] }).contains("cannot resume run \(interrupted): "))

        // A run still running belongs to a live crawl (this test process here).
        let running = try store.begin(RunStart(
            configHash: "x", ruleSetName: "default", ruleIDs: [], ruleSetHash: "x", canopyVersion: "x", startURLs: [fixture.server.url("/p/0")]
        ))
        #expect(refusal(fixture.options(resume: .run(running))).contains("cannot resume run \(running): it is still running"))
        // A later run that is running or complete would come after the resumed one in the trend.
        #expect(refusal(fixture.options(resume: .latest)).contains("cannot resume run \(interrupted): run \(running), started after it, is running"))
        try store.markInterrupted(running)
        let later = try #require(SiteCrawl().run(fixture.options()).run)
        #expect(refusal(fixture.options(resume: .run(interrupted))).contains("run \(later), started after it, is complete"))

        #expect(try store.runs().map(\.status) == [.complete, .interrupted, .interrupted, .complete])
    }

    @Test("results.jsonl of a resumed run keeps one line per recorded page and drops a line a kill cut short")
    func resultsFileIsContinued() throws {
        let folder = try ReportTestFolder("jsonl")
        let path = folder.file("results.jsonl")
        // Lines are keyed by `crawl.requestedURL`, the store's key: /b was redirected, so its
        // axe `url` is another; /lost was not kept in the store; /c was cut short by a kill.
        let text = """
            {"crawl":{"requestedURL":"https://shop.example/a"},"url":"https://shop.example/a","violations":[]}
            {"crawl":{"requestedURL":"https://shop.example/lost"},"url":"https://shop.example/lost"}
            {"crawl":{"requestedURL":"https://shop.example/a"},"url":"https://shop.example/a","violations":[]}
            {"crawl":{"requestedURL":"https://shop.example/b"},"url":"https://shop.example/b/","violations":[]}
            {"crawl":{"requestedURL":"https://shop.example/c"},"url":"https://shop.example/c","viol
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let kept: Set = ["https://shop.example/a", "https://shop.example/b", "https://shop.example/c", "https://shop.example/d"]
        let sink = try JSONLinesSink(resuming: path, keeping: kept)
        #expect(sink.missingLines == 2)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == """
            {"crawl":{"requestedURL":"https://shop.example/a"},"url":"https://shop.example/a","violations":[]}
            {"crawl":{"requestedURL":"https://shop.example/b"},"url":"https://shop.example/b/","violations":[]}

            """)

        let fresh = try JSONLinesSink(resuming: folder.file("none.jsonl"), keeping: kept)
        #expect(fresh.missingLines == 4)
        #expect(FileManager.default.contents(atPath: fresh.path) == Data())
    }
}
