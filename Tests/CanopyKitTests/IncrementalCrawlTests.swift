import CanopyCrawl
import CanopyHistory
import CanopyKit
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// A site whose pages can be edited between crawls, served as a web server serves files: with an
/// ETag (and Last-Modified) it honours in conditional requests, or without validators at all.
final class EditableSite: Sendable {
    struct Page: Sendable {
        var body: String
        var contentType = "text/html; charset=utf-8"
        var version = 1
    }

    private let pages: LockedState<[String: Page]>
    let server: TestHTTPServer

    init(_ pages: [String: String], sendsValidators: Bool = true) throws {
        let table = LockedState(pages.mapValues { Page(body: $0) })
        self.pages = table
        server = try TestHTTPServer { request in Self.answer(request, pages: table, sendsValidators: sendsValidators) }
    }

    func edit(_ path: String, _ body: String) {
        pages.withLock { pages in
            let version = (pages[path]?.version ?? 0) + 1
            pages[path] = Page(body: body, contentType: pages[path]?.contentType ?? "text/html; charset=utf-8", version: version)
        }
    }

    func setContentType(_ path: String, _ type: String) { pages.withLock { $0[path]?.contentType = type } }

    func url(_ path: String) -> String { server.url(path) }

    /// The requests for `path`, oldest first.
    func requests(for path: String) -> [TestHTTPRequest] { server.requests.filter { $0.path == path } }

    private static func answer(_ request: TestHTTPRequest, pages: LockedState<[String: Page]>, sendsValidators: Bool) -> TestHTTPResponse {
        guard let page = pages.withLock({ $0[request.pathWithoutQuery] }) else { return .notFound }
        let etag = "\"v\(page.version)-\(page.body.utf8.count)\""
        let modified = HTTPDate.string(from: Date(timeIntervalSince1970: 1_700_000_000 + Double(page.version) * 86_400))
        var headers: [(name: String, value: String)] = [("Content-Type", page.contentType)]
        if sendsValidators {
            headers += [("ETag", etag), ("Last-Modified", modified)]
            if request.header("If-None-Match") == etag { return TestHTTPResponse(status: 304, headers: [("ETag", etag)]) }
        }
        return TestHTTPResponse(headers: headers, body: Array(page.body.utf8))
    }
}

