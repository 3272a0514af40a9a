import CanopyCrawl
import CanopyHistory
import CanopyRules
import Foundation
import Synchronization
import Testing
@testable import CanopyStore
import CanopyHistoryTestSupport

struct RunStoreTests {
    @Test func aRunIsRecordedAndReadBack() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("nested/folder/canopy.sqlite")
        let start = RunStart.test()
        let footer = ComponentPlacement(candidate: ComponentCandidate(key: "footer", structureHash: "f00"), elementSignature: "inside")
        let page = PageRecord(
            url: "https://shop.example/a", finalURL: "https://shop.example/a/", statusCode: 200,
            redirectChain: ["https://shop.example/a"], contentType: "text/html", bytes: 1234, depth: 2, title: "A 'quoted' title",
            fetchMilliseconds: 12.5, auditMilliseconds: 3.25,
            findings: [
                madeUpFinding("image-alt", signature: "s1"),
                madeUpFinding("link-name", signature: "s2", component: footer, owner: "Vendor", outcome: .incomplete),
            ],
            passCounts: ["image-alt": 3, "link-name": 0], components: [footer.candidate]
        )
        let failed = PageRecord(url: "https://shop.example/b", statusCode: 503, error: "HTTP 503")
        let run: RunID
        do {
            let store = try RunStore(path: path)
            run = try store.begin(start)
            try store.record([page, failed], run: run)
            try store.finish(run, coverage: RunCoverage(planned: 3, crawled: 2, failed: 1, skippedByScope: 4, skippedByRobots: 5),
                             endedAt: start.startedAt.addingTimeInterval(60))
        }

        let reopened = try RunStore(path: path, readOnly: true)
        let stored = try #require(try reopened.run(run))
        #expect(stored.status == .complete)
        #expect(stored.startedAt == start.startedAt)
        #expect(stored.endedAt == start.startedAt.addingTimeInterval(60))
        #expect(stored.ruleIDs == start.ruleIDs)
        #expect(stored.ruleSetHash == start.ruleSetHash)
        #expect(stored.startURLs == start.startURLs)
        var coverage = RunCoverage(planned: 3, crawled: 2, failed: 1, skippedByScope: 4, skippedByRobots: 5)
        // Counted by the store from the pages: the failed page by the kind of its error.
        coverage.errors = ["HTTP 503": 1]
        #expect(stored.coverage == coverage)

        let pages = try reopened.pages(run: run)
        #expect(pages.map(\.url) == ["https://shop.example/a", "https://shop.example/b"])
        #expect(pages[0].redirectChain == ["https://shop.example/a"])
        #expect(pages[0].title == "A 'quoted' title")
        #expect(pages[0].fetchMilliseconds == 12.5)
        #expect(pages[0].pageType == "/a")
        #expect(pages[1].error == "HTTP 503")
        #expect(pages[1].statusCode == 503)

