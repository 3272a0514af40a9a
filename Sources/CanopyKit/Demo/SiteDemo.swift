import CanopyDiagnostics
import CanopyCrawl
import CanopyReports
import CanopyHistory
import CanopyLoopbackServer
import CanopyStore
import Foundation

/// What `canopy demo` does: serve the bundled sample shop (`DemoShop`) on 127.0.0.1, crawl it
/// as "week 1", apply the week 2 changes, crawl it again, and leave the trend report of the two
/// runs in the demo folder — with the canopy.yml it crawled with, so the demo also shows how a
/// real crawl is configured. Nothing leaves the machine: the only server is the loopback one, and
/// the shop's one outside link is out of the crawl's scope.
///
/// Each demo starts a fresh history in its folder (the shop's port differs from run to run, so an
/// older history would not be comparable anyway). Only the demo's own store files are removed.
public struct SiteDemo: Sendable {
    public struct Options: Sendable {
        /// Where canopy.yml, the store and the reports go.
        public var folder: String
        /// The simulated start of week 1; week 2 starts seven days later.
        public var weekOne: Date

        public init(folder: String = SiteDemo.defaultFolder, weekOne: Date = Date().addingTimeInterval(-7 * 86_400)) {
            self.folder = folder
            self.weekOne = weekOne
        }
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        /// What the demo did, line by line, ending with where the report is.
        public var messages: [OutcomeLine]
        /// The trend after week 2.
        public var report: ReportWriter.Output?
        public var configPath: String?
    }

    public static let defaultFolder = "Reports/demo"

    private let progress: CrawlProgressReporter?

    public init(progress: CrawlProgressReporter? = nil) {
        self.progress = progress
    }

    public func run(_ options: Options) -> Outcome {
        var outcome = Outcome(exitStatus: .passed, messages: [])
        let folder = options.folder
        let configPath = (folder as NSString).appendingPathComponent("canopy.yml")
        let week = WeekSwitch()
        let server: LoopbackServer
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try removeHistory(in: folder)
            server = try LoopbackServer(recordsRequests: false) { request in DemoShop(week: week.current).response(for: request) }
        } catch {
            outcome.exitStatus = .couldNotAudit
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "\(error)")))
            return outcome
        }
        defer { server.stop() }
        do {
            try Self.configuration(origin: server.baseURL).write(toFile: configPath, atomically: true, encoding: .utf8)
        } catch {
            outcome.exitStatus = .usageError
            outcome.messages.append(.problem(Diagnostic(.usage, "cannot write \(configPath): \(error)")))
            return outcome
        }
        outcome.configPath = configPath
        outcome.messages.append(.note(
            "Canopy demo: a sample garden shop on \(server.baseURL)/ (\(DemoShop.pagePaths.count) pages with a shared header and footer, "
                + "a vendor chat widget and accessibility problems on purpose)"
        ))

        let weekOne = crawl(configPath, startingAt: options.weekOne)
        outcome.messages += weekOne.messages.filter(\.isProblem)
        guard weekOne.exitStatus == .passed, let first = weekOne.report?.trend.runs.last else {
            outcome.exitStatus = weekOne.exitStatus == .passed ? .couldNotAudit : weekOne.exitStatus
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "the week 1 crawl did not complete")))
            return outcome
        }
        outcome.messages.append(.note("week 1: " + Self.describe(first, pages: first.coverage.crawled)))

        week.current = .two
        let fixes = DemoShop.weekTwoFixes.map(\.0).joined(separator: ", ")
        let regressions = DemoShop.weekTwoRegressions.map(\.0).joined(separator: ", ")
        outcome.messages.append(.note(
            "applying week 2: \(DemoShop.weekTwoFixes.count) fixes (\(fixes)), \(DemoShop.weekTwoRegressions.count) regressions (\(regressions))"
                + " and unrelated churn (\(DemoShop.weekTwoChurn.joined(separator: "; ")))"
        ))
        let weekTwo = crawl(configPath, startingAt: options.weekOne.addingTimeInterval(7 * 86_400))
        outcome.messages += weekTwo.messages.filter(\.isProblem)
        guard weekTwo.exitStatus == .passed, let report = weekTwo.report, let second = report.trend.runs.last, second.runId != first.runId else {
            outcome.exitStatus = weekTwo.exitStatus == .passed ? .couldNotAudit : weekTwo.exitStatus
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "the week 2 crawl did not complete")))
            return outcome
        }
        outcome.report = report
        var line = "week 2: " + Self.describe(second, pages: second.coverage.crawled)
        if let comparison = second.comparison {
            line += "; since week 1: \(comparison.newIssues) new, \(comparison.fixedIssues) fixed, \(comparison.persistingIssues) persisting"
        }
        outcome.messages.append(.note(line))
        outcome.messages.append("report: open \(Self.shown(report.htmlPath))")
        outcome.messages.append(.note("also: " + report.files.dropFirst().map(Self.shown).joined(separator: ", ") + "; the crawl's configuration: \(Self.shown(configPath))"))
        return outcome
    }

    /// A path relative to the current folder when it is inside it: what a person would type.
    static func shown(_ path: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        let standardized = (path as NSString).standardizingPath
        return standardized.hasPrefix(current + "/") ? String(standardized.dropFirst(current.count + 1)) : standardized
    }

    private func crawl(_ configPath: String, startingAt start: Date) -> SiteCrawl.Outcome {
        // The simulated week's date plus real elapsed time, so a run still has a duration.
        let began = Date()
        return SiteCrawl(progress: progress, now: { start.addingTimeInterval(Date().timeIntervalSince(began)) })
            .run(SiteCrawl.Options(configPath: configPath, verbosity: .quiet))
    }

    private static func describe(_ run: RunTrend, pages: Int) -> String {
        let impacts = run.byImpact.map { "\($0.issues) \($0.name)" }.joined(separator: ", ")
        return "\(pages) pages audited, \(run.violations.issues) violation issues (\(impacts)) on \(run.violations.instances) page instances"
    }

    /// Removes the store a previous demo left, and nothing else.
    private func removeHistory(in folder: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = (folder as NSString).appendingPathComponent("canopy.sqlite" + suffix)
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        }
    }

    /// The demo's canopy.yml: the shop's start URL, the chat widget as a vendor's, and the output
    /// next to the file.
    static func configuration(origin: String) -> String {
        """
        # Written by `canopy demo` for its sample shop (the port changes with every demo).
        # A real site's file looks the same; docs/configuration.md lists every key.
        start: \(origin)/
        owners:
          \(DemoShop.chatVendor): ["\(DemoShop.chatWidgetSelector)"]
        politeness:
          concurrency: 4
        limits:
          timeout: 10
        output:
          reports: .
          store: canopy.sqlite

        """
    }
}

/// Which week the demo shop serves; read by the server's connection threads, set by the demo.
private final class WeekSwitch: @unchecked Sendable {
    // @unchecked: `week` is only touched under `lock`.
    private let lock = NSLock()
    private var week = DemoShop.Week.one

    var current: DemoShop.Week {
        get { lock.withLock { week } }
        set { lock.withLock { week = newValue } }
    }
}
