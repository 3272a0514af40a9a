import CanopyDiagnostics
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyKit

@Suite("canopy gate --sitemap")
struct GateSitemapTests {
    @Test("the sitemap is fetched with the configured credentials, sent to its own host only")
    func sitemapWithCredentials() throws {
        let other = try TestHTTPServer.routes(["/more.xml": CatalogSite.sitemap([])])
        let otherSitemap = "http://localhost:\(other.port)/more.xml"
        let token = "X-Deploy-Token"
        let pages = GateSite.routes("before")
        let server = try TestHTTPServer { request in
            let authorised = request.headers.contains { $0.name.lowercased() == token.lowercased() && $0.value == "s3cret" }
            switch request.path {
            case "/sitemap.xml":
                guard authorised else { return .text("who are you?", status: 401) }
                return TestHTTPResponse(
                    status: 200, headers: [(name: "Content-Type", value: "application/xml")],
                    body: Array("""
                        <?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                        <sitemap><loc>http://\(CatalogSite.host(of: request))/pages.xml</loc></sitemap>
                        <sitemap><loc>\(otherSitemap)</loc></sitemap></sitemapindex>
                        """.utf8)
                )
            case "/pages.xml":
                guard authorised else { return .text("who are you?", status: 401) }
                return CatalogSite.sitemap(["/", "/product/1"].map { "http://\(CatalogSite.host(of: request))\($0)" })
            default:
                return pages[request.path] ?? .notFound
            }
        }
        let fixture = try GateFixture()
        let auth = "auth:\n  headers:\n    \(token): s3cret"

        let outcome = try fixture.gate([], extra: auth) { $0.sitemap = server.url("/sitemap.xml") }

        #expect(outcome.exitStatus == .violationsFound, "\(outcome.messages)")
        #expect(Set(outcome.report!.pages.filter(\.audited).map(\.url)) == [server.url("/"), server.url("/product/1")])
        #expect(other.requests.map(\.path) == ["/more.xml"])
        #expect(other.requests.allSatisfy { request in !request.headers.contains { $0.name.lowercased() == token.lowercased() } })
    }

    @Test("a sitemap longer than limits.max-pages is cut, and the log, the summary and the output say so")
    func sitemapCut() throws {
        let server = try CatalogSite.server(GateSite.routes("before"), sitemap: ["/", "/product/1", "/about"])
        let fixture = try GateFixture()

        let outcome = try fixture.gate([], maxPages: 2) {
            $0.sitemap = server.url("/sitemap.xml")
            $0.summaryPath = fixture.path("summary.md")
        }

        let report = try #require(outcome.report)
        #expect(report.pages.count == 2)
        let cut = try #require(report.pageListCut)
        #expect(cut.contains("3 pages") && cut.contains("max-pages"))
        #expect(outcome.messages.map(\.description).joined(separator: "\n").contains("page list cut: \(cut)"))
        #expect(try String(contentsOfFile: fixture.path("summary.md"), encoding: .utf8).contains(cut))
    }
}
