import CanopyRules
import CanopyHistory
import CanopyStore
import Foundation

/// A generated year of weekly crawls, for measuring reports on a store of realistic size without
/// crawling anything: a shop with product, category, blog and one-off pages; a header, navigation
/// and footer on every page and a vendor chat widget on most; template issues shared by all pages
/// of a type, component issues, and page-specific ones; each week some issues are fixed and some
/// appear. Deterministic for a given seed.
///
/// Not part of Canopy's library: a target of its own, used by `canopy-report-bench` and by tests
/// that need a store of some size (its records are made up, never crawled).
public enum SyntheticHistory {
    /// Where generating a history spends its time: recording pages (the crawl's hot path) and
    /// finishing runs (the end-of-run analysis). Filled in by `populate` when given.
    public final class Timings {
        public var recording: Duration = .zero
        public var finishing: Duration = .zero
        public init() {}
    }

    /// Records `runs` complete weekly runs of a `pages`-page site into `store`, oldest first.
    @discardableResult
    public static func populate(store: RunStore, runs: Int = 52, pages: Int = 3_000, seed: UInt64 = 1, timings: Timings? = nil) throws -> [RunID] {
        let clock = ContinuousClock()
        var random = SplitMix64(seed: seed)
        let site = Site(pageCount: pages, random: &random)
        var state = WeekState(site: site, random: &random)
        let firstWeek = Date(timeIntervalSince1970: 1_704_441_600)  // Friday 2024-01-05, 00:00 UTC
        var recorded: [RunID] = []
        for week in 0..<runs {
            if week > 0 { state.advance(random: &random) }
            let started = firstWeek.addingTimeInterval(Double(week) * 7 * 86_400)
            let run = try store.begin(RunStart(
                startedAt: started, configHash: "config-1", ruleSetName: "default", ruleIDs: Site.ruleIDs,
                ruleSetHash: StableHasher.hex(of: Site.ruleIDs.joined(separator: ",")), canopyVersion: "0.1.0",
                startURLs: ["https://shop.example/"], pagesPlanned: pages
            ))
            var batch: [PageRecord] = []
            batch.reserveCapacity(200)
            for page in site.pages.indices {
                batch.append(state.record(for: page))
                if batch.count == 200 || page == site.pages.count - 1 {
                    let recording = clock.now
                    try store.record(batch, run: run)
                    timings?.recording += clock.now - recording
                    batch.removeAll(keepingCapacity: true)
                }
            }
            let finishing = clock.now
            try store.finish(run, coverage: RunCoverage(planned: pages, crawled: pages, failed: 0, skippedByScope: 40, skippedByRobots: 3),
                             endedAt: started.addingTimeInterval(55))
            timings?.finishing += clock.now - finishing
            recorded.append(run)
        }
        return recorded
    }

    /// The generated site: pages with their type and the template issues they share.
    private struct Site {
        static let ruleIDs = [
            "image-alt", "link-name", "button-name", "label", "heading-order", "region", "list", "listitem",
            "aria-valid-attr-value", "landmark-unique", "empty-heading", "select-name", "frame-title", "tabindex",
        ]
        static let components = [
            ComponentCandidate(key: "header", structureHash: StableHasher.hex(of: "header-shape")),
            ComponentCandidate(key: "nav[aria-label=\"main\"]", structureHash: StableHasher.hex(of: "nav-shape")),
            ComponentCandidate(key: "footer", structureHash: StableHasher.hex(of: "footer-shape")),
        ]
        static let chatWidget = ComponentCandidate(key: "div#chat-widget", structureHash: StableHasher.hex(of: "chat-shape"))

        struct Page {
            let url: String
            let template: Int
            let hasChat: Bool
        }

        let pages: [Page]
        /// Templates: 0 product, 1 category, 2 blog post, 3 one-off pages.
        static let templateCount = 4

        init(pageCount: Int, random: inout SplitMix64) {
            var pages: [Page] = []
            for index in 0..<pageCount {
                let roll = index % 20
                let url: String
                let template: Int
                switch roll {
                case 0..<15:
                    url = "https://shop.example/product/\(10_000 + index)-item-\(index)"
                    template = 0
                case 15..<17:
                    url = "https://shop.example/category/\(index)-range"
                    template = 1
                case 17..<19:
                    url = "https://shop.example/blog/2024/post-\(index)"
                    template = 2
                default:
                    url = "https://shop.example/info/page\(index)"
                    template = 3
                }
                pages.append(Page(url: url, template: template, hasChat: random.next() % 10 < 7))
            }
            self.pages = pages
        }
    }

    /// Which issues exist this week; `advance` fixes some and introduces others.
    private struct WeekState {
        struct Issue: Hashable, Comparable {
            /// The component (0–2 shared chrome, 3 the chat widget), template or page the issue is on.
            let place: Int
            let element: Int
            let rule: Int
            static func < (lhs: Issue, rhs: Issue) -> Bool { (lhs.place, lhs.element, lhs.rule) < (rhs.place, rhs.element, rhs.rule) }
        }

