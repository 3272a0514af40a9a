import CanopyCrawl
import CanopyHistory
import CanopyKit
import CanopyRules
import CanopyStore
import CanopyStyle
import CanopyTestSupport
import Foundation
import Testing

/// Pages styled only by linked stylesheets, served by a real server: the crawl loads each sheet
/// once, and what the sheets hide, show or colour is what the rules see.
@Suite("Stylesheets in a crawl: linked sheets decide what the rules see")
struct StylesheetCrawlTests {
    static func css(_ text: String) -> TestHTTPResponse {
        TestHTTPResponse(headers: [("Content-Type", "text/css; charset=utf-8")], body: Array(text.utf8))
    }

    static func page(_ title: String, sheets: [String], body: String, links: [String] = []) -> TestHTTPResponse {
        let linked = sheets.map { "<link rel=\"stylesheet\" href=\"\($0)\">" }.joined()
        let anchors = links.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: " ")
        return .html(
            "<!doctype html><html lang=en><head><title>\(title)</title>\(linked)</head><body><main><h1>\(title)</h1>\(body)<p>\(anchors)</p></main></body></html>"
        )
    }

    static func findings(_ sink: CollectingSink, _ path: String, rule: String) -> [FindingRecord] {
        (sink.byPath[path]?.result?.findings ?? []).filter { $0.finding.ruleID == rule }
    }

    static func audit(viewport: Viewport = .desktop) -> AuditPlan {
        var plan = AuditPlan(rules: RuleCatalog.defaultRules)
        plan.styles.viewport = viewport
        return plan
    }

    @Test("an element hidden by a class in a linked sheet is not audited; the same markup without the class is")
    func hiddenByClass() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", sheets: ["/site.css"], body: #"<div class="collapsed"><img src="a.png"></div><div><img src="b.png"></div>"#),
            "/site.css": Self.css(".collapsed { display: none }"),
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server, audit: Self.audit()) { $0.honoursRobots = false; $0.sitemaps = .none }
        let images = Self.findings(sink, "/", rule: "image-alt")
        #expect(images.map(\.finding.target) == [#"[src="b.png"]"#])
    }

    @Test("a media query hides a mobile menu on a desktop viewport and shows it on a phone's")
    func mediaQueryFollowsTheViewport() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", sheets: ["/site.css"], body: #"<div class="mobile-menu"><img src="menu.png"></div>"#),
            "/site.css": Self.css("@media (min-width: 900px) { .mobile-menu { display: none } }"),
        ])
        defer { server.stop() }
        let (_, desktop) = try crawl(server, audit: Self.audit()) { $0.honoursRobots = false; $0.sitemaps = .none }
        #expect(Self.findings(desktop, "/", rule: "image-alt").isEmpty)
        let (_, phone) = try crawl(server, audit: Self.audit(viewport: Viewport(width: 375, height: 812))) {
            $0.honoursRobots = false; $0.sitemaps = .none
        }
        #expect(Self.findings(phone, "/", rule: "image-alt").count == 1)
    }

    @Test("relative sheet URLs resolve against <base href>, for links and for a <style> element's @import, as a browser resolves them")
    func sheetsResolveAgainstTheBaseURL() throws {
        let based = #"<!doctype html><html lang=en><head><title>%@</title><base href="/assets/">%@</head><body><main><h1>%@</h1><div class="hidden"><img src="x.png"></div><p><a href="/imported">More</a></p></main></body></html>"#
        func page(_ title: String, _ sheets: String) -> TestHTTPResponse { .html(String(format: based, title, sheets, title)) }
        let server = try TestHTTPServer.routes([
            "/": page("Linked", #"<link rel="stylesheet" href="site.css">"#),
            "/imported": page("Imported", #"<style>@import "site.css";</style>"#),
            // Beside the pages, where a resolution that ignores <base> would look: nothing is hidden there.
            "/site.css": Self.css("p { color: black }"),
            "/assets/site.css": Self.css(".hidden { display: none }"),
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server, audit: Self.audit()) { $0.honoursRobots = false; $0.sitemaps = .none }
        #expect(sink.byPath["/"]?.result != nil && sink.byPath["/imported"]?.result != nil)
        #expect(Self.findings(sink, "/", rule: "image-alt").isEmpty)
        #expect(Self.findings(sink, "/imported", rule: "image-alt").isEmpty)
        #expect(server.requests.filter { $0.path == "/site.css" }.isEmpty)
    }

    @Test("!important in a sheet beats a style attribute; a plain declaration does not")
    func importantBeatsInlineStyle() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page(
                "Home", sheets: ["/site.css"],
                body: #"<div class="gone" style="display: block"><img src="gone.png"></div><div class="kept" style="display: block"><img src="kept.png"></div><p class="pale" style="color: black">Body text</p>"#
            ),
            "/site.css": Self.css(".gone { display: none !important } .kept { display: none } .pale { color: #bbb !important }"),
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server, audit: Self.audit()) { $0.honoursRobots = false; $0.sitemaps = .none }
        #expect(Self.findings(sink, "/", rule: "image-alt").map(\.finding.target) == [#"[src="kept.png"]"#])
        let contrast = Self.findings(sink, "/", rule: "color-contrast")
        #expect(contrast.count == 1)
        #expect(contrast.first?.finding.outcome == .violation)
        #expect(contrast.first?.finding.evidence["fgColor"] == .text("#bbbbbb"))
    }

    @Test("a sheet that fails to load leaves the page to review once per rule that reads styles, naming it, and passes nothing")
    func failingSheetMakesStyleVerdictsIncomplete() throws {
        var broken = TestHTTPResponse.text("overloaded", status: 503)
        broken.headers = [("Content-Type", "text/css")]
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", sheets: ["/broken.css"], body: "<p>Some text whose colours the broken sheet sets</p><p>More text</p>"),
            "/broken.css": broken,
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server, audit: Self.audit()) { $0.honoursRobots = false; $0.sitemaps = .none }
        let contrast = Self.findings(sink, "/", rule: "color-contrast")
        #expect(contrast.count == 1, "one review for the page, not one per text element")
        #expect(contrast.first?.finding.outcome == .incomplete)
        #expect(contrast.first?.finding.message.contains("/broken.css") == true)
        #expect(contrast.first?.finding.message.contains("Every element this rule checks") == true)
        #expect(contrast.first?.finding.evidence["messageKey"] == .text("stylesheetUnavailable"))
        #expect((sink.byPath["/"]?.result?.passCounts["color-contrast"] ?? 0) == 0)
    }

    @Test("a sheet that is gone (404) styles nothing, in a browser as in Canopy: verdicts are decided and it is counted as missing")
    func missingSheetIsDecided() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", sheets: ["/gone.css", "/site.css"], body: #"<p class="pale">Pale text</p>"#),
            "/site.css": Self.css(".pale { color: #aaa }"),
        ])
        defer { server.stop() }
        let stylesheets = PageAuditor.styleSheetFetcher(for: CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url("/"))]))
        var plan = CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url("/"))])
        plan.honoursRobots = false
        plan.sitemaps = .none
        let sink = CollectingSink()
        _ = try PageAuditor.crawler(crawl: plan, audit: Self.audit(), sink: sink, stylesheets: stylesheets).run()
        let contrast = Self.findings(sink, "/", rule: "color-contrast")
        #expect(contrast.map(\.finding.outcome) == [.violation])
        #expect(stylesheets.statistics.missing == 1)
        #expect(stylesheets.statistics.failed == 0)
    }

    @Test("a site of ten pages sharing five sheets (one imported) fetches each sheet once")
    func eachSheetIsFetchedOnce() throws {
        let sheets = ["/a.css", "/b.css", "/c.css", "/d.css"]
        var routes: [String: TestHTTPResponse] = [
            "/a.css": Self.css("@import url(e.css); body { color: #111 }"),
            "/b.css": Self.css(".b { display: none }"), "/c.css": Self.css("p { color: #222 }"), "/d.css": Self.css("h1 { font-size: 2em }"),
            "/e.css": Self.css("main { background: #fff }"),
        ]
        let paths = (0..<10).map { $0 == 0 ? "/" : "/page\($0)" }
        for (index, path) in paths.enumerated() {
            routes[path] = Self.page("Page \(index)", sheets: sheets, body: "<p>Text</p>", links: paths)
        }
        let server = try TestHTTPServer.routes(routes)
        defer { server.stop() }
        let stylesheets = PageAuditor.styleSheetFetcher(for: CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url("/"))]))
        var plan = CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url("/"))])
        plan.honoursRobots = false
        plan.sitemaps = .none
        plan.workerThreads = 2
        let sink = CollectingSink()
        let summary = try PageAuditor.crawler(crawl: plan, audit: Self.audit(), sink: sink, stylesheets: stylesheets).run()
        #expect(summary.pagesAudited == 10)
        let sheetRequests = server.requests.filter { $0.path.hasSuffix(".css") }
        #expect(sheetRequests.count == 5, "requested: \(sheetRequests.map(\.path).sorted())")
        #expect(Set(sheetRequests.map(\.path)) == ["/a.css", "/b.css", "/c.css", "/d.css", "/e.css"])
        #expect(stylesheets.statistics.requested == 5)
        #expect(stylesheets.statistics.failed == 0)
    }
}
