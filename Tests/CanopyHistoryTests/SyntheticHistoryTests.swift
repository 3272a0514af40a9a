@testable import CanopyHistory
import CanopyStore
import CanopyHistoryTestSupport
import CanopySyntheticHistory
import Foundation
import Testing

/// The generator behind `canopy-report-bench` (which measures reports on a year of a 3,000-page
/// site; tests never time anything): its history must look like a crawled one.
struct SyntheticHistoryTests {
    @Test func aSyntheticHistoryHasTheShapeOfARealOne() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("synthetic.sqlite"))
        let runs = try SyntheticHistory.populate(store: store, runs: 4, pages: 200)
        let trend = try store.trendReport()
        #expect(trend.runs.map(\.runId) == runs)
        #expect(trend.runs.allSatisfy { $0.coverage.crawled == 200 })
        let latest = try #require(trend.latest)
        #expect(latest.pages.count == 200)
        #expect(Set(latest.components.map(\.name)) == ["header", "nav[aria-label=\"main\"]", "footer", "div#chat-widget"])
        #expect(latest.pageTypes.map(\.name).contains("/product/*"))
        #expect(trend.runs.last?.byOwner.contains { $0.owner == "ChatVendor" } == true)
        // Weekly churn: some page issues fixed and some new every week.
        #expect(trend.runs.dropFirst().allSatisfy { ($0.comparison?.newIssues ?? 0) > 0 && ($0.comparison?.fixedIssues ?? 0) > 0 })
        // The same seed gives the same history.
        let again = try RunStore(path: folder.path("again.sqlite"))
        try SyntheticHistory.populate(store: again, runs: 4, pages: 200)
        let repeated = try again.trendReport(generatedAt: trend.generatedAt)
        #expect(repeated.runs.map(\.violations) == trend.runs.map(\.violations))
    }
}
