import CanopyDiagnostics
import CanopyCrawl
import CanopyRules
import CanopyHistory
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyKit

/// A small shop in several versions: `before` has known problems (an image without alt on the
/// home page and on a product page, a nameless button in a vendor's chat widget); `after`
/// adds a nameless button on the product page; `fixed` gives the home image its alt.
enum GateSite {
    static func page(_ title: String, main: String, chat: Bool = true) -> TestHTTPResponse {
        let widget = chat ? #"<div id="chat-widget"><button class="open"></button></div>"# : ""
        return .html("""
            <!doctype html><html lang="en"><head><title>\(title)</title></head><body>
            <header><nav aria-label="Main"><a href="/">Home</a> <a href="/product/1">Product</a></nav></header>
            <main><h1>\(title)</h1>\(main)</main>
            <footer><p>Shop</p></footer>\(widget)
            </body></html>
            """)
    }

    static let homeImage = #"<img src="/img/hero.jpg">"#

    static func routes(_ version: String) -> [String: TestHTTPResponse] {
        var home = "<p>Welcome</p>" + homeImage
        var product = #"<p>A thing</p><img src="/img/products/1.jpg">"#
        switch version {
        // The field's autocomplete value needs review (incomplete), which never fails by default.
        case "after": product += #"<button type="button"></button><label>Note <input name="note" autocomplete="message"></label>"#
        case "after-link": product += #"<a href="/cart"></a>"#
        case "fixed": home = #"<p>Welcome</p><img src="/img/hero.jpg" alt="Our shop">"#
        default: break
        }
        return [
            "/": page("Home", main: home),
            "/product/1": page("Product", main: product),
            "/gone": .notFound,
        ]
    }
}

/// A catalog whose product pages share one template: every product page has a nameless
/// wishlist button, so a baseline written from it holds one page-type entry for `/product/*`.
enum CatalogSite {
    static let wishlist = #"<button type="button" class="wishlist"></button>"#

    /// `fixedOn`: the product pages whose wishlist button has a name.
    static func routes(products: Int = 3, fixedOn: Set<Int> = []) -> [String: TestHTTPResponse] {
        var routes: [String: TestHTTPResponse] = ["/": GateSite.page("Home", main: "<p>Welcome</p>", chat: false)]
        for id in 1...products {
            let button = fixedOn.contains(id) ? #"<button type="button" class="wishlist">Save</button>"# : wishlist
            routes["/product/\(id)"] = GateSite.page("Product \(id)", main: "<p>Thing \(id)</p>\(button)", chat: false)
        }
        return routes
    }

