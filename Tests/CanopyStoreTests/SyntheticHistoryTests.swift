import Foundation
import Testing
@testable import CanopyStore

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

    /// The issue's scale: 52 weekly runs of a 3,000-page site. Minutes to populate, so only on
    /// request: `CANOPY_STORE_BENCHMARK=1 swift test --filter SyntheticHistoryTests`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CANOPY_STORE_BENCHMARK"] == "1"))
    func aYearOfWeeklyRunsReportsInUnderFiveSeconds() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("year.sqlite"))
        let clock = ContinuousClock()
        let populating = try clock.measure { try SyntheticHistory.populate(store: store, runs: 52, pages: 3_000) }
        var report: TrendReport?
        let reporting = try clock.measure { report = try store.trendReport() }
        let encoding = try clock.measure { _ = try report?.jsonData() }
        let size = (try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
        print("populate 52×3000: \(populating), trend: \(reporting), JSON: \(encoding), file \(size / 1_000_000) MB")
        #expect(report?.runs.count == 52)
        #expect(reporting + encoding < .seconds(5))
    }
}
