import CanopyHistory
import Foundation
import Testing
@testable import CanopyStore
import CanopyHistoryTestSupport

/// Schema version 9: a run's coverage by reason, kept in the store, and worked out for the runs a
/// version 8 store already holds.
struct CoverageMigrationTests {
    @Test func aVersionEightStoreGetsTheCoverageOfItsRuns() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("v8.sqlite")
        // What Canopy with schema version 8 wrote: an audited page, a PDF, a redirect, a 404 and a timeout.
        do {
            let database = try SQLiteDatabase(path: path)
            try Schema.migrate(database, analyzer: RunAnalysis(), to: 8)
            try database.run(
                """
                INSERT INTO runs (id, started_at, ended_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version,
                                  start_urls, pages_planned, pages_crawled, pages_failed)
                VALUES (1, 1700000000, 1700000060, 'complete', 'c', 'default', 'document-title', 'h', '0.1.0', 'https://shop.example/', 5, 1, 2)
                """
            )
            try database.run("INSERT INTO pass_counts (id, counts) VALUES (1, 'x')")
            let pages: [(String, Int?, String, String?, Double?, Int64?)] = [
                ("https://shop.example/", 200, "", nil, 3.5, 1),
                ("https://shop.example/terms.pdf", 200, "", nil, nil, nil),
                ("https://shop.example/old", 301, "https://shop.example/", nil, nil, nil),
                ("https://shop.example/gone", 404, "", "HTTP 404", nil, nil),
                ("https://shop.example/slow", nil, "", "the request timed out", nil, nil),
            ]
            for (url, status, chain, error, auditMilliseconds, passCounts) in pages {
                try database.run(
                    "INSERT INTO pages (run_id, url, status_code, redirect_chain, error, audit_ms, pass_counts_id) VALUES (1, ?, ?, ?, ?, ?, ?)",
                    [.text(url), SQLiteValue(status), .text(chain), SQLiteValue(error), SQLiteValue(auditMilliseconds), passCounts.map { .integer($0) } ?? .null]
                )
            }
        }

        let store = try RunStore(path: path)
        #expect(try store.schemaVersion() == RunStore.schemaVersion)
        let run = try #require(try store.run(RunID(1)))
        #expect(run.coverage.crawled == 1)
        #expect(run.coverage.notAudited == ["not HTML": 1, "redirect": 1])
        #expect(run.coverage.errors == ["HTTP 404": 1, "timeout": 1])
        #expect(run.coverage.framesAudited == 0 && run.coverage.framesSkipped == 0)
        // Runs of older versions did not keep their stylesheets.
        #expect(run.coverage.stylesheets == nil)
        let reasons = try store.pages(run: RunID(1)).map { $0.notAudited?.reason }
        #expect(reasons == [nil, "not HTML", "redirect", nil, nil])
        // The trend reads the same coverage.
        #expect(try store.trendReport().runs.first?.coverage == run.coverage)
    }

    @Test func aFinishedRunCountsItsPagesByReasonAndItsFrames() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("store.sqlite"))
        let run = try store.begin(RunStart(configHash: "c", ruleSetName: "default", ruleIDs: [], ruleSetHash: "h", canopyVersion: "t", startURLs: []))
        var shell = PageRecord(url: "https://shop.example/app", statusCode: 200, auditMilliseconds: 1)
        shell.notAudited = NotAudited(reason: NotAudited.clientRendered, details: ["empty application root <div id=\"root\">"])
        var framed = PageRecord(url: "https://shop.example/checkout", statusCode: 200, auditMilliseconds: 1, passCounts: ["document-title": 1])
        (framed.framesAudited, framed.framesSkipped) = (2, 1)
        let lost = PageRecord(url: "https://shop.example/account", statusCode: 200, error: "sign-in lost: the session expired twice")
        try store.record([shell, framed, lost], run: run)
        var coverage = RunCoverage(planned: 3, crawled: 1, failed: 1)
        coverage.stylesheets = StyleSheetCoverage(loaded: 4, failed: 1, missing: 2)
        try store.finish(run, coverage: coverage)

        let stored = try #require(try store.run(run)).coverage
        #expect(stored.notAudited == [NotAudited.clientRendered: 1])
        #expect(stored.errors == ["sign-in lost": 1])
        #expect(stored.framesAudited == 2 && stored.framesSkipped == 1)
        #expect(stored.stylesheets == StyleSheetCoverage(loaded: 4, failed: 1, missing: 2))
        #expect(stored.pagesNotAudited == 2)
        let page = try #require(try store.pages(run: run).first)
        #expect(page.notAudited == shell.notAudited)
    }
}