    /// A server for `routes` whose /sitemap.xml lists `paths` as absolute URLs on itself.
    static func server(_ routes: [String: TestHTTPResponse], sitemap paths: [String]) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            guard request.path == "/sitemap.xml" else { return routes[request.path] ?? .notFound }
            return sitemap(paths.map { "http://\(host(of: request))\($0)" })
        }
    }

    static func host(of request: TestHTTPRequest) -> String {
        request.headers.first { $0.name.lowercased() == "host" }?.value ?? "127.0.0.1"
    }

    static func sitemap(_ urls: [String]) -> TestHTTPResponse {
        TestHTTPResponse(
            status: 200, headers: [(name: "Content-Type", value: "application/xml")],
            body: Array(("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                + urls.map { "<url><loc>\($0)</loc></url>" }.joined() + "</urlset>").utf8)
        )
    }
}

/// Runs gates against servers and keeps the files of one test in a temporary folder.
final class GateFixture {
    let folder: String
    let now: @Sendable () -> Date

    init(today: String = "2025-03-01") throws {
        folder = NSTemporaryDirectory() + "canopy-gate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let date = ISO8601DateFormatter().date(from: today + "T12:00:00Z")!
        now = { date }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func path(_ name: String) -> String { folder + "/" + name }

    /// canopy.yml with the chat widget owned by a vendor and fast fetch settings, plus `gate`
    /// and any other top-level keys (`extra`, YAML lines without indentation).
    func config(gate: String = "", extra: String = "", maxPages: Int? = nil) throws -> String {
        let yaml = """
            owners:
              chat-vendor: ["#chat-widget"]
            limits:
              timeout: 5
              connect-timeout: 2
              retries: 0
            """ + (maxPages.map { "\n  max-pages: \($0)" } ?? "") + (extra.isEmpty ? "" : "\n" + extra)
            + (gate.isEmpty ? "" : "\ngate:\n" + gate)
        let file = path("canopy-\(UUID().uuidString.prefix(8)).yml")
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func gate(
        _ urls: [String], baseline: String? = nil, gate: String = "", extra: String = "", maxPages: Int? = nil,
        configure: (inout DeployGate.Options) -> Void = { _ in }
    ) throws -> DeployGate.Outcome {
        var options = DeployGate.Options()
        options.configPath = try config(gate: gate, extra: extra, maxPages: maxPages)
        options.urls = urls
        options.baselinePath = baseline
        configure(&options)
        return DeployGate(now: now).run(options)
    }

    /// A baseline written from a gate run over `urls` (through the gate output file).
    func baseline(from urls: [String], name: String = "baseline.json", expires: String? = nil) throws -> String {
        let output = path("before-output.json")
        _ = try gate(urls) { $0.outputPath = output }
        let created = BaselineMaintenance(now: now).create(from: .init(fromRun: output), to: path(name), reason: "known", expires: expires)
        #expect(created.exitStatus == .passed, "\(created.messages)")
        return path(name)
    }
}

@Suite("canopy gate against a real HTTP server")
struct GateTests {
    @Test("without a baseline, the known problems are new and fail; with it, nothing new passes")
    func passesWhenNothingNew() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let urls = [server.url("/"), server.url("/product/1")]

        let first = try fixture.gate(urls)
        #expect(first.exitStatus == .violationsFound)
        #expect(Set(first.report!.failing.map(\.rule)) == ["image-alt"])

        let baseline = try fixture.baseline(from: urls)
        let second = try fixture.gate(urls, baseline: baseline)
        #expect(second.exitStatus == .passed, "\(second.messages)")
        #expect(second.report!.findings.filter { $0.rule == "image-alt" }.allSatisfy { $0.status == .baselined })
        #expect(second.messages[0].description.hasPrefix("canopy gate: passed"))
    }

    @Test("a new violation fails the gate, and only it is reported as new")
    func failsOnNewViolation() throws {
        let before = try TestHTTPServer.routes(GateSite.routes("before"))
        let after = try TestHTTPServer.routes(GateSite.routes("after"))
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [before.url("/"), before.url("/product/1")])

        let outcome = try fixture.gate([after.url("/"), after.url("/product/1")], baseline: baseline) {
            $0.rewrites = ["\(before.baseURL)=\(after.baseURL)"]
        }

        #expect(outcome.exitStatus == .violationsFound)
        let failing = outcome.report!.failing
        #expect(failing.map(\.rule) == ["button-name"])
        #expect(failing.first?.url == after.url("/product/1"))
        #expect(failing.first?.status == .new)
        let log = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("new: button-name (critical)"))
        #expect(log.contains(after.url("/product/1")))
        #expect(log.contains("fix:"))
    }

    @Test("an issue only in the baseline (fixed on the deploy) passes and is listed as fixed")
    func passesWhenOnlyInBaseline() throws {
        let before = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixed = try TestHTTPServer.routes(GateSite.routes("fixed"))
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [before.url("/"), before.url("/product/1")])

        let outcome = try fixture.gate([fixed.url("/"), fixed.url("/product/1")], baseline: baseline) {
            $0.rewrites = ["\(before.baseURL)=\(fixed.baseURL)"]
        }

        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        #expect(outcome.report!.fixed.map(\.rule) == ["image-alt"])
        #expect(outcome.report!.fixed.first?.url == before.url("/"))
        #expect(outcome.messages.map(\.description).joined().contains("fixed: image-alt on \(before.url("/"))"))
    }

    @Test("an expired waiver fails the gate and says which and since when")
    func failsOnExpiredWaiver() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture(today: "2025-03-01")
        let urls = [server.url("/"), server.url("/product/1")]
        let baseline = try fixture.baseline(from: urls, expires: "2025-02-20")

        let outcome = try fixture.gate(urls, baseline: baseline)

        #expect(outcome.exitStatus == .violationsFound)
        #expect(outcome.report!.failing.allSatisfy { $0.status == .expiredWaiver })
        #expect(outcome.report!.expiredWaivers.first?.daysAgo == 9)
        #expect(outcome.messages.map(\.description).joined().contains("expired on 2025-02-20 (9 days ago); fails the gate again"))

        // Through its expiry day, the waiver holds.
        let onTheDay = try GateFixture(today: "2025-02-20")
        let held = try onTheDay.gate(urls, baseline: baseline)
        #expect(held.exitStatus == .passed, "\(held.messages)")
    }

    @Test("an expired waiver on a finding that does not fail anyway is reported as such, and the gate passes")
    func expiredWaiverThatDoesNotFail() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture(today: "2025-03-01")
        let urls = [server.url("/")]
        let path = try fixture.baseline(from: urls, expires: "2025-02-20")
        // Only the vendor's entry expires; the home image stays waived.
        var baseline = try Baseline.load(contentsOf: path)
        for index in baseline.entries.indices where baseline.entries[index].owner == nil { baseline.entries[index].expires = nil }
        try baseline.write(to: path)

        let outcome = try fixture.gate(urls, baseline: path) { $0.summaryPath = fixture.path("summary.md") }

        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        let log = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("expired waiver: button-name on \(server.url("/")) expired on 2025-02-20 (9 days ago); reported, does not fail: owned by chat-vendor"), "\(log)")
        #expect(!log.contains("fails the gate"))
        let summary = try String(contentsOfFile: fixture.path("summary.md"), encoding: .utf8)
        #expect(summary.contains("reported, does not fail: owned by chat-vendor"))
    }

    @Test("findings inside a vendor's widget are reported but do not fail, unless fail-on-vendors")
    func vendorFindings() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let urls = [server.url("/")]
        // The baseline knows the home image, not the widget's button.
        let baseline = try fixture.baseline(from: urls)
        var entries = try Baseline.load(contentsOf: baseline)
        entries.entries.removeAll { $0.owner != nil }
        try entries.write(to: baseline)

        let outcome = try fixture.gate(urls, baseline: baseline)
        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        let vendor = outcome.report!.findings.filter { $0.owner == "chat-vendor" }
        #expect(vendor.map(\.rule) == ["button-name"])
        #expect(vendor.allSatisfy { $0.status == .new && !$0.fails && $0.note == "owned by chat-vendor" })
        #expect(outcome.messages.map(\.description).joined().contains("vendor chat-vendor: 1 findings reported, not failing"))

        let strict = try fixture.gate(urls, baseline: baseline, gate: "  fail-on-vendors: true")
        #expect(strict.exitStatus == .violationsFound)
    }

    @Test("an unreachable page or an HTTP error exits 3 and names the page, even with failures elsewhere")
    func unreachablePage() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let refusing = try TestHTTPServer.refusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let closed = "http://127.0.0.1:\(refusing.port)/"

        let outcome = try fixture.gate([server.url("/"), server.url("/gone"), closed])

        #expect(outcome.exitStatus == .couldNotAudit)
        #expect(outcome.report?.result == .couldNotAudit)
        let log = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("could not audit \(server.url("/gone")): HTTP 404"))
        #expect(log.contains("could not audit \(closed)"))
    }

    @Test("host rewrite maps the production baseline and sitemap to the staging deploy")
    func hostRewrite() throws {
        let production = try TestHTTPServer.routes(GateSite.routes("before"))
        var stagingRoutes = GateSite.routes("before")
        stagingRoutes["/sitemap.xml"] = TestHTTPResponse(
            status: 200, headers: [(name: "Content-Type", value: "application/xml")],
            body: Array("""
                <?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <url><loc>\(production.url("/"))</loc></url><url><loc>\(production.url("/product/1"))</loc></url></urlset>
                """.utf8)
        )
        let staging = try TestHTTPServer.routes(stagingRoutes)
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [production.url("/"), production.url("/product/1")])
        let stagingURLs = [staging.url("/"), staging.url("/product/1")]

        // Without the rewrite, the baseline's production URLs match nothing on staging.
        #expect(try fixture.gate(stagingURLs, baseline: baseline).exitStatus == .violationsFound)

        let rewrite = "  rewrite:\n    \"\(production.baseURL)\": \"\(staging.baseURL)\""
        let rewritten = try fixture.gate(stagingURLs, baseline: baseline, gate: rewrite)
        #expect(rewritten.exitStatus == .passed, "\(rewritten.messages)")

        // The sitemap lists production URLs; the rewrite sends the gate to staging.
        let fromSitemap = try fixture.gate([], baseline: baseline, gate: rewrite) { $0.sitemap = staging.url("/sitemap.xml") }
        #expect(fromSitemap.exitStatus == .passed, "\(fromSitemap.messages)")
        #expect(Set(fromSitemap.report!.pages.map(\.url)) == Set(stagingURLs))
        #expect(production.requests.filter { $0.path != "/" && $0.path != "/product/1" }.isEmpty)
    }

    @Test("baseline update removes fixed entries (the ratchet) and adds only with add-new")
    func ratchet() throws {
        let before = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixed = try TestHTTPServer.routes(GateSite.routes("after").merging(["/": GateSite.routes("fixed")["/"]!]) { _, new in new })
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [before.url("/"), before.url("/product/1")])
        let original = try Baseline.load(contentsOf: baseline)
        #expect(original.entries.contains { $0.rule == "image-alt" && $0.url == before.url("/") })

        let output = fixture.path("fixed-output.json")
        let gated = try fixture.gate([fixed.url("/"), fixed.url("/product/1")], baseline: baseline) {
            $0.rewrites = ["\(before.baseURL)=\(fixed.baseURL)"]
            $0.outputPath = output
        }
        #expect(gated.exitStatus == .violationsFound)

        let maintenance = BaselineMaintenance(now: fixture.now)
        let source = BaselineMaintenance.Source(fromRun: output, rewrites: ["\(before.baseURL)=\(fixed.baseURL)"])
        let updated = maintenance.update(baselinePath: baseline, from: source)
        #expect(updated.exitStatus == .passed, "\(updated.messages)")
        let shrunk = try Baseline.load(contentsOf: baseline)
        #expect(shrunk.entries.count == original.entries.count - 1)
        #expect(!shrunk.entries.contains { $0.rule == "image-alt" && $0.url == before.url("/") })
        #expect(!shrunk.entries.contains { $0.rule == "button-name" && $0.owner == nil })

        let grown = maintenance.update(baselinePath: baseline, from: source, addNew: true)
        #expect(grown.exitStatus == .passed)
        let added = try Baseline.load(contentsOf: baseline)
        // Added with the production URL, mapped back through the rewrite.
        #expect(added.entries.contains { $0.rule == "button-name" && $0.url == before.url("/product/1") })
        #expect(added.entries == added.entries.sorted { $0.sortKey.lexicographicallyPrecedes($1.sortKey) })
    }

    @Test("baseline create --rewrite maps a staging gate's URLs back to production's")
    func createMapsBackToProduction() throws {
        let staging = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let output = fixture.path("staging.json")
        _ = try fixture.gate([staging.url("/"), staging.url("/product/1")]) { $0.outputPath = output }
        let production = "https://www.example.com"
        let rewrite = "\(production)=\(staging.baseURL)"

        let created = BaselineMaintenance(now: fixture.now).create(
            from: .init(fromRun: output, rewrites: [rewrite]), to: fixture.path("baseline.json")
        )

        #expect(created.exitStatus == .passed, "\(created.messages)")
        let urls = try Baseline.load(contentsOf: fixture.path("baseline.json")).entries.compactMap(\.url)
        #expect(Set(urls) == [production + "/", production + "/product/1"])
        let gated = try fixture.gate([staging.url("/"), staging.url("/product/1")], baseline: fixture.path("baseline.json")) {
            $0.rewrites = [rewrite]
        }
        #expect(gated.exitStatus == .passed, "\(gated.messages)")
    }

    @Test("budgets absorb a few new violations per page type, and rule overrides decide over impact")
    func budgetsAndRuleOverrides() throws {
        let before = try TestHTTPServer.routes(GateSite.routes("before"))
        let after = try TestHTTPServer.routes(GateSite.routes("after"))
        let afterLink = try TestHTTPServer.routes(GateSite.routes("after-link"))
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [before.url("/"), before.url("/product/1")])
        func gate(_ server: TestHTTPServer, _ policy: String) throws -> DeployGate.Outcome {
            try fixture.gate([server.url("/"), server.url("/product/1")], baseline: baseline, gate: policy) {
                $0.rewrites = ["\(before.baseURL)=\(server.baseURL)"]
            }
        }

        #expect(try gate(after, "  budgets:\n    \"/product/*\": 1").exitStatus == .passed)
        #expect(try gate(after, "  budgets:\n    \"/product/*\": 0").exitStatus == .violationsFound)
        #expect(try gate(after, "  budgets:\n    \"/blog/**\": 5").exitStatus == .violationsFound)
        #expect(try gate(after, "  rules:\n    button-name: never").exitStatus == .passed)
        // link-name is serious: below a critical threshold, unless the rule always fails.
        #expect(try gate(afterLink, "  fail-on: critical").exitStatus == .passed)
        #expect(try gate(afterLink, "  fail-on: critical\n  rules:\n    link-name: always").exitStatus == .violationsFound)
        #expect(try gate(afterLink, "").exitStatus == .violationsFound)
    }

    @Test("a baseline created from a stored crawl run matches the same issues in a gate")
    func baselineFromStoredRun() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        var overrides = CrawlOverrides()
        overrides.startURLs = [server.url("/")]
        overrides.robots = false
        overrides.sitemaps = ["none"]
        overrides.reports = fixture.path("Reports")
        let crawled = SiteCrawl(now: fixture.now).run(SiteCrawl.Options(configPath: try fixture.config(), overrides: overrides))
        #expect(crawled.exitStatus == .passed || crawled.exitStatus == .violationsFound, "\(crawled.messages)")

        let baseline = fixture.path("from-run.json")
        let created = BaselineMaintenance(now: fixture.now).create(
            from: .init(fromRun: "latest", storePath: fixture.path("Reports/canopy.sqlite")), to: baseline
        )
        #expect(created.exitStatus == .passed, "\(created.messages)")
        #expect(created.baseline!.entries.contains { $0.rule == "image-alt" })

        let outcome = try fixture.gate([server.url("/"), server.url("/product/1")], baseline: baseline)
        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
    }

    @Test("URL lists: --urls reads one URL a line with comments; no pages is a usage error")
    func urlList() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let list = fixture.path("urls.txt")
        try "# pages to gate\n\(server.url("/"))  # home\n\n\(server.url("/product/1"))\n".write(toFile: list, atomically: true, encoding: .utf8)

        let outcome = try fixture.gate([]) { $0.urlsFile = list }
        #expect(Set(outcome.report!.pages.map(\.url)) == [server.url("/"), server.url("/product/1")])
        #expect(try fixture.gate([]).exitStatus == .usageError)
        #expect(try fixture.gate([server.url("/")]) { $0.crawl = true }.exitStatus == .usageError)
    }
}
