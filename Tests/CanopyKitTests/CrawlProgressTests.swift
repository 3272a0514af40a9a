import CanopyCrawl
import CanopyHistory
import CanopyKit
import CanopyRules
import CanopyTestSupport
import Foundation
import Testing

/// Keeps what a progress reporter writes and wakes a waiting test once a condition holds.
final class ProgressOutput: Sendable {
    private let writes = LockedState<[String]>([])
    private let reached = DispatchSemaphore(value: 0)
    private let condition: @Sendable ([String]) -> Bool

    init(until condition: @escaping @Sendable ([String]) -> Bool = { _ in false }) {
        self.condition = condition
    }

    func write(_ text: String) {
        let met = writes.withLock { writes in
            let before = condition(writes)
            writes.append(text)
            return !before && condition(writes)
        }
        if met { reached.signal() }
    }

    var all: [String] { writes.withLock { $0 } }

    /// True once the condition held; false when `seconds` passed first.
    func waitUntilMet(seconds: Double) -> Bool {
        reached.wait(timeout: .now() + seconds) == .success
    }
}

func progress(done: Int, queued: Int = 0, failed: Int = 0, at elapsed: Double) -> CrawlProgress {
    var progress = CrawlProgress()
    progress.pagesDone = done
    progress.queued = queued
    progress.failed = failed
    progress.elapsed = elapsed
    return progress
}

@Suite("CrawlProgressReporter: what a crawl prints while it runs")
struct CrawlProgressTests {
    @Test("a terminal gets one line rewritten in place, at most every 0.2 s of crawl time, ended by finish")
    func terminalLine() {
        let output = ProgressOutput()
        let reporter = CrawlProgressReporter(verbosity: .normal, isTerminal: true) { output.write($0) }

        reporter.report(progress(done: 1, queued: 9, at: 0.5))
        reporter.report(progress(done: 2, queued: 8, at: 0.6))  // too soon after the last line
        reporter.report(progress(done: 3, queued: 7, at: 0.8))
        reporter.note("http://example.test/x: HTTP 404")  // only with --verbose
        reporter.finish(progress(done: 10, at: 2))

        #expect(output.all == [
            "\r\u{1B}[K1 pages done, 9 queued, 2 pages/s, 0 failed, about 5 s left",
            "\r\u{1B}[K3 pages done, 7 queued, 4 pages/s, 0 failed, about 2 s left",
            "\r\u{1B}[K10 pages done, 0 queued, 5 pages/s, 0 failed\n",
        ])
    }

    @Test("plain output (a pipe, CI) gets whole lines every log interval; --verbose adds a line per failed page")
    func plainLines() {
        let output = ProgressOutput()
        let reporter = CrawlProgressReporter(verbosity: .verbose, isTerminal: false, logInterval: 10) { output.write($0) }

        reporter.report(progress(done: 5, queued: 50, at: 1))
        reporter.report(progress(done: 40, queued: 20, failed: 1, at: 9))  // within 10 s of the last line
        reporter.note("http://example.test/x: HTTP 404")
        reporter.report(progress(done: 60, queued: 10, failed: 1, at: 11))
        reporter.finish(progress(done: 70, failed: 1, at: 12))

        #expect(output.all == [
            "5 pages done, 50 queued, 5 pages/s, 0 failed, about 10 s left\n",
            "http://example.test/x: HTTP 404\n",
            "60 pages done, 10 queued, 5 pages/s, 1 failed, about 2 s left\n",
            "70 pages done, 0 queued, 6 pages/s, 1 failed\n",
        ])
        #expect(!output.all.joined().contains("\r"), "no terminal control in a log")
    }

    @Test("--quiet prints nothing, not even the final line, and starts no heartbeat")
    func quiet() {
        let output = ProgressOutput()
        let snapshots = LockedState(0)
        let reporter = CrawlProgressReporter(verbosity: .quiet, isTerminal: true, logInterval: 0, heartbeat: 0.001) { output.write($0) }

        reporter.start { snapshots.withLock { $0 += 1 }; return progress(done: 0, at: 1) }
        reporter.report(progress(done: 1, at: 1))
        reporter.note("http://example.test/x: HTTP 404")
        reporter.finish(progress(done: 1, at: 2))

        #expect(output.all.isEmpty)
        #expect(snapshots.withLock { $0 } == 0)
    }

    @Test("between start and finish a heartbeat reports on its own, so a stalled crawl still prints")
    func heartbeatWhileStalled() {
        // The snapshot is the clock: each call is one more second of a crawl where nothing finishes.
        let calls = LockedState(0)
        let output = ProgressOutput { $0.count >= 3 }
        let reporter = CrawlProgressReporter(verbosity: .normal, isTerminal: false, logInterval: 2, heartbeat: 0.001) { output.write($0) }

        reporter.start {
            let second = calls.withLock { $0 += 1; return $0 }
            return progress(done: 4, queued: 1, at: Double(second))
        }
        let printed = output.waitUntilMet(seconds: 30)
        reporter.finish(progress(done: 5, at: 100))

        #expect(printed, "three lines came with no page finishing")
        let lines = output.all
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("4 pages done, 1 queued") && $0.hasSuffix("\n") })
        #expect(lines.last == "5 pages done, 0 queued, 0 pages/s, 0 failed\n")
        // Lines are at least the log interval apart in crawl time, however often the heartbeat beats.
        #expect(calls.withLock { $0 } >= 2 * (lines.count - 2) + 1)
    }

    @Test("a crawl waiting on a slow page keeps printing progress")
    func crawlerHeartbeat() throws {
        // The slow page answers only once three lines were printed while it was pending, so the
        // test checks what happens during the stall, not how long anything takes.
        let output = ProgressOutput { lines in lines.filter { $0.hasPrefix("1 pages done, 1 queued") }.count >= 3 }
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/": return sitePage("Home", links: ["/slow"])
            case "/slow":
                _ = output.waitUntilMet(seconds: 4)
                return sitePage("Slow")
            default: return .notFound
            }
        }
        var plan = CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url("/"))])
        plan.honoursRobots = false
        plan.sitemaps = .none
        plan.timeout = 10
        let reporter = CrawlProgressReporter(verbosity: .normal, isTerminal: false, logInterval: 0.01, heartbeat: 0.01) { output.write($0) }

        let summary = try PageAuditor.crawler(
            crawl: plan, audit: AuditPlan(rules: RuleCatalog.defaultRules), sink: CollectingSink(), progress: reporter
        ).run()

        #expect(summary.pagesAudited == 2)
        #expect(output.all.filter { $0.hasPrefix("1 pages done, 1 queued") }.count >= 3)
        #expect(output.all.last?.hasPrefix("2 pages done, 0 queued") == true)
    }
}
