import CanopyHistory
import CanopyKit
import CanopyStore
import CanopyTestSupport
import Foundation
import Glibc
import Testing

/// SIGINT and SIGTERM sent to the real `canopy crawl` mid-run: a graceful stop.
struct GracefulStopTests {
    @Test("SIGINT and SIGTERM stop the crawl: exit 128+signal, the run interrupted with its finished pages, results written, reports on complete runs only",
          arguments: [SIGINT, SIGTERM])
    func signalStopsGracefully(signal: Int32) throws {
        let site = GeneratedSite(pageCount: 300)
        let tripwire = Tripwire()
        let server = try TestHTTPServer.serving(site, tripwire: tripwire)
        defer { server.stop() }
        let folder = try ReportTestFolder("signal")
        let storePath = folder.file("canopy.sqlite")
        let crawl = ["crawl", server.url(site.startPath), "--store", storePath, "--reports", folder.path, "--concurrency", "4"]

        let first = try CanopyProcess.run(crawl)
        try #require(first.status == 1, "\(first.description)")
        let completeRun = try #require(try RunStore(path: storePath, readOnly: true).runs().last?.id)

        let requestsBefore = tripwire.pageRequests
        let child = try CanopyProcess(crawl)
        let pid = child.pid
        tripwire.arm(after: 60) { kill(pid, signal) }
        let ending = try child.wait()
        let requestsMade = tripwire.pageRequests - requestsBefore

        #expect(!ending.killedBySignal && ending.status == 128 + signal, "\(ending.description)")
        // Promptly: the crawl stopped where it was told to, far from the end of the site.
        #expect(requestsMade < site.recordedPaths.count / 2, "\(requestsMade) page requests")
        let store = try RunStore(path: storePath, readOnly: true)
        let run = try #require(try store.runs().last)
        #expect(run.id != completeRun)
        #expect(run.status == .interrupted, "marked by the process itself, not only by the next crawl")
        #expect(ending.stderr.contains("stopped: "), "\(ending.stderr)")
        #expect(ending.stderr.contains("run \(run.id) is marked interrupted and left out of trends"))

        let recorded = try store.recordedPages(run: run.id)
        let audited = recorded.filter(\.processed)
        #expect(!audited.isEmpty, "the pages finished before the stop are recorded")
        #expect(recorded.filter { $0.error != nil && $0.statusCode == nil }.map(\.url) == [], "transfers the stop abandoned are not recorded as failures")
        let lines = try resultKeys(folder.file("results.jsonl"))
        #expect(lines.all.count == recorded.count)
        #expect(Set(lines.all) == Set(recorded.map(\.url)), "results.jsonl and the store agree")
        #expect(Set(lines.audited) == Set(audited.map(\.page.url)))
        let summaryFile = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("run-summary.json")))) as? [String: Any]
        #expect(summaryFile?["run"] as? Int == Int(run.id.rawValue))
        #expect((summaryFile?["summary"] as? [String: Any])?["pagesAudited"] as? Int == audited.count)

        let trend = try TrendReport.decode(Data(contentsOf: URL(fileURLWithPath: folder.file("trend.json"))))
        #expect(trend.runs.map(\.runId) == [completeRun], "the reports show complete runs only")
        #expect(try store.trendReport().runs.map(\.runId) == [completeRun])

        // And the stopped run can be finished.
        let resumed = try CanopyProcess.run(crawl + ["--resume", "\(run.id)"])
        #expect(resumed.status == 1, "\(resumed.description)")
        #expect(try store.run(run.id)?.status == .complete)
        #expect(try store.pages(run: run.id).count == site.recordedPaths.count)
    }

    @Test("--resume with nothing to resume, or with other start URLs, exits 2 naming the run")
    func resumeRefusalsExitWithUsageStatus() throws {
        let site = GeneratedSite(pageCount: 20)
        let server = try TestHTTPServer.serving(site, tripwire: Tripwire())
        defer { server.stop() }
        let folder = try ReportTestFolder("refuse")
        let storePath = folder.file("canopy.sqlite")
        let crawl = ["crawl", server.url(site.startPath), "--store", storePath, "--reports", folder.path]

        let nothing = try CanopyProcess.run(crawl + ["--resume"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr == "error: nothing to resume: the store \(storePath) has no interrupted run\n")

        let store = try RunStore(path: storePath)
        let run = try store.begin(RunStart(configHash: "x", ruleSetName: "default", ruleIDs: [], ruleSetHash: "x", canopyVersion: "x", startURLs: ["x"]))
        try store.markInterrupted(run)
        let other = try CanopyProcess.run(["crawl", "--resume", "\(run)", server.url("/p/1"), "--store", storePath, "--reports", folder.path])
        #expect(other.status == 2)
        #expect(other.stderr.contains("error: cannot resume run \(run): it started from x"), "\(other.stderr)")
        // `--resume URL`: the URL is a start URL, not the flag's value.
        let urlAfterFlag = try CanopyProcess.run(["crawl", "--resume", server.url("/p/1"), "--store", storePath, "--reports", folder.path])
        #expect(urlAfterFlag.status == 2)
        #expect(urlAfterFlag.stderr.contains("this crawl from \(server.url("/p/1"))"), "\(urlAfterFlag.stderr)")
        let badValue = try CanopyProcess.run(crawl + ["--resume", "soon"])
        #expect(badValue.status == 2)
        #expect(badValue.stderr.contains("--resume takes a run number or nothing (the latest interrupted run), not \"soon\""), "\(badValue.stderr)")
    }
}
