// Crawl throughput and memory over a real site served on loopback, next to a fetch-only pass and a
// bare libxml2 parse of the same pages, each measured in its own child process so that its peak
// memory (max RSS) is its own. Build with `-c release`; serve the site first (benchmarks/serve-javadoc.sh).
//
//   swift run -c release canopy-crawl-bench [--start URL] [--prefix PATH] [--urls FILE]
//     (crawl with styles, crawl without linked stylesheets, fetch only, bare parse; ratios of each)
//   swift run -c release canopy-crawl-bench --soak [--soak-pages 10000,100000] [--keep]
//     (`canopy crawl` end to end over a generated site it serves itself; fails unless memory stays flat)
//   swift run -c release canopy-crawl-bench --adversarial
//     (parse + audit of hostile pages, time and peak memory each; fails if one takes over 10 s)
//   swift run -c release canopy-crawl-bench --incremental [--mutable-origin URL] [--mutable-root PATH] [--changed-share 0.05] [--keep]
//     (three crawls into one store of the editable copy serve-javadoc.sh serves on port 8082: the first,
//      again with nothing changed, and again after editing a share of the pages; ratios to the first)
//
// (`canopy gate` has its own, self-contained benchmark: canopy-gate-bench.)
//
// Defaults: start http://127.0.0.1:8081/java.base/module-summary.html, scope /java.base/, and the
// fetch-only and parse passes over benchmarks/java.base-pages.txt (the pages a crawl of java.base reaches).
import CanopyCrawl
import CanopyHTML
import CanopyHistory
import CanopyKit
import CanopyRules
import Foundation

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Measurement: Codable {
    var pages: Int
    var bytes: Int
    var seconds: Double
    var note: String = ""
}

final class BodyCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var bodies: [[UInt8]] = []
    func add(_ body: [UInt8]) { lock.withLock { bodies.append(body) } }
    var all: [[UInt8]] { lock.withLock { bodies } }
}

func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let start = option("--start", "http://127.0.0.1:8081/java.base/module-summary.html")
let prefix = option("--prefix", "/java.base/")
let urlsFile = option("--urls", here.appendingPathComponent("benchmarks/java.base-pages.txt").path)

func seconds(since start: ContinuousClock.Instant) -> Double { (ContinuousClock.now - start).inSeconds }

/// The pages of the URL list, fetched with the loop (shared by the fetch and parse passes).
func fetchList() throws -> (bodies: [[UInt8]], seconds: Double) {
    let origin = try Origin(start)
    let paths = try String(contentsOfFile: urlsFile, encoding: .utf8).split(separator: "\n").map(String.init)
    let bodies = BodyCollector()
    let loop = try FetchLoop(policy: FetchPolicy(maxInFlight: 16, maxPerHost: 16)) { completion in
        if case .success(let response) = completion.result, response.status == 200 { bodies.add(response.body) }
    }
    for (index, path) in paths.enumerated() {
        loop.submit(FetchJob(request: FetchRequest(url: origin.description + path), tag: index))
    }
    let begin = ContinuousClock.now
    loop.finish()
    loop.run()
    return (bodies.all, seconds(since: begin))
}

/// `canopy crawl` end to end: configuration, crawl and audit, the run store, results.jsonl and the
/// reports written at the end, into `folder`.
func crawlSite(from startURL: String, into folder: String, styles: Bool = true) throws -> (RunSummary, Double) {
    var overrides = CrawlOverrides()
    overrides.startURLs = [startURL]
    overrides.includePatterns = [prefix]
    overrides.maxPages = 1_000_000
    overrides.maxDepth = 1_000
    overrides.robots = false
    overrides.sitemaps = ["none"]
    overrides.reports = folder
    overrides.store = folder + "/canopy.sqlite"
    if !styles { overrides.stylesEnabled = false }
    let begin = ContinuousClock.now
    let outcome = SiteCrawl().run(SiteCrawl.Options(overrides: overrides, verbosity: .quiet))
    let elapsed = seconds(since: begin)
    guard let summary = outcome.summary else { throw BenchmarkError(outcome.messages.map(\.description).joined(separator: "\n")) }
    return (summary, elapsed)
}

