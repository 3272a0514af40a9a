import CanopySyntheticHistory
import CanopyKit
import CanopyStore
import CanopyTestSupport
import Foundation
import Glibc
import Testing

/// The real `canopy` executable killed with SIGKILL mid-crawl, then resumed. The kill points are
/// random but seeded: the seed is printed, and CANOPY_KILL_SEED=<seed> replays a failure.
struct CrashSafetyTests {
    /// What a complete run must keep, however later crawls end.
    typealias Snapshot = [RunID: CrawlResumeTests.RunContent]

    static func completeRuns(in store: RunStore) throws -> Snapshot {
        var snapshot: Snapshot = [:]
        for run in try store.runs() where run.status == .complete {
            snapshot[run.id] = try CrawlResumeTests.RunContent(store, run: run.id)
        }
        return snapshot
    }

    static func integrityCheck(_ path: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path)
        return try database.query("PRAGMA integrity_check") { $0.string(0) }
    }

    @Test("SIGKILL at random points: the store stays sound, complete runs intact, and --resume completes the run, every page once")
    func killAndResume() throws {
        let seed = TestSeed.from("CANOPY_KILL_SEED")
        print("CrashSafetyTests.killAndResume: seed \(seed) (replay with CANOPY_KILL_SEED=\(seed))")
        var random = SplitMix64(seed: seed)
        let site = GeneratedSite(pageCount: 450)
        let total = site.recordedPaths.count
        let tripwire = Tripwire()
        let server = try TestHTTPServer.serving(site, tripwire: tripwire)
        defer { server.stop() }
        let folder = try ReportTestFolder("kill")
        let storePath = folder.file("canopy.sqlite")
        let crawl = ["crawl", server.url(site.startPath), "--store", storePath, "--reports", folder.path, "--concurrency", "4", "--quiet"]
        let resume = crawl + ["--resume"]

        // A complete run first: no later kill may change it.
        let first = try CanopyProcess.run(crawl)
        try #require(first.status == 1 && !first.killedBySignal, "\(first.description)")
        var complete = try Self.completeRuns(in: try RunStore(path: storePath, readOnly: true))
        let reference = try #require(complete.values.first)
        #expect(reference.pagePaths.count == total)

        // Kill points spread over the crawl, so that kills land before the first 200-page batch
        // is stored, after one, and after two.
        let ranges = [1...150, 150...300, 300...(total - 60)]
        for (round, range) in ranges.enumerated() {
            var kills = [(arguments: crawl, point: Int.random(in: range, using: &random))]
            let killResumeToo = Bool.random(using: &random)
            var run: RunID?
            var kill = 0
            while kill < kills.count {
                let (arguments, point) = kills[kill]
                kill += 1
                let context = "seed \(seed), round \(round + 1), kill \(kill) after \(point) page requests"
                let child = try CanopyProcess(arguments)
                let pid = child.pid
                tripwire.arm(after: point) { Glibc.kill(pid, SIGKILL) }
                let ending = try child.wait()
                tripwire.disarm()
                try #require(ending.killedBySignal && ending.status == SIGKILL, "\(context): \(ending.description)")

                #expect(try Self.integrityCheck(storePath) == ["ok"], "\(context)")
                let store = try RunStore(path: storePath)
                let killed = try #require(try store.runs().last)
                if let run { #expect(killed.id == run, "\(context)") }
                run = killed.id
                #expect(killed.status == .running, "\(context): a killed crawl cannot mark its own run")
                #expect(try Self.completeRuns(in: store) == complete, "\(context): earlier complete runs are untouched")
                // What the next crawl does first: the run of the dead process is marked interrupted.
                #expect(try store.interruptAbandonedRuns() == [killed.id], "\(context)")
                #expect(try store.run(killed.id)?.status == .interrupted, "\(context)")
                #expect(try store.trendReport().runs.map(\.runId) == complete.keys.sorted(), "\(context): never in the trend")

                let recorded = try store.recordedPages(run: killed.id)
                #expect(Set(recorded.map(\.url)).count == recorded.count, "\(context)")
                let remaining = total - recorded.count
                print("CrashSafetyTests.killAndResume: \(context): run \(killed.id) had \(recorded.count) of \(total) pages recorded")
                if kill == 1 && killResumeToo && remaining > 80 {
                    // Kill the resumed crawl too: resuming must survive its own interruption.
                    kills.append((resume, Int.random(in: 1...(remaining - 60), using: &random)))
                    continue
                }

                let before = server.requests.count
                let resumed = try CanopyProcess.run(resume)
                #expect(resumed.status == 1 && !resumed.killedBySignal, "\(context): \(resumed.description)")
                let fetchedAgain = Set(server.requestedPaths(from: before))
                    .intersection(recorded.flatMap { [$0.url] + $0.redirectChain }.map(CrawlResumeTests.path))
                #expect(fetchedAgain.isEmpty, "\(context): recorded before the kill, fetched again: \(fetchedAgain.sorted())")

                #expect(try store.run(killed.id)?.status == .complete, "\(context)")
                let content = try CrawlResumeTests.RunContent(store, run: killed.id)
                #expect(content == reference, "\(context): the resumed run holds every page once, as a clean run does")
                let lines = try resultKeys(folder.file("results.jsonl"))
                #expect(lines.all.count == site.recordedPaths.count, "\(context)")
                #expect(Set(lines.all.map(CrawlResumeTests.path)) == site.recordedPaths, "\(context): results.jsonl has each recorded page once")
                #expect(lines.audited.count == site.auditedCount, "\(context)")
                #expect(Set(lines.audited).count == site.auditedCount, "\(context): results.jsonl has each audited page once")
                let summaryFile = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("run-summary.json")))) as? [String: Any]
                let summary = summaryFile?["summary"] as? [String: Any]
                #expect(summaryFile?["run"] as? Int == Int(killed.id.rawValue), "\(context)")
                #expect(summary?["pagesAudited"] as? Int == site.auditedCount, "\(context)")
                #expect(summary?["resumedPages"] as? Int == recorded.count, "\(context)")
                complete[killed.id] = content
            }
        }
        #expect(try RunStore(path: storePath, readOnly: true).trendReport().runs.count == 4)
    }
}
