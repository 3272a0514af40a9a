// What `canopy report` costs on a store of realistic size: a year of weekly runs (52) of a
// 3,000-page shop, generated once with `SyntheticHistory` (no crawl), then the whole
// ReportWriter — trend query, index.html, trend.json, open-issues.csv, latest-results.jsonl,
// open-issues.sarif, the digest — timed end to end, best of a few rounds. Build with `-c release`:
//
//   swift run -c release canopy-report-bench [--store PATH] [--runs 52] [--pages 3000] [--rounds 3]
//
// The store is kept (default /tmp/canopy-report-bench/canopy.sqlite) and reused while it has the
// asked number of runs; delete it to generate it again.
import CanopyHistory
import CanopyReports
import CanopyStore
import CanopySyntheticHistory
import Foundation

func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    try seconds(ContinuousClock().measure(body))
}

let storePath = option("--store", "/tmp/canopy-report-bench/canopy.sqlite")
let runs = Int(option("--runs", "52")) ?? 52
let pages = Int(option("--pages", "3000")) ?? 3_000
let rounds = max(1, Int(option("--rounds", "3")) ?? 3)
let reports = (storePath as NSString).deletingLastPathComponent + "/Reports"

do {
    let existing = FileManager.default.fileExists(atPath: storePath) ? try RunStore(path: storePath).runs().count : 0
    if existing != runs {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
        print("generating \(runs) weekly runs of a \(pages)-page site into \(storePath) …")
        let store = try RunStore(path: storePath)
        let timings = SyntheticHistory.Timings()
        let generation = try seconds { try SyntheticHistory.populate(store: store, runs: runs, pages: pages, timings: timings) }
        print(String(
            format: "  generated in %.1f s: recording pages %.1f s, finishing runs %.1f s",
            generation, seconds(timings.recording), seconds(timings.finishing)
        ))
    }
    // Issue 16's budget: a year of weekly runs must stay small enough to carry between CI runs.
    let writable = try RunStore(path: storePath)
    try writable.withDatabase { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    let storeBytes = RunStore.bytesOnDisk(ofStoreAt: storePath)
    let exportPath = (storePath as NSString).deletingLastPathComponent + "/canopy-store.sqlite.gz"
    var exportBytes = 0
    let exportSeconds = try seconds { exportBytes = try StoreArchive.export(writable, to: exportPath).bytes }
    let storedRuns = max(1, try writable.runs().count)
    print(String(
        format: "store size: %.1f MB for %d runs of %d pages: %.2f MB a run, %.0f bytes a page a run; export %.1f MB in %.1f s",
        Double(storeBytes) / 1_048_576, storedRuns, pages, Double(storeBytes) / 1_048_576 / Double(storedRuns),
        Double(storeBytes) / Double(storedRuns * pages), Double(exportBytes) / 1_048_576, exportSeconds
    ))
    let store = try RunStore(path: storePath, readOnly: true)
    print("store: \(storePath), \(try store.runs().count) runs; reports: \(reports)")
    var best = Double.infinity
    var output: ReportWriter.Output?
    for round in 1...rounds {
        let trendOnly = try seconds { _ = try store.trendReport() }
        let total = try seconds { output = try ReportWriter(store: store).write(to: reports) }
        best = min(best, total)
        print(String(format: "round %d: report %.2f s (of which the trend query alone takes %.2f s)", round, total, trendOnly))
    }
    // Where the time goes, part by part (each measured alone, so they add up to about the total).
    let trend = try store.trendReport()
    let latestRun = try trend.latest.flatMap { try store.run($0.runId) }
    let parts: [(String, () throws -> Void)] = [
        ("trend query without pages and issues", { _ = try store.trendReport(options: TrendOptions(includePages: false, includeOpenIssues: false)) }),
        ("open issues, one at a time", { if let run = trend.latest?.runId { try store.forEachOpenIssue(run: run) { _ in } } }),
        ("index.html", { _ = TrendHTMLReport(report: trend, siteName: "shop.example").render() }),
        ("trend.json, in memory", { _ = try trend.jsonData() }),
        ("open-issues.csv", { _ = OpenIssuesCSV(report: trend).render() }),
        ("open-issues.sarif", { _ = try OpenIssuesSARIF(report: trend).render() }),
        ("latest-results.jsonl", { if let latestRun { _ = try LatestResultsJSONLines(store: store).render(run: latestRun) } }),
    ]
    for (name, work) in parts {
        print(String(format: "  %@: %.2f s", name, try seconds(work)))
    }
    for file in output?.files ?? [] {
        let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        print(String(format: "  %@: %.1f MB", (file as NSString).lastPathComponent, Double(size) / 1_048_576))
    }
    print(String(format: "best of %d: %.2f s for all the reports (goal: under 5 s)", rounds, best))
    if best >= 5 { exit(1) }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
