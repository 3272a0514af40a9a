@testable import CanopyHistory
import Foundation
import Testing
import CanopyRules
import CanopyStore
import CanopyHistoryTestSupport

/// Issue keys: one issue per template problem and per component problem, however many pages.
struct IssueKeyTests {
    static let footer = """
        <footer><p>© Shop</p><a href="/help">Help</a><a href="/social/x"><i class="icon"></i></a></footer>
        """

    static func productPage(_ number: Int) -> String {
        """
        <!doctype html><html lang="en"><head><title>Product \(number)</title></head><body>
        <header><a href="/"><img src="/logo.svg" alt="Shop"></a></header>
        <main><h1>Product number \(number)</h1><p>Price: \(number % 90 + 10) €</p>
        <img src="/img/products/\(number)-large.jpg">
        \(number % 3 == 0 ? "<p>On sale!</p>" : "")
        </main>
        \(footer)
        </body></html>
        """
    }

    static func infoPage(_ name: String) -> String {
        """
        <!doctype html><html lang="en"><head><title>\(name)</title></head><body>
        <header><a href="/"><img src="/logo.svg" alt="Shop"></a></header>
        <main><h1>\(name)</h1><p>Text about \(name).</p></main>
        \(footer)
        </body></html>
        """
    }

    @Test func aTemplateIssueOn500PagesIs500InstancesOfOneIssue() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("template.sqlite"))
        let auditor = FixturePageAuditor()
        let products = (1...500).map { auditor.record(url: "https://shop.example/product/\($0)-item", html: Self.productPage($0)) }
        let info = ["about", "contact", "shipping"].map { auditor.record(url: "https://shop.example/\($0)", html: Self.infoPage($0)) }
        try store.recordCompleteRun(products + info)

        let latest = try #require(try store.trendReport().latest)
        let imageAlt = latest.openIssues.filter { $0.ruleId == "image-alt" }
        #expect(imageAlt.count == 1)
        #expect(imageAlt.first?.pageCount == 500)
        #expect(imageAlt.first?.pageType == "/product/*")
        #expect(imageAlt.first?.component == nil)
        #expect(latest.pageTypes.first == GroupCount(name: "/product/*", pages: 500))
        // 500 instances of the template issue in the drill-down, one per product page.
        let instances = latest.pages.flatMap { page in page.findings.filter { $0.ruleId == "image-alt" }.map { _ in page.url } }
        #expect(instances.count == 500 && Set(instances).count == 500)
    }

    @Test func aFooterIssueOnEveryPageIsOneComponentIssue() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("component.sqlite"))
        let auditor = FixturePageAuditor()
        let pages = (1...12).map { auditor.record(url: "https://shop.example/product/\($0)", html: Self.productPage($0)) }
            + ["about", "contact", "shipping", "returns"].map { auditor.record(url: "https://shop.example/\($0)", html: Self.infoPage($0)) }
        let run = try store.recordCompleteRun(pages)

        let trend = try store.trendReport()
        let linkName = try #require(trend.latest?.openIssues.filter { $0.ruleId == "link-name" })
        #expect(linkName.count == 1)
        #expect(linkName.first?.component == "footer")
        #expect(linkName.first?.pageCount == 16)
        #expect(linkName.first?.example.snippet.contains("/social/x") == true)
        #expect(trend.runs.last?.byComponent.contains(GroupTotals(name: "footer", issues: 1, instances: 16)) == true)
        #expect(try store.siteWideComponents(run: run).map(\.candidate.key) == ["footer", "header"])
    }

    @Test func aComponentOnFewPagesIsNotSiteWide() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("rare.sqlite"), analysis: AnalysisOptions(componentPageShare: 0.5, componentMinimumPages: 3))
        let widget = ComponentCandidate(key: "div#chat", structureHash: "c")
        let inWidget = ComponentPlacement(candidate: widget, elementSignature: "button")
        // The widget is on 2 of 6 pages: below both the share and the minimum.
        let pages = (1...6).map { index in
            PageRecord(
                url: "https://shop.example/p\(index)",
                findings: index <= 2 ? [madeUpFinding("button-name", signature: "page-button-\(index)", component: inWidget, owner: "ChatCo")] : [],
                components: index <= 2 ? [widget] : []
            )
        }
        let run = try store.recordCompleteRun(pages)
        #expect(try store.siteWideComponents(run: run).isEmpty)
        let issues = try #require(try store.trendReport().latest?.openIssues)
        #expect(issues.count == 2)
        #expect(issues.allSatisfy { $0.component == nil && $0.owner == "ChatCo" })
    }

    /// Keys are compared across a year of weekly runs, so their definition may not drift: the
    /// analysis hashes the stored bytes of the columns, and must give the hash of the texts.
    @Test("an issue's key is the hash of its texts: page, rule, outcome, page type and signature; or component, rule, outcome, component and signature in it")
    func issueKeysAreTheHashesOfTheirTexts() throws {
        // A widget on every page (site-wide), with a finding in it, and a template finding.
        let widget = ComponentCandidate(key: "div#chat", structureHash: "c")
        let findings = { (index: Int) in
            [
                madeUpFinding("button-name", signature: "widget-\(index)", component: ComponentPlacement(candidate: widget, elementSignature: "button ✓")),
                madeUpFinding("image-alt", signature: "hero · é", outcome: .incomplete),
            ]
        }
        let pages = (1...4).map { PageRecord(url: "https://shop.example/item/\($0)", findings: findings($0), components: [widget]) }
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("keys.sqlite"))
        let run = try store.recordCompleteRun(pages)
        #expect(try store.siteWideComponents(run: run).map(\.candidate.key) == ["div#chat"])
        let stored = try store.findings(run: run)
        let componentKeys = Set(stored.filter { $0.finding.ruleID == "button-name" }.map(\.issueKey))
        #expect(componentKeys == [StableHasher.hex(of: "component", "button-name", "violation", "div#chat", "button ✓")])
        let pageType = try #require(try store.trendReport().latest?.openIssues.first { $0.ruleId == "image-alt" }?.pageType)
        let pageKeys = Set(stored.filter { $0.finding.ruleID == "image-alt" }.map(\.issueKey))
        #expect(pageKeys == [StableHasher.hex(of: "page", "image-alt", "incomplete", pageType, "hero · é")])
    }

    @Test("counts are exact when the analysis reads a run in chunks, a page's findings split between two of them")
    func countsAcrossChunks() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("chunks.sqlite"))
        let footer = ComponentCandidate(key: "footer", structureHash: "f")
        let inFooter = ComponentPlacement(candidate: footer, elementSignature: "a.social")
        // 7 findings a page, so that chunk boundaries fall inside pages: 3 in the site-wide
        // footer (one component issue), 4 of one template issue.
        let pageCount = RunAnalysis.chunkSize / 7 * 2 + 3
        let pages = (0..<pageCount).map { index in
            PageRecord(
                url: "https://shop.example/product/\(index)",
                findings: (0..<3).map { _ in madeUpFinding("link-name", signature: "footer-link", component: inFooter) }
                    + (0..<4).map { _ in madeUpFinding("image-alt", signature: "gallery-image") },
                components: [footer]
            )
        }
        let run = try store.recordCompleteRun(pages)

        let issues = try #require(try store.trendReport(options: TrendOptions(includePages: false)).latest?.openIssues)
        #expect(issues.count == 2)
        let component = try #require(issues.first { $0.ruleId == "link-name" })
        #expect(component.component == "footer")
        #expect((component.pageCount, component.findingCount) == (pageCount, 3 * pageCount))
        let template = try #require(issues.first { $0.ruleId == "image-alt" })
        #expect(template.pageType == "/product/*")
        #expect((template.pageCount, template.findingCount) == (pageCount, 4 * pageCount))
        #expect(try store.findings(run: run).allSatisfy { $0.issueKey != nil }, "every finding got its key")
        #expect(try store.pages(run: run).allSatisfy { $0.pageType == "/product/*" }, "and every page its type")
    }

    @Test("an issue takes the most severe impact among its findings and the owner on its first page by URL; each total counts it once")
    func impactAndOwnerOfAnIssueWhoseFindingsDiffer() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("mixed.sqlite"))
        // One template issue (same rule, signature and page type) whose findings disagree on the
        // impact and the owner, and a second issue so that the totals add up two.
        func finding(_ impact: Impact, owner: String?, signature: String = "gallery-image") -> FindingRecord {
            FindingRecord(
                Finding(ruleID: "image-alt", impact: impact, outcome: .violation, target: "#\(signature)", snippet: "<img>", message: "it fails"),
                owner: owner, identity: FindingIdentity(elementSignature: signature, component: nil)
            )
        }
        let pages = [
            PageRecord(url: "https://shop.example/product/1", findings: [finding(.minor, owner: nil), finding(.moderate, owner: nil)]),
            PageRecord(url: "https://shop.example/product/2", findings: [finding(.critical, owner: "GalleryCo")]),
            PageRecord(url: "https://shop.example/product/3", findings: [finding(.serious, owner: "OtherCo"), finding(.minor, owner: nil, signature: "hero")]),
        ]
        try store.recordCompleteRun(pages)

        let trend = try store.trendReport()
        let issues = try #require(trend.latest?.openIssues)
        #expect(issues.count == 2)
        let gallery = try #require(issues.first { $0.pageCount == 3 })
        #expect((gallery.impact, gallery.owner, gallery.findingCount) == ("critical", "GalleryCo", 4))
        let hero = try #require(issues.first { $0.pageCount == 1 })
        #expect((hero.impact, hero.owner, hero.findingCount) == ("minor", nil, 1))
        let run = try #require(trend.runs.last)
        #expect((run.violations.issues, run.violations.instances) == (2, 4))
        #expect(run.byImpact == [GroupTotals(name: "critical", issues: 1, instances: 3), GroupTotals(name: "minor", issues: 1, instances: 1)])
        #expect(run.byOwner.map { [$0.owner ?? "", "\($0.issues)", "\($0.instances)"] } == [["GalleryCo", "1", "3"], ["", "1", "1"]])
        #expect(run.byPageType == [GroupTotals(name: "/product/*", issues: 2, instances: 4)])
    }

    @Test("an issue's example and owner are those of its first page by URL, whatever order its pages were recorded in")
    func exampleAndOwnerDoNotDependOnRecordingOrder() throws {
        // One template issue on four pages, its element told apart on each page by its target and
        // snippet; its findings name different vendors, or none, from page to page.
        func page(_ number: Int, owners: [String?]) -> PageRecord {
            PageRecord(url: "https://shop.example/product/\(number)", findings: owners.enumerated().map { index, owner in
                madeUpFinding("image-alt", signature: "gallery-image", elementID: "gallery-\(number)-\(index)", owner: owner)
            })
        }
        let pages = [page(1, owners: [nil, nil]), page(2, owners: [nil, "GalleryCo"]), page(3, owners: ["OtherCo"]), page(4, owners: ["ThirdCo"])]
        var reports: [[OpenIssue]] = []
        for order in [[3, 2, 0, 1], [1, 3, 0, 2], [0, 1, 2, 3]] {
            let folder = try TemporaryFolder()
            let store = try RunStore(path: folder.path("order.sqlite"))
            try store.recordCompleteRun(order.map { pages[$0] })
            reports.append(try #require(try store.trendReport().latest?.openIssues))
        }
        let issue = try #require(reports[0].first)
        #expect(reports[0].count == 1)
        #expect(issue.example.url == "https://shop.example/product/1" && issue.example.target == "#gallery-1-0")
        // product/1 names no vendor; product/2 names one on its second finding.
        #expect(issue.owner == "GalleryCo")
        #expect(reports[1] == reports[0] && reports[2] == reports[0])
    }
}