        let findings = try reopened.findings(run: run, pageURL: "https://shop.example/a")
        #expect(findings.map(\.ruleID) == ["image-alt", "link-name"])
        #expect(findings[1].outcome == .incomplete)
        #expect(findings[1].owner == "Vendor")
        #expect(findings[1].componentKey == "footer")
        #expect(findings.allSatisfy { $0.issueKey?.count == 16 })
        #expect(try reopened.passCounts(run: run, pageURL: "https://shop.example/a") == ["image-alt": 3])
    }

    @Test func recordedURLsLetACrawlResumeAndReRecordingReplacesAPage() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("resume.sqlite"))
        let run = try store.begin(.test())
        try store.record([PageRecord(url: "https://shop.example/1", findings: [madeUpFinding("image-alt", signature: "a")])], run: run)
        try store.markInterrupted(run)
        #expect(throws: StoreError.runNotRunning(run, .interrupted)) { try store.record([PageRecord(url: "https://shop.example/2")], run: run) }

        try store.resume(run)
        #expect(try store.recordedURLs(run: run) == ["https://shop.example/1"])
        try store.record([
            PageRecord(url: "https://shop.example/1", findings: [madeUpFinding("link-name", signature: "b")]),
            PageRecord(url: "https://shop.example/2"),
        ], run: run)
        #expect(try store.recordedURLs(run: run) == ["https://shop.example/1", "https://shop.example/2"])
        #expect(try store.findings(run: run).map(\.ruleID) == ["link-name"])
    }

    @Test func recordedPagesCarryWhatAResumedCrawlNeedsUntilTheRunIsComplete() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("links.sqlite"))
        let run = try store.begin(.test())
        try store.record([
            PageRecord(
                url: "https://shop.example/", statusCode: 200, bytes: 10, auditMilliseconds: 1,
                findings: [
                    madeUpFinding("image-alt", signature: "a"), madeUpFinding("image-alt", signature: "b"),
                    madeUpFinding("link-name", signature: "c", outcome: .incomplete),
                ],
                discoveredLinks: ["https://shop.example/old", "https://shop.example/gone"]
            ),
            PageRecord(url: "https://shop.example/old", finalURL: "https://shop.example/new", statusCode: 200,
                       redirectChain: ["https://shop.example/new"], bytes: 5, depth: 1, auditMilliseconds: 1),
            PageRecord(url: "https://shop.example/gone", statusCode: 404, depth: 1, error: "HTTP 404"),
        ], run: run)
        try store.markInterrupted(run)
        #expect(try store.recordedPages(run: run) == [
            RecordedPage(
                FinishedPage(
                    url: "https://shop.example/", statusCode: 200, bytes: 10, processed: true,
                    discoveredLinks: ["https://shop.example/old", "https://shop.example/gone"]
                ),
                violations: 2, incomplete: 1
            ),
            RecordedPage(FinishedPage(url: "https://shop.example/old", depth: 1, statusCode: 200, redirectChain: ["https://shop.example/new"], bytes: 5, processed: true)),
            RecordedPage(FinishedPage(url: "https://shop.example/gone", depth: 1, statusCode: 404, error: "HTTP 404")),
        ])

        // Recording a page again replaces its links with the new ones.
        try store.resume(run)
        try store.record([PageRecord(url: "https://shop.example/", discoveredLinks: ["https://shop.example/other"])], run: run)
        #expect(try store.recordedPages(run: run).first { $0.url == "https://shop.example/" }?.discoveredLinks == ["https://shop.example/other"])

        try store.finish(run, coverage: RunCoverage(planned: 3, crawled: 2, failed: 1))
        #expect(try store.withDatabase { try $0.queryFirst("SELECT COUNT(*) FROM page_links") { $0.int(0) } } == 0)
        #expect(try store.recordedPages(run: run).count == 3)
    }

    @Test func onlyAnInterruptedRunCanBeResumed() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("resume-status.sqlite"))
        let running = try store.begin(.test())
        #expect(throws: StoreError.runNotInterrupted(running, .running)) { try store.resume(running) }
        let complete = try store.recordCompleteRun([PageRecord(url: "https://shop.example/")])
        #expect(throws: StoreError.runNotInterrupted(complete, .complete)) { try store.resume(complete) }
        #expect(throws: StoreError.unknownRun(RunID(99))) { try store.resume(RunID(99)) }
    }

    @Test func aFailingBatchLeavesNothingBehind() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("batch.sqlite"))
        let run = try store.begin(.test())
        try store.record([PageRecord(url: "https://shop.example/kept")], run: run)
        // A finding whose outcome the schema rejects makes the whole batch fail.
        try store.withDatabase { try $0.execute("CREATE TRIGGER refuse BEFORE INSERT ON finding_details WHEN NEW.rule_id = 'boom' BEGIN SELECT RAISE(ABORT, 'refused'); END") }
        #expect(throws: SQLiteError.self) {
            try store.record([
                PageRecord(url: "https://shop.example/new"),
                PageRecord(url: "https://shop.example/bad", findings: [madeUpFinding("boom", signature: "x")]),
            ], run: run)
        }
        #expect(try store.recordedURLs(run: run) == ["https://shop.example/kept"])
    }

    @Test func interruptedAndRunningRunsAreNotInTheTrend() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("interrupted.sqlite"))
        let page = PageRecord(url: "https://shop.example/", findings: [madeUpFinding("image-alt", signature: "a")])
        let first = try store.recordCompleteRun([page])

        let interrupted = try store.begin(.test())
        try store.record([PageRecord(url: "https://shop.example/", findings: [madeUpFinding("link-name", signature: "new")])], run: interrupted)
        try store.markInterrupted(interrupted)
        let stillRunning = try store.begin(.test())
        try store.record([PageRecord(url: "https://shop.example/")], run: stillRunning)

        let third = try store.recordCompleteRun([page])
        let trend = try store.trendReport()
        #expect(trend.runs.map(\.runId) == [first, third])
        let comparison = try #require(trend.runs.last?.comparison)
        #expect(comparison.previousRunId == first)
        #expect((comparison.newIssues, comparison.fixedIssues, comparison.persistingIssues) == (0, 0, 1))
        #expect(try store.run(interrupted)?.status == .interrupted)
        #expect(try store.run(stillRunning)?.status == .running)
    }

    @Test func runsOfDeadProcessesAreMarkedInterrupted() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("abandoned.sqlite"))
        // A process id above the kernel's maximum (4,194,304 on Linux) never exists.
        let abandoned = try store.begin(.test(), processID: 2_000_000_000)
        let live = try store.begin(.test())
        #expect(try store.interruptAbandonedRuns() == [abandoned])
        #expect(try store.run(abandoned)?.status == .interrupted)
        #expect(try store.run(live)?.status == .running)
    }

    @Test func aReadOnlyStoreRefusesAFileThatNeedsMigrating() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("old.sqlite")
        do {
            let database = try SQLiteDatabase(path: path)
            try Schema.migrate(database, analyzer: RunAnalysis(), to: 1)
        }
        #expect(throws: StoreError.needsMigration(found: 1, required: RunStore.schemaVersion)) { try RunStore(path: path, readOnly: true) }
    }

    @Test func aFileFromANewerCanopyIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("newer.sqlite")
        do {
            let store = try RunStore(path: path)
            try store.withDatabase { try $0.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [99, 0]) }
        }
        #expect(throws: StoreError.newerSchema(found: 99, supported: RunStore.schemaVersion)) { try RunStore(path: path) }
    }

    @Test func aVersionOneFileIsMigratedAndItsCompleteRunsAnalysed() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("v1.sqlite")
        // What Canopy with schema version 1 wrote: a complete run, with no page types or issue keys.
        do {
            let database = try SQLiteDatabase(path: path)
            try Schema.migrate(database, analyzer: RunAnalysis(), to: 1)
            try database.run(
                """
                INSERT INTO runs (id, started_at, ended_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version, start_urls, pages_crawled)
                VALUES (1, 1700000000, 1700000060, 'complete', 'c', 'default', ?, 'h', '0.0.9', 'https://shop.example/', 6)
                """,
                [.text("image-alt\nlink-name")]
            )
            for product in 1...6 {
                try database.run("INSERT INTO pages (id, run_id, url, status_code) VALUES (?, 1, ?, 200)", [.integer(Int64(product)), .text("https://shop.example/product/\(product)")])
                try database.run("INSERT INTO page_components (page_id, component_key, structure_hash) VALUES (?, 'footer', 'f')", [.integer(Int64(product))])
                try database.run(
                    """
                    INSERT INTO findings (run_id, page_id, rule_id, impact, outcome, target, snippet, message, element_signature,
                                          component_key, component_hash, component_signature)
                    VALUES (1, ?, 'image-alt', 'critical', 'violation', 'img', '<img>', 'no alt', 'template-img', NULL, NULL, NULL),
                           (1, ?, 'link-name', 'serious', 'violation', 'footer a', '<a>', 'no name', ?, 'footer', 'f', 'footer-link')
                    """,
                    [.integer(Int64(product)), .integer(Int64(product)), .text("page-signature-\(product)")]
                )
            }
            try database.run("INSERT INTO runs (id, started_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version, start_urls) VALUES (2, 1700600000, 'running', 'c', 'default', '', 'h', '0.0.9', '')")
        }

        let store = try RunStore(path: path)
        #expect(try store.schemaVersion() == RunStore.schemaVersion)
        #expect(try store.pages(run: RunID(1)).allSatisfy { $0.pageType == "/product/*" })
        let trend = try store.trendReport()
        #expect(trend.runs.map(\.runId) == [RunID(1)])
        #expect(trend.runs[0].violations == IssueTotals(issues: 2, instances: 12, findings: 12))
        #expect(trend.runs[0].byComponent == [GroupTotals(name: "footer", issues: 1, instances: 6)])
        #expect(trend.runs[0].byPageType == [GroupTotals(name: "/product/*", issues: 1, instances: 6)])
        // The running run left by the old version is still there, and can still be finished.
        try store.record([PageRecord(url: "https://shop.example/")], run: RunID(2))
        try store.finish(RunID(2), coverage: RunCoverage(planned: 1, crawled: 1, failed: 0))
        #expect(try store.trendReport().runs.count == 2)
    }

    @Test func aReaderWorksWhileACrawlWrites() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("concurrent.sqlite")
        let writer = try RunStore(path: path)
        try writer.recordCompleteRun([PageRecord(url: "https://shop.example/", findings: [madeUpFinding("image-alt", signature: "a")])])
        let run = try writer.begin(.test())
        let reader = try RunStore(path: path, readOnly: true)

        // Real threads, as in a crawl (the store writes from the audit workers): Swift's
        // cooperative pool, shared with every other test running in parallel, would not
        // guarantee that the writer runs while the reader polls.
        let batches = 40, pagesPerBatch = 50
        let failures = Mutex<[String]>([])
        let observedCounts = Mutex<[Int]>([])
        let finished = DispatchGroup()
        finished.enter()
        Thread {
            defer { finished.leave() }
            do {
                for batch in 0..<batches {
                    let pages = (0..<pagesPerBatch).map { index in
                        PageRecord(url: "https://shop.example/p/\(batch)-\(index)", findings: [madeUpFinding("image-alt", signature: "s\(index)")])
                    }
                    try writer.record(pages, run: run)
                    // Paced like a crawl, so that reads fall between and during batches.
                    Thread.sleep(forTimeInterval: 0.005)
                }
            } catch {
                failures.withLock { $0.append("writer: \(error)") }
            }
        }.start()
        finished.enter()
        Thread {
            defer { finished.leave() }
            let deadline = Date().addingTimeInterval(60)
            var counts: [Int] = []
            do {
                while counts.last != batches * pagesPerBatch && Date() < deadline {
                    counts.append(try reader.recordedURLs(run: run).count)
                    // The trend keeps reading the complete run while the crawl's run grows.
                    let completeRuns = try reader.trendReport(options: TrendOptions(includePages: false)).runs.count
                    if completeRuns != 1 { failures.withLock { $0.append("trend saw \(completeRuns) complete runs") } }
                }
            } catch {
                failures.withLock { $0.append("reader: \(error)") }
            }
            observedCounts.withLock { $0 = counts }
        }.start()
        finished.wait()
        let observed = observedCounts.withLock { $0 }

        #expect(failures.withLock { $0 } == [])
        // Reads overlapped the writes, each saw whole batches only, never fewer pages than before.
        #expect(Set(observed).count >= 3)
        #expect(observed.allSatisfy { $0 % pagesPerBatch == 0 })
        #expect(observed == observed.sorted())
        #expect(observed.last == batches * pagesPerBatch)
    }

    /// Reports read every page of a run in recording order; a sort there holds the whole run in
    /// SQLite's memory (schema version 10 indexes pages by run). The same holds for the finding
    /// text a new finding is looked up by.
    @Test func aRunsPagesAndNewFindingTextAreReadWithoutSorting() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        let plans = try store.withDatabase { database in
            try [
                "EXPLAIN QUERY PLAN SELECT id FROM pages WHERE run_id = 1 ORDER BY id",
                "EXPLAIN QUERY PLAN SELECT id FROM finding_details WHERE digest = 7",
            ].map { (query: SQL) in try database.query(query) { $0.string(3) }.joined(separator: "; ") }
        }
        #expect(plans[0].contains("INDEX pages_by_run") && !plans[0].contains("TEMP B-TREE"), "\(plans[0])")
        #expect(plans[1].contains("INDEX finding_details_by_digest"), "\(plans[1])")
    }
}
