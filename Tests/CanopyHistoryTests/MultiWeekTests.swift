@testable import CanopyHistory
import Foundation
import Testing
import CanopyStore
import CanopyHistoryTestSupport

/// A generated shop "crawled" every week, with seeded regressions, fixes and unrelated churn: the
/// trend must report exactly the seeded changes, and pages that did not change must not churn.
/// The pages are parsed and audited here and recorded straight into the store; the same
/// acceptance over real crawls (HTTP server, `SiteCrawl`, canopy.yml) is `WeeklyCrawlHistoryTests`.
struct MultiWeekTests {
    /// What the site looks like in a given week.
    struct SiteState {
        var week: Int
        /// Seeded problems (each one failing element, one rule).
        var footerLinkWithoutName = true        // component issue: link-name in the footer
        var productImageWithoutAlt = true       // template issue: image-alt on every product
        var contactFieldWithoutLabel = true     // one-off issue: label on /contact
        var aboutImageWithoutAlt = true         // one-off issue: image-alt on /about
        var wishButtonWithoutName = false       // template issue: button-name on every product
        var headerSearchWithoutLabel = false    // component issue: label in the header
        /// Unrelated churn.
        var banner = false
        var menuReversed = false
        var priceSeed = 0
        var promoClass = "promo"
        var products = 20

        func pages() -> [(url: String, html: String)] {
            var pages = [("https://shop.example/", page(title: "Home", main: "<h1>Welcome</h1><p>Our shop.</p>"))]
            pages.append(("https://shop.example/about", page(title: "About", main: """
                <h1>About us</h1><p>Since 1999.</p>\(aboutImageWithoutAlt ? "<img src=\"/img/team.jpg\">" : "<img src=\"/img/team.jpg\" alt=\"Our team\">")
                """)))
            pages.append(("https://shop.example/contact", page(title: "Contact", main: """
                <h1>Contact</h1><form action="/send"><label for="email">Email</label><input id="email" type="email" name="email">
                \(contactFieldWithoutLabel ? "<input type=\"text\" name=\"order\">" : "<label>Order <input type=\"text\" name=\"order\"></label>")
                <button type="submit">Send</button></form>
                """)))
            for number in 1...products {
                let price = (number * 7 + priceSeed * 13) % 90 + 10
                let related = (1...4).map { "<li><a href=\"/product/\(($0 + number + priceSeed) % products + 1)-item\">Related \($0)</a></li>" }
                pages.append(("https://shop.example/product/\(number)-item", page(title: "Product \(number)", main: """
                    <h1>Product \(number)</h1>
                    <div class="\(promoClass)"><p>Now \(price) €</p></div>
                    \(productImageWithoutAlt ? "<img src=\"/img/p/\(number).jpg\">" : "<img src=\"/img/p/\(number).jpg\" alt=\"Product \(number)\">")
                    \(wishButtonWithoutName ? "<button class=\"wish\"><svg width=\"8\" height=\"8\"></svg></button>" : "")
                    <h2>Related</h2><ul>\(related.joined())</ul>
                    """)))
            }
            return pages
        }

        private func page(title: String, main: String) -> String {
            let menu = ["Shirts", "Hats", "Shoes"].map { "<li><a href=\"/c/\($0.lowercased())\">\($0)</a></li>" }
            return """
                <!doctype html><html lang="en"><head><title>\(title) – Shop</title></head><body>
                <header>
                \(banner ? "<div class=\"banner\"><p>Free shipping this week</p></div>" : "")
                <a href="/"><img src="/logo.svg" alt="Shop"></a>
                \(headerSearchWithoutLabel ? "<form role=\"search\" action=\"/search\"><input type=\"search\" name=\"q\"></form>" : "")
                <nav aria-label="Main"><ul>\((menuReversed ? menu.reversed() : menu).joined())</ul></nav>
                </header>
                <main>\(main)</main>
                <footer><p>© Shop</p><a href="/help">Help</a>\(footerLinkWithoutName ? "<a href=\"/social/x\"><i class=\"icon\"></i></a>" : "<a href=\"/social/x\">X</a>")</footer>
                </body></html>
                """
        }
    }

