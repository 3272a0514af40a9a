import CanopyDiagnostics
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyKit

@Suite("which pages make the gate exit 3")
struct GatePageOutcomeTests {
    static func linkingSite(extraLinks: String, routes extra: [String: TestHTTPResponse]) -> [String: TestHTTPResponse] {
        var routes = GateSite.routes("before")
        routes["/"] = GateSite.page("Home", main: "<p>Welcome</p>" + GateSite.homeImage + extraLinks)
        routes.merge(extra) { _, new in new }
        return routes
    }

    @Test("--crawl: a linked PDF and a link redirecting off the site are skipped and reported, not failures")
    func crawlSkipsByDesign() throws {
        let elsewhere = try TestHTTPServer.routes(["/landing": GateSite.page("Elsewhere", main: "<p>Hi</p>")])
        let server = try TestHTTPServer.routes(Self.linkingSite(
            extraLinks: #"<a href="/guide.pdf">Guide</a> <a href="/partner">Partner</a>"#,
            routes: [
                "/guide.pdf": TestHTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/pdf")], body: Array("%PDF-1.4".utf8)),
                "/partner": .redirect(to: elsewhere.url("/landing")),
            ]
        ))
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [server.url("/"), server.url("/product/1")])

        let outcome = try fixture.gate([], baseline: baseline, extra: "start: \(server.url("/"))") {
            $0.crawl = true
            $0.junitPath = fixture.path("junit.xml")
        }

        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        let report = try #require(outcome.report)
        #expect(report.unauditedPages.isEmpty)
        #expect(Set(report.pages.filter(\.audited).map(\.url)) == [server.url("/"), server.url("/product/1")])
        let skipped = Dictionary(uniqueKeysWithValues: report.pages.compactMap { page in page.skipped.map { (page.url, $0) } })
        #expect(skipped[server.url("/guide.pdf")]?.contains("not HTML") == true)
        #expect(skipped[server.url("/partner")]?.contains(elsewhere.url("/landing")) == true)
        let log = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("skipped \(server.url("/guide.pdf")): not HTML"))
        #expect(!log.contains("could not audit"))
        #expect(elsewhere.requests.isEmpty)
        // In JUnit, a skipped page is a skipped test case, which the schema allows.
        let junit = try Data(contentsOf: URL(fileURLWithPath: fixture.path("junit.xml")))
        #expect(XMLSchemaValidator.errors(document: Array(junit), schema: Array(try GateSchemas.read("JUnit.xsd"))) == [])
        #expect(String(decoding: junit, as: UTF8.self).contains("<skipped message=\"not HTML (application/pdf)\"/>"))
    }

    @Test("--crawl: a linked page that answers an HTTP error still makes the gate exit 3")
    func crawlBrokenLinkFails() throws {
        let server = try TestHTTPServer.routes(Self.linkingSite(extraLinks: #"<a href="/gone">Old</a>"#, routes: [:]))
        let fixture = try GateFixture()
        let outcome = try fixture.gate([], extra: "start: \(server.url("/"))") { $0.crawl = true }
        #expect(outcome.exitStatus == .couldNotAudit)
        #expect(outcome.messages.map(\.description).joined(separator: "\n").contains("could not audit \(server.url("/gone")): HTTP 404"))
    }

    @Test("--crawl: a crawl stopped by limits.max-pages says so, and does not count as the whole site")
    func crawlCut() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let outcome = try fixture.gate([], extra: "start: \(server.url("/"))", maxPages: 1) { $0.crawl = true }
        let report = try #require(outcome.report)
        #expect(report.pages.map(\.url) == [server.url("/")])
        #expect(report.pageListCut == "limits.max-pages (1) was reached: 1 more pages found were not audited")
        #expect(!report.coversWholeSite)
        #expect(outcome.messages[0].description.contains("page list cut: limits.max-pages (1) was reached"))
    }

    @Test("a listed page that is not HTML could not be audited: listing it asks for its audit")
    func listedNotHTML() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before").merging([
            "/guide.pdf": TestHTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/pdf")], body: Array("%PDF-1.4".utf8)),
        ]) { _, new in new })
        let fixture = try GateFixture()
        let outcome = try fixture.gate([server.url("/"), server.url("/guide.pdf")])
        #expect(outcome.exitStatus == .couldNotAudit)
        #expect(outcome.report?.skippedPages.isEmpty == true)
        #expect(outcome.messages.map(\.description).joined(separator: "\n").contains("could not audit \(server.url("/guide.pdf")): not HTML (application/pdf)"))
    }

    @Test("a listed page that redirects within its host (another scheme or port) is audited under its listed URL")
    func listedRedirectSameHost() throws {
        let secure = try TestHTTPServer.routes(GateSite.routes("before"))
        let plain = try TestHTTPServer.routes(["/product/1": .redirect(to: secure.url("/product/1"), status: 301)])
        let fixture = try GateFixture()

        let outcome = try fixture.gate([plain.url("/product/1")])

        #expect(outcome.exitStatus == .violationsFound, "\(outcome.messages)")
        let page = try #require(outcome.report?.pages.first)
        #expect(page.audited && page.url == plain.url("/product/1"))
        #expect(outcome.report!.failing.map(\.rule) == ["image-alt"])
    }

    @Test("a listed page that redirects to another host could not be audited, and the log says where it went")
    func listedRedirectOtherHost() throws {
        let login = try TestHTTPServer.routes(["/login": GateSite.page("Sign in", main: "<p>Sign in</p>")])
        let elsewhere = "http://localhost:\(login.port)/login"
        let server = try TestHTTPServer.routes(GateSite.routes("before").merging(["/account": .redirect(to: elsewhere)]) { _, new in new })
        let fixture = try GateFixture()

        let outcome = try fixture.gate([server.url("/"), server.url("/account")])

        #expect(outcome.exitStatus == .couldNotAudit)
        let log = outcome.messages.map(\.description).joined(separator: "\n")
        #expect(log.contains("could not audit \(server.url("/account")): redirected to another host: \(elsewhere)"), "\(log)")
        #expect(login.requests.isEmpty)
    }
}
