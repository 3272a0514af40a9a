import CanopyCrawl
import CanopyDiagnostics
import CanopyHistory
import CanopyKit
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// A site with an application shell among server-rendered pages, a 404, a PDF and stylesheets
/// that fail and are gone; `/app` starts server-rendered and becomes a shell when told.
final class ShellSite: Sendable {
    let server: TestHTTPServer
    private let shell = LockedState(false)

    static let shellMarkup = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Shop app</title>
        <script defer src="/static/js/main.js"></script></head>
        <body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>
        """

    init() throws {
        let shell = self.shell
        server = try TestHTTPServer { request in
            switch request.pathWithoutQuery {
            case "/": .html(Self.page("Home", links: ["/about", "/app", "/missing", "/terms.pdf", "/styled"]))
            case "/about": .html(Self.page("About us"))
            // Server-rendered, an image without alt text; later the same address sends a shell.
            case "/app": .html(shell.withLock { $0 } ? Self.shellMarkup : Self.page("Shop app", body: #"<img src="/hero.png">"#))
            case "/terms.pdf": TestHTTPResponse(headers: [("Content-Type", "application/pdf")], body: Array("%PDF-1.4".utf8))
            case "/styled":
                .html(Self.page("Styled", head: #"<link rel="stylesheet" href="/broken.css"><link rel="stylesheet" href="/gone.css">"#))
            case "/broken.css": TestHTTPResponse(status: 500, headers: [("Content-Type", "text/css")], body: [])
            default: .notFound
            }
        }
    }

    func becomeShell() { shell.withLock { $0 = true } }

    func url(_ path: String) -> String { server.url(path) }

    static func page(_ title: String, links: [String] = [], head: String = "", body: String = "") -> String {
        let anchors = links.map { "<li><a href=\"\($0)\">\($0)</a></li>" }.joined()
        return "<!doctype html><html lang=en><head><title>\(title)</title>\(head)</head><body><main><h1>\(title)</h1><ul>\(anchors)</ul>\(body)</main></body></html>"
    }
}

@Suite("Client-rendered pages and coverage in a crawl")
struct ClientRenderedCrawlTests {
    func crawl(_ site: ShellSite, in folder: ReportTestFolder) -> SiteCrawl.Outcome {
        crawlFromRoot(site.url("/"), into: folder)
    }

    func line(for path: String, in file: String, site: ShellSite) throws -> [String: Any] {
        let lines = try jsonLines(file)
        return try #require(lines.first { line in
            let crawl = line["crawl"] as? [String: Any]
            return (crawl?["requestedURL"] as? String ?? line["url"] as? String) == site.url(path)
        }, "no line for \(path)")
    }

    @Test("a shell is reported as not audited everywhere, and its earlier issues are not counted as fixed")
    func shellIsNotAudited() throws {
        let site = try ShellSite()
        let folder = try ReportTestFolder("client-rendered")

        let first = crawl(site, in: folder)
        #expect(first.summary?.pagesClientRendered == 0, "\(first.messages)")
        let before = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        let appIssues = try before.findings(run: try #require(first.run), pageURL: site.url("/app")).filter { $0.ruleID == "image-alt" }
        #expect(appIssues.count == 1)

        site.becomeShell()
        let second = crawl(site, in: folder)
        let run = try #require(second.run)

        // results.jsonl: no axe result for the shell, the reason and its signals instead.
        let app = try line(for: "/app", in: folder.file("Reports/results.jsonl"), site: site)
        #expect(app["violations"] == nil)
        let record = try #require(app["crawl"] as? [String: Any])
        #expect(record["audited"] as? Bool == false)
        let notAudited = try #require(record["notAudited"] as? [String: Any])
        #expect(notAudited["reason"] as? String == "client-rendered")
        let signals = try #require(notAudited["details"] as? [String])
        #expect(signals.contains("empty application root <div id=\"root\">"))
        #expect(signals.contains { $0.hasPrefix("<noscript> asks for JavaScript") })
        let about = try line(for: "/about", in: folder.file("Reports/results.jsonl"), site: site)
        #expect((about["crawl"] as? [String: Any])?["audited"] as? Bool == true)

        // latest-results.jsonl, rebuilt from the store, says the same.
        let latest = try line(for: "/app", in: folder.file("Reports/latest-results.jsonl"), site: site)
        #expect((latest["notAudited"] as? [String: Any])?["reason"] as? String == "client-rendered")
        #expect(latest["violations"] == nil)

        // The crawl's summary and the run's coverage.
        let summary = try #require(second.summary)
        #expect(summary.pagesClientRendered == 1)
        #expect(summary.clientRenderedExamples == [site.url("/app")])
        let coverage = try #require(summary.coverage)
        #expect(coverage.notAudited[NotAudited.clientRendered] == 1)
        #expect(coverage.crawled == 3)  // /, /about and /styled; not /app
        let log = second.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("not audited: 1 client-rendered"), "\(log)")
        #expect(log.contains("client-rendered (their content depends on scripts"), "\(log)")

        // The trend: the image-alt issue of /app is still open, not fixed.
        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        let trend = try store.trendReport()
        let comparison = try #require(trend.runs.last?.comparison)
        #expect(comparison.fixedIssues == 0, "\(comparison)")
        #expect(comparison.fixedInstances == 0)
        #expect(trend.latest?.openIssues.contains { $0.ruleId == "image-alt" && $0.example.url == site.url("/app") } == true)
        #expect(trend.latest?.clientRenderedPages.map(\.url) == [site.url("/app")])
        #expect(trend.runs.last?.coverage.notAudited[NotAudited.clientRendered] == 1)
        #expect(try store.pages(run: run).first { $0.url == site.url("/app") }?.notAudited?.reason == NotAudited.clientRendered)

        // The HTML report counts and lists it; the digest names it.
        let html = try String(contentsOfFile: folder.file("Reports/index.html"), encoding: .utf8)
        #expect(html.contains("1 not audited: client-rendered"))
        #expect(html.contains("<h3>Client-rendered pages, not audited</h3>"))
        #expect(html.contains("empty application root &lt;div id=&quot;root&quot;&gt;") || html.contains("empty application root &lt;div id=\"root\"&gt;"))
        let digest = try String(contentsOfFile: folder.file("Reports/digest.md"), encoding: .utf8)
        #expect(digest.contains("1 not audited (client-rendered)"), "\(digest)")
        #expect(digest.contains("1 page not audited, client-rendered"), "\(digest)")
    }

    @Test("client-rendered: audit audits the shell as it is")
    func auditSetting() throws {
        let site = try ShellSite()
        site.becomeShell()
        let folder = try ReportTestFolder("client-rendered-audit")
        let config = folder.file("canopy.yml")
        try "start: \(site.url("/"))\nclient-rendered: audit\n".write(toFile: config, atomically: true, encoding: .utf8)
        var overrides = CrawlOverrides()
        overrides.robots = false
        overrides.sitemaps = ["none"]
        overrides.retries = 0
        overrides.reports = folder.file("Reports")
        let outcome = SiteCrawl().run(SiteCrawl.Options(configPath: config, overrides: overrides))
        #expect(outcome.summary?.pagesClientRendered == 0, "\(outcome.messages)")
        let app = try line(for: "/app", in: folder.file("Reports/results.jsonl"), site: site)
        #expect((app["crawl"] as? [String: Any])?["audited"] as? Bool == true)
        #expect(app["violations"] is [Any])
    }

    @Test("coverage counts a 404, a page that is not HTML and the stylesheets that failed or are gone")
    func coverageFigures() throws {
        let site = try ShellSite()
        let folder = try ReportTestFolder("coverage")
        let outcome = crawl(site, in: folder)
        let coverage = try #require(outcome.summary?.coverage, "\(outcome.messages)")
        #expect(coverage.crawled == 4)
        #expect(coverage.errors == ["HTTP 404": 1])
        #expect(coverage.notAudited == ["not HTML": 1])
        #expect(coverage.stylesheets == StyleSheetCoverage(loaded: 0, failed: 1, missing: 1))
        #expect(coverage.framesAudited == 0 && coverage.framesSkipped == 0)

        // The same figures come back from the store, in trend.json and in the report.
        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        #expect(try store.trendReport().runs.last?.coverage == coverage)
        let trendJSON = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/trend.json")))) as? [String: Any])
        let runCoverage = try #require(((trendJSON["runs"] as? [[String: Any]])?.last)?["coverage"] as? [String: Any])
        #expect((runCoverage["errors"] as? [String: Int]) == ["HTTP 404": 1])
        #expect((runCoverage["stylesheets"] as? [String: Int])?["missing"] == 1)
        let html = try String(contentsOfFile: folder.file("Reports/index.html"), encoding: .utf8)
        #expect(html.contains("<th scope=\"row\">Failed: HTTP 404</th><td class=\"number\">1</td>"))
        #expect(html.contains("<th scope=\"row\">Not audited: not HTML</th><td class=\"number\">1</td>"))
        let log = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("coverage: 4 pages audited; not audited: 1 not HTML; failed: 1 HTTP 404; stylesheets: 0 loaded, 1 failed, 1 missing"), "\(log)")
    }
}

@Suite("Client-rendered pages in the gate and canopy check")
struct ClientRenderedGateTests {
    @Test("a gated client-rendered page exits 3, and 0 when canopy.yml says to skip such pages")
    func gate() throws {
        let site = try ShellSite()
        site.becomeShell()
        let fixture = try GateFixture()
        let urls = [site.url("/about"), site.url("/app")]

        let failing = try fixture.gate(urls)
        #expect(failing.exitStatus == .couldNotAudit)
        #expect(failing.report?.result == .couldNotAudit)
        let page = try #require(failing.report?.pages.first { $0.url == site.url("/app") })
        #expect(!page.audited)
        #expect(page.error?.hasPrefix("not audited: client-rendered: empty application root") == true, "\(page)")

        let skipping = try fixture.gate(urls, extra: "client-rendered: skip")
        #expect(skipping.exitStatus == .passed, "\(skipping.messages)")
        let skipped = try #require(skipping.report?.skippedPages.first)
        #expect(skipped.url == site.url("/app"))
        #expect(skipped.skipped?.contains("client-rendered") == true)
    }

    @Test("a bad client-rendered value names the file, key and line")
    func badValue() throws {
        let fixture = try GateFixture()
        let outcome = try fixture.gate(["http://127.0.0.1:1/"], extra: "client-rendered: maybe")
        #expect(outcome.exitStatus == .usageError)
        let message = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(message.contains(".yml:7: client-rendered: expected one of fail, skip, audit, found \"maybe\""), "\(message)")
    }

    @Test("canopy check says a shell is not audited: exit 3, or a note with --client-rendered skip")
    func check() throws {
        let folder = try ReportTestFolder("check-shell")
        let file = folder.file("shell.html")
        try ShellSite.shellMarkup.write(toFile: file, atomically: true, encoding: .utf8)

        let failing = PageCheck().run(sources: [.file(file)], options: PageCheck.Options())
        #expect(failing.exitStatus == .couldNotAudit)
        #expect(failing.diagnostics.first?.kind == .pageNotAudited)
        #expect(failing.diagnostics.first?.message.contains("not audited: its content depends on scripts (client-rendered: empty application root") == true)

        var options = PageCheck.Options()
        options.clientRendered = .skip
        let skipping = PageCheck().run(sources: [.file(file)], options: options)
        #expect(skipping.exitStatus == .passed)
        #expect(skipping.output.contains("not audited"))

        options.clientRendered = .audit
        let auditing = PageCheck().run(sources: [.file(file)], options: options)
        #expect(auditing.output.contains("not audited") == false)
    }
}
