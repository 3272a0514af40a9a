import CanopyCrawl
import CanopyHistory
import CanopyKit
import CanopyRules
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// Frames served by a real server are audited as part of the pages showing them, as axe does:
/// findings inside a frame are targeted by the frame's selector then the element's.
@Suite("Frames in a crawl: same-origin, srcdoc, nested and cross-origin")
struct FrameCrawlTests {
    static func page(_ title: String, body: String) -> TestHTTPResponse {
        .html("<!doctype html><html lang=en><head><title>\(title)</title></head><body><main><h1>\(title)</h1>\(body)</main></body></html>")
    }

    static func frame(_ body: String) -> TestHTTPResponse {
        .html("<!doctype html><html lang=en><head><title>Frame</title></head><body>\(body)</body></html>")
    }

    /// The findings of one rule on one page, by axe's target array.
    static func targets(_ sink: CollectingSink, _ path: String, rule: String) -> [[String]] {
        (sink.byPath[path]?.result?.findings ?? []).filter { $0.finding.ruleID == rule }.map { FrameTarget.components($0.finding.target) }
    }

    @Test("a same-origin frame, a srcdoc frame and a frame inside a frame are audited with the page, targets as axe gives them")
    func framesAreAuditedInPlace() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page(
                "Home",
                body: #"<iframe id="pay" title="Payment" src="/frames/pay.html"></iframe><iframe id="widget" title="Widget" srcdoc="<img id=logo src=w.png>"></iframe>"#
            ),
            "/frames/pay.html": Self.frame(#"<button></button><iframe id="terms" title="Terms" src="terms.html"></iframe>"#),
            "/frames/terms.html": Self.frame(#"<img id="seal" src="seal.png">"#),
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none }

        #expect(Self.targets(sink, "/", rule: "button-name") == [["#pay", "button"]])
        #expect(Set(Self.targets(sink, "/", rule: "image-alt")) == [["#widget", "#logo"], ["#pay", "#terms", "#seal"]])
        // The frames' own documents are no pages of the site: not crawled, no title or landmark findings.
        #expect(sink.auditedPaths == ["/"])
        #expect(Self.targets(sink, "/", rule: "document-title").isEmpty)
        #expect(sink.byPath["/"]?.result?.frames == FrameCounts(audited: 3, unavailable: 0))
    }

    @Test("frames off (`frames: false`, --no-frames): frame sources are crawled as pages of their own, nothing is audited in place")
    func framesOff() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", body: #"<iframe id="pay" title="Payment" src="/frames/pay.html"></iframe>"#),
            "/frames/pay.html": Self.frame("<button></button>"),
        ])
        defer { server.stop() }
        var plan = AuditPlan(rules: RuleCatalog.defaultRules)
        plan.auditsFrames = false
        let (_, sink) = try crawl(server, audit: plan) { $0.honoursRobots = false; $0.sitemaps = .none }
        #expect(sink.auditedPaths == ["/", "/frames/pay.html"])
        #expect(Self.targets(sink, "/", rule: "button-name").isEmpty)
        #expect(Self.targets(sink, "/frames/pay.html", rule: "button-name") == [["button"]])
    }

    @Test("a frame shown on every page is fetched once per crawl")
    func frameFetchedOncePerCrawl() throws {
        var routes: [String: TestHTTPResponse] = ["/frames/chat.html": Self.frame(#"<img src="avatar.png">"#)]
        let pages = (1...6).map { "/p\($0)" }
        routes["/"] = Self.page("Home", body: pages.map { "<a href=\"\($0)\">\($0)</a>" }.joined() + #"<iframe title="Chat" src="/frames/chat.html"></iframe>"#)
        for path in pages { routes[path] = Self.page(path, body: #"<iframe title="Chat" src="/frames/chat.html"></iframe>"#) }
        let server = try TestHTTPServer.routes(routes)
        defer { server.stop() }
        let (_, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none }

        #expect(sink.auditedPaths.count == 7)
        for path in ["/"] + pages { #expect(Self.targets(sink, path, rule: "image-alt").count == 1, "\(path)") }
        #expect(server.requests.filter { $0.path == "/frames/chat.html" }.count == 1)
    }

    @Test("a cross-origin frame is not fetched; rules that needed its content leave it for review")
    func crossOriginFrameIsLeftForReview() throws {
        let vendor = try TestHTTPServer.routes(["/widget.html": Self.frame("<a href='/'>Help</a>")])
        defer { vendor.stop() }
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", body: #"<iframe id="help" title="Help" tabindex="-1" src="\#(vendor.url("/widget.html"))"></iframe>"#)
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none }

        #expect(vendor.requests.isEmpty)
        let findings = (sink.byPath["/"]?.result?.findings ?? []).filter { $0.finding.ruleID == "frame-focusable-content" }
        #expect(findings.map(\.finding.target) == ["#help"])
        #expect(findings.first?.finding.outcome == .incomplete)
        #expect(findings.first?.finding.message.contains("outside the crawl's origins") == true)
        #expect(sink.byPath["/"]?.result?.frames == FrameCounts(audited: 0, unavailable: 1))
    }

    @Test("a frame's content and the page's landmarks are compared across documents")
    func landmarksAcrossFrames() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", body: #"<nav aria-label="Site">Links</nav><iframe id="shop" title="Shop" src="/frames/shop.html"></iframe>"#),
            "/frames/shop.html": Self.frame(#"<nav aria-label="Site">More links</nav><h2>Shop</h2>"#),
        ])
        defer { server.stop() }
        let (_, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none }

        let unique = (sink.byPath["/"]?.result?.findings ?? []).filter { $0.finding.ruleID == "landmark-unique" }
        #expect(unique.map(\.finding.target) == [#"[aria-label="Site"]"#])
        #expect(unique.first?.finding.message.contains("in its frames") == true)
    }

    @Test("results.jsonl gives a frame finding's target as axe's array")
    func resultsLineCarriesTheArray() throws {
        let server = try TestHTTPServer.routes([
            "/": Self.page("Home", body: #"<iframe id="pay" title="Payment" srcdoc="<button></button>"></iframe>"#)
        ])
        defer { server.stop() }
        let folder = try ReportTestFolder("frames")
        _ = crawlFromRoot(server.url("/"), into: folder)

        let line = try #require(try String(contentsOfFile: folder.file("Reports/results.jsonl"), encoding: .utf8).split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let violations = try #require(object["violations"] as? [[String: Any]])
        let button = try #require(violations.first { $0["id"] as? String == "button-name" })
        let nodes = try #require(button["nodes"] as? [[String: Any]])
        #expect(nodes.first?["target"] as? [String] == ["#pay", "button"])
        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        let stored = try store.findings(run: try #require(try store.latestCompleteRun()?.id)).filter { $0.finding.ruleID == "button-name" }
        #expect(stored.map(\.finding.target) == [##"["#pay","button"]"##])
    }
}
