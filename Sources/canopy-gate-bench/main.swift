// `canopy gate` end to end, as a deploy pipeline runs it, over 50 pages served by a loopback
// server inside this program: configuration, fetch, audit, baseline comparison and all four
// output files, through the same `DeployGate` the command calls. Build it in release:
//
//   swift run -c release canopy-gate-bench [--rounds N]
//
// A first, untimed run writes the baseline the timed rounds compare with, as a team's first gate
// does. A round counts only if it audited every page and passed; otherwise the benchmark says
// what went wrong and reports no time.
import CanopyDiagnostics
import CanopyHistory
import CanopyKit
import CanopyLoopbackServer
import Foundation

func option(_ name: String, _ fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
        return fallback
    }
    return value
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let (whole, fraction) = (ContinuousClock.now - start).components
    return Double(whole) + Double(fraction) / 1e18
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("canopy-gate-bench: \(message); no time reported\n".utf8))
    exit(1)
}

let rounds = option("--rounds", 5)
let site = BenchmarkSite()
let bodies = site.pages.mapValues { Array($0.utf8) }
let server: LoopbackServer
do {
    server = try LoopbackServer(recordsRequests: false) { request in
        bodies[request.pathWithoutQuery].map { LoopbackResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: $0) } ?? .notFound
    }
} catch {
    fail("cannot start the loopback server: \(error)")
}
defer { server.stop() }

let folder = NSTemporaryDirectory() + "canopy-gate-bench-\(ProcessInfo.processInfo.processIdentifier)"
do {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
} catch {
    fail("cannot create \(folder): \(error)")
}
defer { try? FileManager.default.removeItem(atPath: folder) }

var options = DeployGate.Options()
options.urls = site.paths.map { "http://127.0.0.1:\(server.port)\($0)" }
options.outputPath = folder + "/gate.json"
options.environment = ProcessInfo.processInfo.environment

/// The pages the run audited, or the reason the round does not count.
func audited(_ outcome: DeployGate.Outcome, expecting statuses: Set<ExitStatus>) -> Int {
    guard let report = outcome.report else { fail("the gate did not run: \(outcome.messages.map(\.description).joined(separator: "; "))") }
    let count = report.pages.filter(\.audited).count
    guard count == BenchmarkSite.pageCount else {
        fail("only \(count) of \(BenchmarkSite.pageCount) pages audited: \(report.unauditedPages.map { "\($0.url): \($0.error ?? "?")" })")
    }
    guard statuses.contains(outcome.exitStatus) else {
        fail("the gate exited \(outcome.exitStatus.rawValue): \(outcome.messages.first ?? "")")
    }
    return count
}

// The untimed first run: the site's known problems fail it, and become the baseline.
let first = DeployGate().run(options)
_ = audited(first, expecting: [.violationsFound])
let findings = first.report?.findings.count ?? 0
let created = BaselineMaintenance().create(from: .init(fromRun: folder + "/gate.json"), to: folder + "/baseline.json")
guard created.exitStatus == .passed else { fail("cannot write the baseline: \(created.messages.map(\.description).joined(separator: "; "))") }

options.baselinePath = folder + "/baseline.json"
options.junitPath = folder + "/junit.xml"
options.sarifPath = folder + "/results.sarif"
options.summaryPath = folder + "/summary.md"
let totalBytes = bodies.values.reduce(0) { $0 + $1.count }
let sizes = bodies.values.map(\.count).sorted()
print(String(
    format: "site: %d pages, %.0f KB in all (%.0f–%.0f KB, median %.0f KB); %d findings, baselined; %d cores",
    bodies.count, Double(totalBytes) / 1024, Double(sizes.first!) / 1024, Double(sizes.last!) / 1024,
    Double(sizes[sizes.count / 2]) / 1024, findings, ProcessInfo.processInfo.activeProcessorCount
))

var times: [Double] = []
for round in 1...rounds {
    let begin = ContinuousClock.now
    let outcome = DeployGate().run(options)
    let elapsed = seconds(since: begin)
    let pages = audited(outcome, expecting: [.passed])
    times.append(elapsed)
    print(String(format: "round %d: %d pages audited, exit %d, %.3f s", round, pages, outcome.exitStatus.rawValue, elapsed))
}
let sorted = times.sorted()
let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
print(String(
    format: "canopy gate, %d pages: best %.3f s, median %.3f s (%.0f pages/s at the median) over %d rounds",
    BenchmarkSite.pageCount, sorted[0], median, Double(BenchmarkSite.pageCount) / median, rounds
))