func runMode(_ mode: String) throws -> Measurement {
    switch mode {
    case "crawl", "crawl-no-styles":
        let folder = NSTemporaryDirectory() + "canopy-crawl-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The price of styles: the same crawl with linked stylesheets left unloaded.
        let (summary, elapsed) = try crawlSite(from: start, into: folder, styles: mode == "crawl")
        return Measurement(pages: summary.pagesAudited, bytes: summary.bytes, seconds: elapsed,
                           note: "\(summary.pagesWithErrorStatus) error statuses, \(summary.violations) violations; store, results.jsonl and reports included")
    case "fetch":
        let (bodies, elapsed) = try fetchList()
        return Measurement(pages: bodies.count, bytes: bodies.reduce(0) { $0 + $1.count }, seconds: elapsed)
    case "parse":
        let (bodies, _) = try fetchList()
        let begin = ContinuousClock.now
        for body in bodies { _ = LibXML2Baseline.parseAndFree(body) }
        return Measurement(pages: bodies.count, bytes: bodies.reduce(0) { $0 + $1.count }, seconds: seconds(since: begin), note: "one core")
    default:
        throw CocoaError(.featureUnsupported)
    }
}

if let pagesIndex = CommandLine.arguments.firstIndex(of: "--soak-child") {
    let arguments = CommandLine.arguments
    let measurement = Soak.child(
        pages: Int(arguments[pagesIndex + 1]) ?? 0, origin: Soak.value(of: "--origin", in: arguments) ?? "",
        folder: Soak.value(of: "--folder", in: arguments) ?? NSTemporaryDirectory()
    )
    // On a line of its own: a profiler wrapping this child may print around it.
    FileHandle.standardOutput.write(try JSONEncoder().encode(measurement) + Data("\n".utf8))
    exit(0)
}

if let pageIndex = CommandLine.arguments.firstIndex(of: "--adversarial-page") {
    FileHandle.standardOutput.write(try JSONEncoder().encode(try Adversarial.child(CommandLine.arguments[pageIndex + 1])))
    exit(0)
}

if CommandLine.arguments.contains("--adversarial") {
    exit(try Adversarial.run())
}

if CommandLine.arguments.contains("--incremental") {
    try Incremental.run(
        start: start, prefix: prefix, urlsFile: urlsFile, origin: option("--mutable-origin", "http://127.0.0.1:8082"), root: option("--mutable-root", "/tmp/canopy-javadoc/mutable"),
        changedShare: Double(option("--changed-share", "0.05")) ?? 0.05, keep: CommandLine.arguments.contains("--keep")
    )
    exit(0)
}

if CommandLine.arguments.contains("--soak") {
    exit(try Soak.run(arguments: CommandLine.arguments))
}

if let modeIndex = CommandLine.arguments.firstIndex(of: "--mode") {
    let measurement = try runMode(CommandLine.arguments[modeIndex + 1])
    FileHandle.standardOutput.write(try JSONEncoder().encode(measurement))
    exit(0)
}

/// Runs one mode in a child process and returns its measurement and peak RSS in MB.
func child(_ mode: String) throws -> (Measurement, Double) {
    let ending = try ChildProcess.run(CommandLine.arguments[0], ["--mode", mode, "--start", start, "--prefix", prefix, "--urls", urlsFile])
    return (try JSONDecoder().decode(Measurement.self, from: ending.output), Double(ending.usage.ru_maxrss) / 1024)
}

print("site: \(start) within \(prefix); \(ProcessInfo.processInfo.activeProcessorCount) cores")
let modes = [
    ("crawl", "canopy crawl + audit (default rules)"), ("crawl-no-styles", "the same, linked stylesheets not loaded"),
    ("fetch", "fetch only (FetchLoop, URL list)"), ("parse", "bare libxml2 parse (same pages)"),
]
var results: [String: Measurement] = [:]
var peaks: [String: Double] = [:]
for (mode, label) in modes {
    let (measurement, peak) = try child(mode)
    results[mode] = measurement
    peaks[mode] = peak
    let megabytes = Double(measurement.bytes) / 1_048_576
    print(label.padding(toLength: 38, withPad: " ", startingAt: 0)
        + String(format: "%6d pages %7.2f s %8.0f pages/s %7.1f MB/s  peak %6.1f MB  %@",
                 measurement.pages, measurement.seconds, Double(measurement.pages) / measurement.seconds,
                 megabytes / measurement.seconds, peak, measurement.note))
}
if let crawl = results["crawl"], let parse = results["parse"] {
    let ratio = (Double(crawl.pages) / crawl.seconds) / (Double(parse.pages) / parse.seconds)
    print(String(format: "crawl throughput = %.2fx bare single-core parse throughput", ratio))
}
if let styled = results["crawl"], let unstyled = results["crawl-no-styles"], let styledPeak = peaks["crawl"], let unstyledPeak = peaks["crawl-no-styles"] {
    let ratio = (Double(styled.pages) / styled.seconds) / (Double(unstyled.pages) / unstyled.seconds)
    print(String(format: "styles on = %.2fx the throughput with styles off; peak memory %.2fx", ratio, styledPeak / unstyledPeak))
}