/// The second and later crawls of a site compare with the run before: unchanged pages keep that
/// run's findings exactly, without being parsed; changed pages, and pages whose stylesheets
/// changed, are audited again; a change of rules or configuration audits everything.
@Suite("Incremental crawls")
struct IncrementalCrawlTests {
    static func page(_ title: String, links: [String] = [], body: String = "", head: String = "") -> String {
        let anchors = links.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: "\n")
        return "<!doctype html><html lang=en><head><title>\(title)</title>\(head)</head><body><main><h1>\(title)</h1>\(anchors)\(body)</main></body></html>"
    }

    func crawl(_ site: EditableSite, in folder: ReportTestFolder, configure: (inout CrawlOverrides) -> Void = { _ in }) -> SiteCrawl.Outcome {
        crawlFromRoot(site.url("/"), into: folder, configure: configure)
    }

    /// Every finding of a run by page, as the store has it once the run is complete.
    func findings(_ folder: ReportTestFolder, run: RunID) throws -> [String: [StoredFinding]] {
        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        return Dictionary(grouping: try store.findings(run: run)) { URLComponents(string: $0.pageURL)!.path }
    }

    @Test("pages that did not change keep their findings exactly; the changed page is audited again; links of unchanged pages are followed")
    func carriesUnchangedPagesOver() throws {
        let site = try EditableSite([
            "/": Self.page("Home", links: ["/a", "/b", "/c"]),
            "/a": Self.page("A", body: #"<img src="/a.png">"#),
            "/b": Self.page("B"),
            "/c": Self.page("C", links: ["/d"], body: #"<input type="text">"#),
            "/d": Self.page("D", body: #"<img src="/d.png"><img src="/e.png" alt="">"#),
        ])
        let folder = try ReportTestFolder("incremental")
        let first = crawl(site, in: folder)
        let firstRun = try #require(first.run, "\(first.messages)")
        #expect(first.summary?.fullAuditReason == "no earlier complete run to compare with")
        #expect(site.requests(for: "/a").allSatisfy { $0.header("If-None-Match") == nil })

        site.edit("/b", Self.page("B", body: #"<img src="/b.png">"#))
        let second = crawl(site, in: folder)
        let secondRun = try #require(second.run, "\(second.messages)")
        let summary = try #require(second.summary)

        #expect(summary.comparedWithRun == firstRun)
        #expect(summary.pagesUnchanged == [UnchangedEvidence.notModified.rawValue: 4], "\(second.messages)")
        #expect(summary.pagesAudited == 5, "unchanged pages count as audited: the run covers the whole site")
        // The second crawl asked with the first one's validators, and /d was only linked from an unchanged page.
        #expect(site.requests(for: "/a").last?.header("If-None-Match") == "\"v1-\(Self.page("A", body: #"<img src="/a.png">"#).utf8.count)\"")
        #expect(site.requests(for: "/d").count == 2)

        let before = try findings(folder, run: firstRun), after = try findings(folder, run: secondRun)
        for path in ["/", "/a", "/c", "/d"] {
            let old = before[path] ?? [], new = after[path] ?? []
            #expect(new.map(\.finding) == old.map(\.finding), "\(path)")
            #expect(new.map(\.elementSignature) == old.map(\.elementSignature), "\(path)")
            #expect(new.map(\.issueKey) == old.map(\.issueKey), "\(path): the trend sees the same issues")
        }
        #expect(before["/b"]?.contains { $0.ruleID == "image-alt" } != true)
        #expect(after["/b"]?.contains { $0.ruleID == "image-alt" } == true, "the changed page was audited again")

        // The trend: one new instance (on /b), nothing fixed, nothing else churned.
        let trend = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        let changes = try trend.withDatabase { database in
            try database.queryFirst("SELECT new_instances, fixed_instances FROM run_changes WHERE run_id = ?", [.integer(secondRun.rawValue)]) {
                ($0.int(0), $0.int(1))
            }
        }
        #expect(changes?.0 == 1 && changes?.1 == 0)
        // Recorded as unchanged, with the run whose audit they carry; results.jsonl says so too.
        let carried = try trend.withDatabase { database in
            try database.query("SELECT url FROM pages WHERE run_id = ? AND unchanged_since = ?", [.integer(secondRun.rawValue), .integer(firstRun.rawValue)]) {
                URLComponents(string: $0.string(0))!.path
            }
        }
        #expect(Set(carried) == ["/", "/a", "/c", "/d"])
        let lines = try jsonLines(folder.file("Reports/results.jsonl"))
        let lineOfA = try #require(lines.first { ($0["crawl"] as? [String: Any])?["requestedURL"] as? String == site.url("/a") })
        let crawlOfA = try #require(lineOfA["crawl"] as? [String: Any])
        #expect(crawlOfA["unchanged"] as? String == "notModified" && crawlOfA["unchangedSince"] as? Int == Int(firstRun.rawValue))
        #expect((lineOfA["violations"] as? [[String: Any]])?.contains { $0["id"] as? String == "image-alt" } == true)
        #expect(second.messages.contains { $0.description.contains("incremental: 4 pages unchanged since run \(firstRun)") }, "\(second.messages)")

        // A third crawl carries over from the second: the audit still dates from the first run.
        let third = crawl(site, in: folder)
        #expect(third.summary?.pagesUnchanged == [UnchangedEvidence.notModified.rawValue: 5])
        let thirdRun = try #require(third.run)
        let carriedFrom = try trend.withDatabase { database in
            try database.query("SELECT DISTINCT unchanged_since FROM pages WHERE run_id = ? AND url <> ?", [.integer(thirdRun.rawValue), .text(site.url("/b"))]) {
                $0.int64(0)
            }
        }
        #expect(carriedFrom == [firstRun.rawValue])
        // Only the latest complete run keeps what the next crawl compares with.
        #expect(try trend.baselinePages(run: firstRun).isEmpty && trend.baselinePages(run: secondRun).isEmpty)
        #expect(try trend.baselinePages(run: thirdRun).count == 5)
    }

    @Test("a page whose stylesheet changed is audited again though the page itself did not change")
    func changedStylesheetReaudits() throws {
        let head = #"<link rel="stylesheet" href="/site.css">"#
        let site = try EditableSite([
            "/": Self.page("Home", links: ["/plain"], body: "<p>Quiet words on a page.</p>", head: head),
            "/plain": Self.page("Plain", body: "<p>No sheet here.</p>"),
            "/site.css": "p { color: #000; background: #fff }",
        ])
        site.setContentType("/site.css", "text/css")
        let folder = try ReportTestFolder("incremental-styles")
        let first = crawl(site, in: folder)
        let firstRun = try #require(first.run)
        #expect(try findings(folder, run: firstRun)["/"]?.contains { $0.ruleID == "color-contrast" } != true)

        site.edit("/site.css", "p { color: #aaa; background: #fff }")
        let second = crawl(site, in: folder)
        let secondRun = try #require(second.run)
        #expect(second.summary?.pagesRestyled == 1, "\(second.messages)")
        #expect(second.summary?.pagesUnchanged == [UnchangedEvidence.notModified.rawValue: 1], "only /plain is carried over")
        #expect(try findings(folder, run: secondRun)["/"]?.contains { $0.ruleID == "color-contrast" && $0.outcome == .violation } == true)
        // The 304 was followed by a full request for the page.
        #expect(site.requests(for: "/").suffix(2).map { $0.header("If-None-Match") != nil } == [true, false])
        #expect(site.requests(for: "/site.css").count == 2, "the sheet is fetched once per crawl")
    }

    @Test("a page whose markup did not change is audited again when the document in its frame did; an unchanged frame keeps it carried over")
    func frameChangeReauditsThePage() throws {
        let site = try EditableSite([
            "/": Self.page("Home", body: #"<iframe id="pay" title="Payment" src="/pay.html"></iframe>"#),
            "/plain": Self.page("Plain"),
            "/pay.html": "<!doctype html><html lang=en><head><title>Pay</title></head><body><button>Pay</button></body></html>",
        ])
        let folder = try ReportTestFolder("incremental-frames")
        _ = crawl(site, in: folder) { $0.startURLs = [site.url("/"), site.url("/plain")] }

        let unchanged = crawl(site, in: folder) { $0.startURLs = [site.url("/"), site.url("/plain")] }
        #expect(unchanged.summary?.pagesUnchanged == [UnchangedEvidence.notModified.rawValue: 2], "\(unchanged.messages)")

        site.edit("/pay.html", "<!doctype html><html lang=en><head><title>Pay</title></head><body><button></button></body></html>")
        let second = crawl(site, in: folder) { $0.startURLs = [site.url("/"), site.url("/plain")] }
        #expect(second.summary?.pagesRestyled == 1, "\(second.messages)")
        #expect(second.summary?.pagesUnchanged == [UnchangedEvidence.notModified.rawValue: 1], "only /plain is carried over")
        let run = try #require(second.run)
        #expect(try findings(folder, run: run)["/"]?.contains { $0.ruleID == "button-name" && $0.target == ##"["#pay","button"]"## } == true)
        #expect(site.requests(for: "/pay.html").count == 3, "the frame is fetched once per crawl")
    }

    @Test("a server without validators that sends the same bytes again: the page is not parsed again")
    func sameContentWithoutValidators() throws {
        let site = try EditableSite(["/": Self.page("Home", links: ["/a"]), "/a": Self.page("A", body: #"<img src="/a.png">"#)], sendsValidators: false)
        let folder = try ReportTestFolder("incremental-same-bytes")
        _ = crawl(site, in: folder)
        site.edit("/", Self.page("Home", links: ["/a"], body: "<p>News.</p>"))
        let second = crawl(site, in: folder)
        #expect(second.summary?.pagesUnchanged == [UnchangedEvidence.sameContent.rawValue: 1], "\(second.messages)")
        #expect(site.requests(for: "/a").allSatisfy { $0.header("If-None-Match") == nil && $0.header("If-Modified-Since") == nil })
        let run = try #require(second.run)
        #expect(try findings(folder, run: run)["/a"]?.contains { $0.ruleID == "image-alt" } == true)
    }

    @Test("a sitemap lastmod before the previous run: the page is not requested; a later one: it is")
    func sitemapLastModified() throws {
        let site = try EditableSite([
            "/": Self.page("Home"),
            "/old": Self.page("Old", body: #"<img src="/o.png">"#),
            "/new": Self.page("New"),
            "/sitemap.xml": "",
        ])
        site.edit("/sitemap.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><lastmod>2001-02-03</lastmod><loc>\(site.url("/old"))</loc></url>
              <url><loc>\(site.url("/new"))</loc><lastmod>2999-01-01T00:00:00Z</lastmod></url>
            </urlset>
            """)
        site.setContentType("/sitemap.xml", "application/xml")
        let folder = try ReportTestFolder("incremental-sitemap")
        let sitemapOnly: (inout CrawlOverrides) -> Void = { $0.sitemaps = [site.url("/sitemap.xml")] }
        _ = crawl(site, in: folder, configure: sitemapOnly)
        #expect(site.requests(for: "/old").count == 1)

        let second = crawl(site, in: folder, configure: sitemapOnly)
        #expect(site.requests(for: "/old").count == 1, "not requested again")
        #expect(site.requests(for: "/new").count == 2)
        #expect(second.summary?.pagesUnchanged[UnchangedEvidence.sitemapLastModified.rawValue] == 1, "\(second.messages)")
        let run = try #require(second.run)
        #expect(try findings(folder, run: run)["/old"]?.contains { $0.ruleID == "image-alt" } == true)
    }

    @Test("other rules, another configuration, or --no-incremental: every page is audited, and the reason is given")
    func fullAuditWhenInputsChange() throws {
        let site = try EditableSite(["/": Self.page("Home", links: ["/a"]), "/a": Self.page("A")])
        let folder = try ReportTestFolder("incremental-full")
        _ = crawl(site, in: folder)

        let otherRules = crawl(site, in: folder) { $0.onlyRules = ["image-alt", "document-title"] }
        #expect(otherRules.summary?.fullAuditReason?.contains("the rules changed since run 1") == true, "\(otherRules.messages)")
        #expect(otherRules.summary?.pagesUnchanged.isEmpty == true)
        #expect(site.requests(for: "/a").last?.header("If-None-Match") == nil)

        let otherConfiguration = crawl(site, in: folder) { $0.onlyRules = ["image-alt", "document-title"]; $0.maxDepth = 5 }
        #expect(otherConfiguration.summary?.fullAuditReason?.contains("the configuration changed since run 2") == true)

        let off = crawl(site, in: folder) { $0.onlyRules = ["image-alt", "document-title"]; $0.maxDepth = 5; $0.incremental = false }
        #expect(off.summary?.fullAuditReason == "incremental crawling is off")
        #expect(off.summary?.pagesUnchanged.isEmpty == true)

        let back = crawl(site, in: folder) { $0.onlyRules = ["image-alt", "document-title"]; $0.maxDepth = 5 }
        #expect(back.summary?.comparedWithRun == RunID(4))
        #expect(back.summary?.pagesUnchanged == [UnchangedEvidence.notModified.rawValue: 2])
    }
}
