import CanopyDiagnostics
import CanopyKit
import CanopyMeasurement
import CanopyLoopbackServer
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What one soak crawl measured, from inside its process.
struct SoakMeasurement: Codable {
    var pagesAudited: Int
    var pagesWithErrorStatus: Int
    var pagesFailed: Int
    var bytes: Int
    /// The crawl itself: fetch, parse, audit, store and results.jsonl.
    var crawlSeconds: Double
    /// `canopy crawl` end to end: configuration, crawl, the run's analysis and the reports.
    var totalSeconds: Double
    /// Highest resident set sampled while the crawl ran, and after it (analysis and reports), in KiB.
    var peakDuringCrawlKiB: Int
    var peakAfterCrawlKiB: Int
    /// The child's own peak (VmHWM at its end), in KiB: the figure compared.
    var peakKiB: Int
    var exitStatus: Int32
    var storeBytes: Int
    var resultsBytes: Int
    var messages: [String]
}

/// Samples this process's resident set (VmRSS) a few times a second, so a report can say whether
/// the peak came while crawling or while writing the reports.
final class ResidentSetSampler: @unchecked Sendable {
    // @unchecked: `samples` and `running` are only touched under `lock`.
    private let lock = NSLock()
    private var samples: [(seconds: Double, kib: Int)] = []
    private var running = true
    private let done = DispatchSemaphore(value: 0)
    private let clock = ContinuousClock()

    init(interval: Double = 0.2) {
        let start = clock.now
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let seconds = (clock.now - start).inSeconds
                if let kib = Self.current() { lock.withLock { samples.append((seconds, kib)) } }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops sampling; returns the peak before `split` seconds and the peak from then on.
    func stop(splittingAt split: Double) -> (before: Int, after: Int) {
        lock.withLock { running = false }
        done.wait()
        if let kib = Self.current() { samples.append((.infinity, kib)) }
        let before = samples.filter { $0.seconds < split }.map(\.kib).max() ?? 0
        let after = samples.filter { $0.seconds >= split }.map(\.kib).max() ?? 0
        return (before, after)
    }

    /// This process's resident set now (VmRSS), in KiB.
    static func current() -> Int? { ProcessStatus.kibibytes("VmRSS") }
}

enum Soak {
    static let defaultSizes = [10_000, 100_000]
    /// The 100,000-page crawl may peak at most this much above the 10,000-page one.
    static let allowedGrowth = 0.20

    /// In the child: `canopy crawl` end to end, as `CrawlCommand` runs it, against the parent's site.
    static func child(pages: Int, origin: String, folder: String) -> SoakMeasurement {
        var overrides = CrawlOverrides()
        overrides.startURLs = [origin + "/p/0"]
        // Room for the broken links, which are pages too; the limit is not what is measured.
        overrides.maxPages = pages * 2
        overrides.store = folder + "/canopy.sqlite"
        overrides.reports = folder + "/Reports"
        let sampler = ResidentSetSampler()
        let clock = ContinuousClock()
        let begin = clock.now
        let outcome = SiteCrawl(progress: .standardError(verbosity: .normal)).run(SiteCrawl.Options(overrides: overrides))
        let total = (clock.now - begin).inSeconds
        let crawlSeconds = outcome.summary?.seconds ?? total
        let peaks = sampler.stop(splittingAt: crawlSeconds)
        let size = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        return SoakMeasurement(
            pagesAudited: outcome.summary?.pagesAudited ?? 0, pagesWithErrorStatus: outcome.summary?.pagesWithErrorStatus ?? 0,
            pagesFailed: outcome.summary?.pagesFailed ?? 0, bytes: outcome.summary?.bytes ?? 0,
            crawlSeconds: crawlSeconds, totalSeconds: total, peakDuringCrawlKiB: peaks.before, peakAfterCrawlKiB: peaks.after,
            peakKiB: ownHighWaterMark(), exitStatus: outcome.exitStatus.rawValue, storeBytes: size(folder + "/canopy.sqlite"),
            resultsBytes: size(folder + "/Reports/results.jsonl"), messages: outcome.messages.map(\.description)
        )
    }

