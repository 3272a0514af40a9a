@testable import CanopyHistory
import Foundation
import Testing
@testable import CanopyStore
import CanopyHistoryTestSupport

/// What changes between runs: instances new, fixed and persisting, the age of an issue that came
/// back, and components whose shape differs from page to page.
struct HistoryChangeTests {
    private static func page(_ path: String, _ findings: [FindingRecord], components: [ComponentCandidate] = []) -> PageRecord {
        PageRecord(url: "https://shop.example" + path, findings: findings, components: components)
    }

    @Test func instancesAreComparedPageByPage() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("instances.sqlite"))
        // Week 1: issue a on /p1 and /p2, issue b on /p1 (page issues: their signatures are
        // the same on every page of the type, as a template's element's are).
        try store.recordCompleteRun([
            Self.page("/p/1", [madeUpFinding("image-alt", signature: "a"), madeUpFinding("label", signature: "b")]),
            Self.page("/p/2", [madeUpFinding("image-alt", signature: "a")]),
            Self.page("/p/3", [madeUpFinding("region", signature: "r", outcome: .incomplete)]),
        ])
        // Week 2: a leaves /p/1 and reaches /p/3; b stays; c is new on /p/3; needs-review findings never count.
        try store.recordCompleteRun([
            Self.page("/p/1", [madeUpFinding("label", signature: "b")]),
            Self.page("/p/2", [madeUpFinding("image-alt", signature: "a")]),
            Self.page("/p/3", [madeUpFinding("image-alt", signature: "a"), madeUpFinding("button-name", signature: "c")]),
        ])
        let comparison = try #require(try store.trendReport().runs.last?.comparison)
        #expect([Int]([comparison.newIssues, comparison.fixedIssues, comparison.persistingIssues]) == [1, 0, 2])
        #expect([Int]([comparison.newInstances, comparison.fixedInstances, comparison.persistingInstances]) == [2, 1, 2])
    }

    @Test("instances are matched by the page's URL, whatever order each run recorded its pages in")
    func instancesAreMatchedByURLNotByRecordingOrder() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("order-of-pages.sqlite"))
        try store.recordCompleteRun(["/p/1", "/p/2", "/p/3"].map { Self.page($0, [madeUpFinding("image-alt", signature: "a")]) })
        // /p/1 is gone (its instance fixed), /p/4 is new (a new instance), /p/2 and /p/3 persist,
        // recorded in another order and at other places in the run.
        try store.recordCompleteRun(["/p/4", "/p/3", "/p/2"].map { Self.page($0, [madeUpFinding("image-alt", signature: "a")]) })
        let comparison = try #require(try store.trendReport().runs.last?.comparison)
        #expect([Int]([comparison.newIssues, comparison.fixedIssues, comparison.persistingIssues]) == [0, 0, 1])
        #expect([Int]([comparison.newInstances, comparison.fixedInstances, comparison.persistingInstances]) == [1, 1, 2])
    }

    @Test func aRunCompletedAfterALaterOneIsComparedWithTheRunBeforeItInTheTrend() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("order.sqlite"))
        let one = [Self.page("/", [madeUpFinding("image-alt", signature: "a")])]
        let two = [Self.page("/", [madeUpFinding("image-alt", signature: "a"), madeUpFinding("label", signature: "b")])]
        let three = [Self.page("/", [madeUpFinding("label", signature: "b")]), Self.page("/x", [madeUpFinding("label", signature: "b")])]
        let first = try store.recordCompleteRun(one)
        // Run 2 is interrupted, run 3 completes, then run 2 is resumed and completed: the
        // analysis of run 3 compared it with run 1, but the trend compares it with run 2.
        let second = try store.begin(.test())
        try store.record(two, run: second)
        try store.markInterrupted(second)
        let third = try store.recordCompleteRun(three)
        try store.resume(second)
        try store.finish(second, coverage: RunCoverage(planned: 1, crawled: 1, failed: 0))

        let trend = try store.trendReport()
        #expect(trend.runs.map(\.runId) == [first, second, third])
        let latest = try #require(trend.runs.last?.comparison)
        #expect(latest.previousRunId == second)
        #expect([Int]([latest.newIssues, latest.fixedIssues, latest.persistingIssues]) == [1, 1, 1])
        #expect([Int]([latest.newInstances, latest.fixedInstances, latest.persistingInstances]) == [1, 1, 1])
    }

    @Test func anIssueThatComesBackIsNewAgainAndKeepsItsFirstSighting() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("ages.sqlite"))
        let days = (0..<5).map { Date(timeIntervalSince1970: 1_704_441_600 + Double($0) * 7 * 86_400) }
        let withIssue = [Self.page("/", [madeUpFinding("image-alt", signature: "a"), madeUpFinding("label", signature: "old")])]
        let withoutIssue = [Self.page("/", [madeUpFinding("label", signature: "old")])]
        let first = try store.recordCompleteRun(withIssue, start: .test(at: days[0]))
        try store.recordCompleteRun(withoutIssue, start: .test(at: days[1]))
        let back = try store.recordCompleteRun(withIssue, start: .test(at: days[2]))

        var issues = try #require(try store.trendReport().latest?.openIssues)
        var returned = try #require(issues.first { $0.ruleId == "image-alt" })
        #expect(returned.isNew)
        #expect(returned.firstSeenRunId == back && returned.firstSeenAt == days[2])
        #expect(returned.firstSeenEverRunId == first && returned.firstSeenEverAt == days[0])
        // An issue that never left is as old as its first sighting, either way.
        let steady = try #require(issues.first { $0.ruleId == "label" })
        #expect(steady.firstSeenRunId == first && steady.firstSeenEverRunId == first && !steady.isNew)

        // An interrupted run without the issue does not break its streak: only complete runs count.
        let interrupted = try store.begin(.test(at: days[3]))
        try store.record(withoutIssue, run: interrupted)
        try store.markInterrupted(interrupted)
        try store.recordCompleteRun(withIssue, start: .test(at: days[4]))
        issues = try #require(try store.trendReport().latest?.openIssues)
        returned = try #require(issues.first { $0.ruleId == "image-alt" })
        #expect(!returned.isNew)
        #expect(returned.firstSeenRunId == back && returned.firstSeenEverRunId == first)
    }

    @Test func aComponentWhoseShapeDiffersOnSomePagesIsStillOneComponent() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("shapes.sqlite"))
        // The header on 2 of 6 pages carries a ribbon (another structure hash); its search field
        // is the same element inside it on every page.
        let plain = ComponentCandidate(key: "header", structureHash: "plain")
        let ribboned = ComponentCandidate(key: "header", structureHash: "ribbon")
        let pages = (1...6).map { index in
            let header = index <= 2 ? ribboned : plain
            let inHeader = ComponentPlacement(candidate: header, elementSignature: "search-field")
            return Self.page("/p/\(index)", [madeUpFinding("label", signature: "page-\(index)", component: inHeader)], components: [header])
        }
        let run = try store.recordCompleteRun(pages)
        let trend = try store.trendReport()
        let issues = try #require(trend.latest?.openIssues)
        #expect(issues.count == 1)
        #expect(issues.first?.component == "header" && issues.first?.pageCount == 6)
        #expect(trend.latest?.components == [GroupCount(name: "header", pages: 6)])
        #expect(try store.siteWideComponents(run: run).map { [$0.candidate.structureHash: $0.pageCount] } == [["plain": 4], ["ribbon": 2]])
    }

    @Test func aVersionTwoFileGetsItsInstanceComparisonsWhenMigrated() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("v2.sqlite")
        // What schema version 2 left: two analysed runs, the second with the issue on one more page.
        do {
            let database = try SQLiteDatabase(path: path)
            try Schema.migrate(database, analyzer: RunAnalysis(), to: 2)
            for (run, urls) in [(1, ["/"]), (2, ["/", "/b"])] {
                try database.run(
                    """
                    INSERT INTO runs (id, started_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version, start_urls)
                    VALUES (?, ?, 'complete', 'c', 'default', 'image-alt', 'h', '0.1.0', '')
                    """,
                    [.integer(Int64(run)), .real(1_700_000_000 + Double(run) * 604_800)]
                )
                for url in urls {
                    try database.run("INSERT INTO pages (run_id, url, status_code) VALUES (?, ?, 200)", [.integer(Int64(run)), .text(url)])
                    try database.run(
                        """
                        INSERT INTO findings (run_id, page_id, rule_id, impact, outcome, target, snippet, message, element_signature, issue_key)
                        VALUES (?, ?, 'image-alt', 'serious', 'violation', 'img', '<img>', 'no alt', 'a', 'k')
                        """,
                        [.integer(Int64(run)), .integer(database.lastInsertRowID)]
                    )
                }
            }
            #expect(try Schema.version(of: database) == 2)
        }
        let store = try RunStore(path: path)
        #expect(try store.schemaVersion() == RunStore.schemaVersion)
        let stored = try store.withDatabase { try InstanceChanges.stored(RunID(2), against: RunID(1), in: $0) }
        #expect(stored == InstanceChanges(new: 1, fixed: 0, persisting: 1))
    }
}