    @Test func weeklyTrendReportsExactlyTheSeededChanges() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("weeks.sqlite"))
        let auditor = FixturePageAuditor()
        let firstFriday = Date(timeIntervalSince1970: 1_704_441_600)

        func crawl(_ site: SiteState, interruptAfter: Int? = nil) throws -> RunID {
            let run = try store.begin(.test(at: firstFriday.addingTimeInterval(Double(site.week - 1) * 7 * 86_400)))
            let pages = site.pages()
            let recorded = pages.prefix(interruptAfter ?? pages.count).map { auditor.record(url: $0.url, html: $0.html) }
            // In batches, as the crawler records them.
            for batch in stride(from: 0, to: recorded.count, by: 7) { try store.record(Array(recorded[batch..<min(batch + 7, recorded.count)]), run: run) }
            if interruptAfter != nil {
                try store.markInterrupted(run)
            } else {
                try store.finish(run, coverage: RunCoverage(planned: pages.count, crawled: pages.count, failed: 0))
            }
            return run
        }

        var site = SiteState(week: 1)
        let week1 = try crawl(site)

        // Week 2: the contact form is fixed, products gain a nameless wish button; a banner, a
        // reordered menu, new prices and a renamed class are unrelated churn.
        site.week = 2
        site.contactFieldWithoutLabel = false
        site.wishButtonWithoutName = true
        site.banner = true
        site.menuReversed = true
        site.priceSeed = 1
        site.promoClass = "promo promo--bold"
        let week2 = try crawl(site)

        // Week 3: the footer link gets a name, the header gains an unlabelled search field (on
        // every page), two products are added (more instances, no new issue), prices change again.
        site.week = 3
        site.footerLinkWithoutName = false
        site.headerSearchWithoutLabel = true
        site.products = 22
        site.priceSeed = 2
        let week3 = try crawl(site)

        // Week 4: a crawl with a regression is interrupted halfway: it must not count.
        site.week = 4
        var broken = site
        broken.aboutImageWithoutAlt = true
        broken.productImageWithoutAlt = false
        _ = try crawl(broken, interruptAfter: 10)

        // Week 5: only churn.
        site.week = 5
        site.banner = false
        site.promoClass = "promo"
        site.priceSeed = 3
        let week5 = try crawl(site)

        let trend = try store.trendReport()
        #expect(trend.runs.map(\.runId) == [week1, week2, week3, week5])
        let comparisons = try trend.runs.dropFirst().map { try #require($0.comparison) }
        #expect(comparisons.map(\.previousRunId) == [week1, week2, week3])
        #expect(comparisons.map(\.newIssues) == [1, 1, 0])
        #expect(comparisons.map(\.fixedIssues) == [1, 1, 0])
        let counts = trend.runs.map(\.violations.issues)
        #expect(comparisons.map(\.persistingIssues) == [counts[0] - 1, counts[1] - 1, counts[2]])
        #expect(comparisons.allSatisfy { !$0.ruleSetChanged && !$0.configChanged && $0.changes.isEmpty })

        // Instance by instance: what changed between weeks is exactly the seeded change.
        let instances = try [week1, week2, week3, week5].map { try store.violationInstances(run: $0) }
        let findings = try [week1, week2, week3, week5].map { try store.findings(run: $0).filter { $0.outcome == .violation } }
        func rules(_ changed: Set<Instance>, in week: Int) -> [String: Int] {
            var byRule: [String: Int] = [:]
            for instance in changed {
                let rule = findings[week].first { $0.issueKey == instance.issueKey && $0.pageURL == instance.url }?.ruleID ?? "?"
                byRule[rule, default: 0] += 1
            }
            return byRule
        }
        let products20 = (1...20).map { "https://shop.example/product/\($0)-item" }
        let newProducts: Set<String> = ["https://shop.example/product/21-item", "https://shop.example/product/22-item"]

        // Week 1 → 2: label on /contact fixed; button-name on the 20 products.
        #expect(rules(instances[0].subtracting(instances[1]), in: 0) == ["label": 1])
        #expect(instances[0].subtracting(instances[1]).map(\.url) == ["https://shop.example/contact"])
        #expect(rules(instances[1].subtracting(instances[0]), in: 1) == ["button-name": 20])
        #expect(Set(instances[1].subtracting(instances[0]).map(\.url)) == Set(products20))

        // Week 2 → 3: the footer's link-name fixed on the 23 old pages; label in the header on all
        // 25 pages; the 2 new products bring their template instances (image-alt, button-name) and
        // the issues every page has.
        let gone = instances[1].subtracting(instances[2])
        #expect(rules(gone, in: 1) == ["link-name": 23])
        let added = instances[2].subtracting(instances[1])
        let addedOnOldPages = added.filter { !newProducts.contains($0.url) }
        #expect(rules(addedOnOldPages, in: 2) == ["label": 23])
        let onNewProducts = added.filter { newProducts.contains($0.url) }
        let perProduct = instances[2].filter { $0.url == products20[0] }.map(\.issueKey)
        #expect(Set(onNewProducts.map(\.issueKey)) == Set(perProduct))

        // Week 3 → 5: nothing but churn: every instance the same.
        #expect(instances[3] == instances[2])

        // Ages: the product image issue was first seen in week 1, the header search in week 3.
        let latest = try #require(trend.latest)
        #expect(latest.runId == week5)
        let productImage = try #require(latest.openIssues.first { $0.ruleId == "image-alt" && $0.pageType == "/product/*" })
        #expect(productImage.firstSeenRunId == week1)
        #expect(productImage.firstSeenAt == firstFriday)
        #expect(productImage.pageCount == 22)
        let headerSearch = try #require(latest.openIssues.first { $0.ruleId == "label" })
        #expect(headerSearch.component == "header")
        #expect(headerSearch.firstSeenRunId == week3)
        #expect(headerSearch.pageCount == 25)
        #expect(latest.openIssues.allSatisfy { !$0.isNew })
    }

    @Test func aRuleSetOrConfigChangeIsFlagged() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("changes.sqlite"))
        let page = PageRecord(url: "https://shop.example/", findings: [madeUpFinding("image-alt", signature: "a")])
        try store.recordCompleteRun([page], start: .test(ruleIDs: ["image-alt", "link-name"]))
        try store.recordCompleteRun([page], start: .test(ruleIDs: ["image-alt", "label"], configHash: "config-b", canopyVersion: "0.2.0"))
        let comparison = try #require(try store.trendReport().runs.last?.comparison)
        #expect(comparison.ruleSetChanged && comparison.configChanged && comparison.canopyVersionChanged)
        #expect(comparison.rulesAdded == ["label"])
        #expect(comparison.rulesRemoved == ["link-name"])
        #expect(comparison.changes == ["rules added: label", "rules removed: link-name", "configuration changed", "Canopy 0.1.0 → 0.2.0"])
    }

    @Test func aTrendOfTheLastRunsStillComparesTheFirstShownWithItsPredecessor() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("window.sqlite"))
        let first = PageRecord(url: "https://shop.example/", findings: [madeUpFinding("image-alt", signature: "a")])
        let second = PageRecord(url: "https://shop.example/", findings: [madeUpFinding("image-alt", signature: "a"), madeUpFinding("label", signature: "b")])
        try store.recordCompleteRun([first])
        let run2 = try store.recordCompleteRun([second])
        let run3 = try store.recordCompleteRun([first])
        let trend = try store.trendReport(options: TrendOptions(includePages: false, maximumRuns: 2))
        #expect(trend.runs.map(\.runId) == [run2, run3])
        #expect(trend.runs.map { $0.comparison?.newIssues } == [1, 0])
        #expect(trend.runs.map { $0.comparison?.fixedIssues } == [0, 1])
        #expect(trend.runs.map { $0.comparison?.persistingIssues } == [1, 1])
        #expect(trend.latest?.pages.isEmpty == true)
        #expect(trend.latest?.openIssues.map(\.firstSeenRunId) == [RunID(1)])
    }
}
