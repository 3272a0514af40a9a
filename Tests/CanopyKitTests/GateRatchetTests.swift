import CanopyDiagnostics
import CanopyCrawl
import CanopyHistory
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyKit

@Suite("the ratchet removes only what the source looked for and did not find")
struct GateRatchetTests {
    @Test("entries of rules the gate did not run are neither fixed nor removed")
    func rulesNotRunAreKept() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let urls = [server.url("/"), server.url("/product/1")]
        let baseline = try fixture.baseline(from: urls)
        let original = try Baseline.load(contentsOf: baseline)
        #expect(original.entries.contains { $0.rule == "image-alt" })

        let output = fixture.path("button-name-only.json")
        let gated = try fixture.gate(urls, baseline: baseline) {
            $0.overrides.onlyRules = ["button-name"]
            $0.outputPath = output
        }
        #expect(gated.exitStatus == .passed, "\(gated.messages)")
        #expect(gated.report!.fixed.isEmpty)

        let updated = BaselineMaintenance(now: fixture.now).update(baselinePath: baseline, from: .init(fromRun: output))
        #expect(updated.exitStatus == .passed, "\(updated.messages)")
        #expect(try Baseline.load(contentsOf: baseline).entries == original.entries)
    }

    @Test("a stored run with fewer rules keeps the other rules' entries")
    func storedRunWithFewerRules() throws {
        let server = try TestHTTPServer.routes(GateSite.routes("before"))
        let fixture = try GateFixture()
        let baseline = try fixture.baseline(from: [server.url("/"), server.url("/product/1")])
        let original = try Baseline.load(contentsOf: baseline)

        var overrides = CrawlOverrides()
        overrides.startURLs = [server.url("/")]
        overrides.robots = false
        overrides.sitemaps = ["none"]
        overrides.reports = fixture.path("Reports")
        overrides.onlyRules = ["button-name"]
        let crawled = SiteCrawl(now: fixture.now).run(SiteCrawl.Options(configPath: try fixture.config(), overrides: overrides))
        #expect(crawled.exitStatus == .passed || crawled.exitStatus == .violationsFound, "\(crawled.messages)")

        let updated = BaselineMaintenance(now: fixture.now).update(
            baselinePath: baseline, from: .init(fromRun: "latest", storePath: fixture.path("Reports/canopy.sqlite"))
        )
        #expect(updated.exitStatus == .passed, "\(updated.messages)")
        #expect(try Baseline.load(contentsOf: baseline).entries == original.entries)
    }

    @Test("a page-type entry survives a gate over a few pages of its template, and goes when the whole site is clean")
    func pageTypeEntries() throws {
        let before = try TestHTTPServer.routes(CatalogSite.routes())
        let fixture = try GateFixture()
        let all = ["/", "/product/1", "/product/2", "/product/3"]
        let baseline = try fixture.baseline(from: all.map(before.url))
        let original = try Baseline.load(contentsOf: baseline)
        let template = try #require(original.entries.first { $0.rule == "button-name" })
        #expect(template.pageType == "/product/*" && template.url == nil && template.component == nil)

        // Product 1 is fixed; 2 and 3 still have the issue but the gate does not look at them.
        let partly = try TestHTTPServer.routes(CatalogSite.routes(fixedOn: [1]))
        let output = fixture.path("one-product.json")
        let gated = try fixture.gate([partly.url("/product/1")], baseline: baseline) { $0.outputPath = output }
        #expect(gated.exitStatus == .passed, "\(gated.messages)")
        #expect(gated.report!.fixed.isEmpty)
        #expect(gated.report!.notSeen?.map(\.rule) == ["button-name"])
        let maintenance = BaselineMaintenance(now: fixture.now)
        let kept = maintenance.update(baselinePath: baseline, from: .init(fromRun: output))
        #expect(kept.exitStatus == .passed, "\(kept.messages)")
        #expect(try Baseline.load(contentsOf: baseline).entries == original.entries)
        #expect(kept.messages[0].description.contains("1 not confirmed"))

        // Asked explicitly, the ratchet removes it from the same partial source.
        let pruned = maintenance.update(baselinePath: baseline, from: .init(fromRun: output), output: fixture.path("pruned.json"), pruneTemplates: true)
        #expect(pruned.exitStatus == .passed, "\(pruned.messages)")
        #expect(try Baseline.load(contentsOf: fixture.path("pruned.json")).entries.isEmpty)

        // A gate over the whole site (its sitemap) with every product fixed confirms the fix.
        let fixed = try CatalogSite.server(CatalogSite.routes(fixedOn: [1, 2, 3]), sitemap: all)
        let siteOutput = fixture.path("whole-site.json")
        let sitemapGate = try fixture.gate([], baseline: baseline) {
            $0.sitemap = fixed.url("/sitemap.xml")
            $0.outputPath = siteOutput
        }
        #expect(sitemapGate.exitStatus == .passed, "\(sitemapGate.messages)")
        #expect(sitemapGate.report!.fixed.map(\.rule) == ["button-name"])
        let removed = maintenance.update(baselinePath: baseline, from: .init(fromRun: siteOutput))
        #expect(removed.exitStatus == .passed, "\(removed.messages)")
        #expect(try Baseline.load(contentsOf: baseline).entries.isEmpty)
    }
}