        let site: Site
        var componentIssues: Set<Issue>
        var templateIssues: Set<Issue>
        /// Page-specific issues by page index.
        var pageIssues: [Int: Set<Issue>]
        var nextElement = 1_000

        init(site: Site, random: inout SplitMix64) {
            self.site = site
            let rules = UInt64(Site.ruleIDs.count)
            componentIssues = Set((0..<8).map { Issue(place: $0 % 4, element: $0, rule: $0 % Site.ruleIDs.count) })
            templateIssues = Set((0..<(Site.templateCount * 6)).map {
                Issue(place: $0 % Site.templateCount, element: $0, rule: Int(random.next() % rules))
            })
            var pageIssues: [Int: Set<Issue>] = [:]
            for page in site.pages.indices {
                for element in 0..<Int(random.next() % 9) {
                    pageIssues[page, default: []].insert(Issue(place: page, element: element, rule: Int(random.next() % rules)))
                }
            }
            self.pageIssues = pageIssues
        }

        mutating func advance(random: inout SplitMix64) {
            let rules = UInt64(Site.ruleIDs.count)
            // About 3% of page issues fixed and one new per 25 pages each week; now and then a
            // template or component issue is fixed or appears.
            for page in pageIssues.keys.sorted() {
                for issue in pageIssues[page, default: []].sorted() where random.next() % 100 < 3 { pageIssues[page]?.remove(issue) }
            }
            for _ in 0..<max(1, site.pages.count / 25) {
                nextElement += 1
                let page = Int(random.next() % UInt64(site.pages.count))
                pageIssues[page, default: []].insert(Issue(place: page, element: nextElement, rule: Int(random.next() % rules)))
            }
            if random.next() % 4 == 0, let fixed = templateIssues.min() { templateIssues.remove(fixed) }
            if random.next() % 4 == 0 {
                nextElement += 1
                templateIssues.insert(Issue(place: Int(random.next() % UInt64(Site.templateCount)), element: nextElement, rule: Int(random.next() % rules)))
            }
            if random.next() % 8 == 0 {
                nextElement += 1
                componentIssues.insert(Issue(place: Int(random.next() % 4), element: nextElement, rule: Int(random.next() % rules)))
            }
        }

        func record(for pageIndex: Int) -> PageRecord {
            let page = site.pages[pageIndex]
            var findings: [FindingRecord] = []
            var components = Site.components
            if page.hasChat { components.append(Site.chatWidget) }
            for issue in componentIssues.sorted() where issue.place < 3 || page.hasChat {
                let candidate = issue.place < 3 ? Site.components[issue.place] : Site.chatWidget
                findings.append(finding(
                    issue, owner: issue.place == 3 ? "ChatVendor" : nil,
                    identity: FindingIdentity(
                        elementSignature: StableHasher.hex(of: "page-element", String(issue.element)),
                        component: ComponentPlacement(candidate: candidate, elementSignature: StableHasher.hex(of: "component-element", String(issue.element)))
                    )
                ))
            }
            for issue in templateIssues.sorted() where issue.place == page.template {
                findings.append(finding(
                    issue, owner: nil,
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "template-element", String(issue.element)), component: nil)
                ))
            }
            for issue in pageIssues[pageIndex, default: []].sorted() {
                findings.append(finding(
                    issue, owner: nil,
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: page.url, String(issue.element)), component: nil)
                ))
            }
            var passes: [String: Int] = [:]
            for (index, rule) in Site.ruleIDs.enumerated() { passes[rule] = 3 + (index + pageIndex) % 7 }
            return PageRecord(
                url: page.url, statusCode: 200, contentType: "text/html; charset=utf-8", bytes: 48_000 + pageIndex % 9_000,
                depth: 1 + pageIndex % 4, title: "Page \(pageIndex) – Shop", fetchMilliseconds: 120, auditMilliseconds: 6,
                findings: findings, passCounts: passes, components: components
            )
        }

        private func finding(_ issue: Issue, owner: String?, identity: FindingIdentity) -> FindingRecord {
            let ruleID = Site.ruleIDs[issue.rule]
            let finding = Finding(
                ruleID: ruleID, impact: Impact.allCases[issue.rule % Impact.allCases.count],
                outcome: issue.rule % 9 == 8 ? .incomplete : .violation,
                target: ".el-\(issue.element)", snippet: "<div class=\"el-\(issue.element)\" data-rule=\"\(ruleID)\">…</div>",
                message: "Element \(issue.element) fails \(ruleID)"
            )
            return FindingRecord(finding, owner: owner, identity: identity)
        }
    }
}