    /// In the parent: serves each size of the site on loopback, crawls it in a child process, and
    /// compares the children's peak memory (each child's own VmHWM; see `ChildProcess`). Exits 1
    /// when the larger crawl's peak is more than `allowedGrowth` above the smaller one's, or when a
    /// crawl did not audit the whole site.
    static func run(arguments: [String]) throws -> Int32 {
        let sizes = value(of: "--soak-pages", in: arguments).map { $0.split(separator: ",").compactMap { Int($0) } } ?? defaultSizes
        let keep = arguments.contains("--keep")
        let root = NSTemporaryDirectory() + "canopy-soak-\(getpid())"
        print("soak: generated shop site on 127.0.0.1, crawled by `canopy crawl` (default rules, store, results.jsonl, reports) "
            + "in a child process per size; \(ProcessInfo.processInfo.activeProcessorCount) cores")
        var results: [(pages: Int, measurement: SoakMeasurement, peakKiB: Int, childCPU: Double, serverCPU: Double)] = []
        var failures: [String] = []
        for pages in sizes {
            let site = SoakSite(pageCount: pages)
            let server = try LoopbackServer(recordsRequests: false) { site.response(for: $0.pathWithoutQuery) }
            let folder = root + "/\(pages)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let serverBefore = ownCPUSeconds()
            let (measurement, usage) = try spawn(["--soak-child", "\(pages)", "--origin", server.baseURL, "--folder", folder])
            let serverCPU = ownCPUSeconds() - serverBefore
            server.stop()
            if !keep { try? FileManager.default.removeItem(atPath: folder) }
            let childCPU = seconds(usage.ru_utime) + seconds(usage.ru_stime)
            results.append((pages, measurement, measurement.peakKiB, childCPU, serverCPU))
            print(line(pages: pages, measurement, peakKiB: measurement.peakKiB, childCPU: childCPU, serverCPU: serverCPU))
            // The figures mean something only if the whole site was crawled as generated. The
            // site has violations by design, so `canopy crawl` ends with 1 (violations found).
            if measurement.exitStatus != ExitStatus.violationsFound.rawValue || measurement.pagesAudited != pages
                || measurement.pagesWithErrorStatus != site.brokenLinkCount || measurement.pagesFailed != 0 {
                failures.append("the \(pages)-page crawl did not record the site as generated: \(measurement.pagesAudited) audited "
                    + "(expected \(pages)), \(measurement.pagesWithErrorStatus) 404s (expected \(site.brokenLinkCount)), "
                    + "\(measurement.pagesFailed) failed, exit \(measurement.exitStatus)\n" + measurement.messages.joined(separator: "\n"))
            }
        }
        if keep { print("kept the stores and reports under \(root)") } else { try? FileManager.default.removeItem(atPath: root) }
        if let smallest = results.first, let largest = results.last, results.count > 1 {
            let ratio = Double(largest.peakKiB) / Double(smallest.peakKiB)
            print(String(format: "peak memory %d pages / %d pages: %.2f (allowed: at most %.2f)",
                         largest.pages, smallest.pages, ratio, 1 + allowedGrowth))
            if ratio > 1 + allowedGrowth {
                failures.append(String(format: "memory is not flat: the %d-page crawl peaked %.0f%% above the %d-page one",
                                       largest.pages, (ratio - 1) * 100, smallest.pages))
            }
        }
        for failure in failures { FileHandle.standardError.write(Data(("soak: FAILED: " + failure + "\n").utf8)) }
        return failures.isEmpty ? 0 : 1
    }

    private static func line(pages: Int, _ measurement: SoakMeasurement, peakKiB: Int, childCPU: Double, serverCPU: Double) -> String {
        let megabytes = Double(measurement.bytes) / 1_048_576
        return String(
            format: "%7d pages: crawl %7.1f s, %6.0f pages/s, %5.1f MB/s (%.0f MB of HTML); end to end %7.1f s; "
                + "peak RSS %6.1f MB (sampled: %.1f MB crawling, %.1f MB analysing and writing reports); "
                + "CPU: crawler %.0f s, site server %.0f s; store %.0f MB, results.jsonl %.0f MB",
            pages, measurement.crawlSeconds, Double(measurement.pagesAudited) / measurement.crawlSeconds,
            megabytes / measurement.crawlSeconds, megabytes, measurement.totalSeconds, Double(peakKiB) / 1024,
            Double(measurement.peakDuringCrawlKiB) / 1024, Double(measurement.peakAfterCrawlKiB) / 1024, childCPU, serverCPU,
            Double(measurement.storeBytes) / 1_048_576, Double(measurement.resultsBytes) / 1_048_576
        )
    }

    /// Runs this program with `arguments` and returns what it printed (a measurement) and its resource usage.
    /// `CANOPY_SOAK_PROFILER` (say `heaptrack -o /tmp/soak`) runs each child under a profiler, so
    /// the memory of a large crawl can be taken apart; the measurement is then the line of the
    /// child's output that holds it, whatever the profiler printed around it.
    private static func spawn(_ arguments: [String]) throws -> (SoakMeasurement, rusage) {
        let profiler = ProcessInfo.processInfo.environment["CANOPY_SOAK_PROFILER"].map { $0.split(separator: " ").map(String.init) } ?? []
        let ending = profiler.isEmpty
            ? try ChildProcess.run(CommandLine.arguments[0], arguments)
            : try ChildProcess.run("/usr/bin/env", profiler + [CommandLine.arguments[0]] + arguments)
        let line = ending.output.split(separator: UInt8(ascii: "\n")).last { $0.first == UInt8(ascii: "{") } ?? ending.output
        return (try JSONDecoder().decode(SoakMeasurement.self, from: Data(line)), ending.usage)
    }

    static func value(of option: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// CPU time of this process (the site server, once the children are reaped).
    private static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
}
