import CanopyDiagnostics
import CanopyCrawl
import CanopyReports
import CanopyRules
import CanopyHistory
import CanopyLoopbackServer
import CanopyStore
import Foundation

/// What `canopy demo` does: serve the bundled sample shop (`DemoShop`) on 127.0.0.1, crawl it
/// once per week of its story (`DemoShop.story`: eight weeks, dated a week apart and ending now),
/// and leave the trend report of those runs in the demo folder, with the canopy.yml and rules.yml
/// it crawled with, so the demo also shows how a real crawl is configured. Nothing leaves the
/// machine: the only server is the loopback one, and the shop's outside links are out of the
/// crawl's scope.
///
/// Each demo starts a fresh history in its folder (the shop's port differs from run to run, so an
/// older history would not be comparable anyway). Only the demo's own store files are removed.
public struct SiteDemo: Sendable {
    public struct Options: Sendable {
        /// Where canopy.yml, rules.yml, the store and the reports go.
        public var folder: String
        /// The simulated start of week 1; each later week starts seven days after the one before.
        /// The default puts the last week at the moment the demo starts.
        public var weekOne: Date

        public init(folder: String = SiteDemo.defaultFolder, weekOne: Date = SiteDemo.defaultWeekOne()) {
            self.folder = folder
            self.weekOne = weekOne
        }
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        /// What the demo did, line by line, ending with where the report is.
        public var messages: [OutcomeLine]
        /// The trend after the last week.
        public var report: ReportWriter.Output?
        public var configPath: String?
    }

    public static let defaultFolder = "Reports/demo"
    static let week: TimeInterval = 7 * 86_400

    /// Week 1 of a story that ends now.
    public static func defaultWeekOne() -> Date {
        Date().addingTimeInterval(-Double(DemoShop.story.count - 1) * week)
    }

    private let progress: CrawlProgressReporter?

    public init(progress: CrawlProgressReporter? = nil) {
        self.progress = progress
    }

    public func run(_ options: Options) -> Outcome {
        var outcome = Outcome(exitStatus: .passed, messages: [])
        let folder = options.folder
        let configPath = (folder as NSString).appendingPathComponent("canopy.yml")
        let rulesPath = (folder as NSString).appendingPathComponent("rules.yml")
        let shop = ShopSwitch()
        let server: LoopbackServer
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try removeHistory(in: folder)
            server = try LoopbackServer(recordsRequests: false) { request in shop.current.response(for: request) }
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
                + "a vendor chat widget and accessibility problems on purpose), crawled once a week for \(DemoShop.story.count) weeks"
        ))

        var previous: RunID?
        for week in DemoShop.story {
            shop.current = DemoShop(week: week.number)
            do {
                try Self.ruleSet(week: week.number).write(toFile: rulesPath, atomically: true, encoding: .utf8)
            } catch {
                outcome.exitStatus = .usageError
                outcome.messages.append(.problem(Diagnostic(.usage, "cannot write \(rulesPath): \(error)")))
                return outcome
            }
            let started = options.weekOne.addingTimeInterval(Double(week.number - 1) * Self.week)
            let crawled = crawl(configPath, startingAt: started)
            outcome.messages += crawled.messages.filter(\.isProblem)
            // The shop has violations on purpose: 1 is a week recorded as designed.
            let recorded = crawled.exitStatus == .passed || crawled.exitStatus == .violationsFound
            guard recorded, let report = crawled.report, let run = report.trend.runs.last, run.runId != previous else {
                outcome.exitStatus = recorded ? .couldNotAudit : crawled.exitStatus
                outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "the week \(week.number) crawl did not complete")))
                return outcome
            }
            previous = run.runId
            outcome.report = report
            outcome.messages.append(.note(Self.describe(week, run)))
        }
        guard let report = outcome.report else { return outcome }
        outcome.messages.append("report: open \(Self.shown(report.htmlPath))")
        outcome.messages.append(.note(
            "also: " + report.files.dropFirst().map(Self.shown).joined(separator: ", ")
                + "; the crawl's configuration: \(Self.shown(configPath)) and its rule set \(Self.shown(rulesPath))"
        ))
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

    /// One line per week: what happened to the shop, and what the crawl made of it.
    private static func describe(_ week: DemoShop.Week, _ run: RunTrend) -> String {
        var line = "week \(week.number), \(DateText().date(run.startedAt)), \(week.headline): \(run.violations.issues) violation issues on \(run.violations.instances) page instances"
        if let comparison = run.comparison {
            line += ", \(comparison.newIssues) new and \(comparison.fixedIssues) fixed since week \(week.number - 1)"
            if !comparison.changes.isEmpty { line += " (not only the site changed: \(comparison.changes.joined(separator: "; ")))" }
        } else {
            let impacts = run.byImpact.map { "\($0.issues) \($0.name)" }.joined(separator: ", ")
            line += " (\(impacts)) over \(run.coverage.crawled) pages"
        }
        return line
    }

    /// Removes the store a previous demo left, and nothing else.
    private func removeHistory(in folder: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = (folder as NSString).appendingPathComponent("canopy.sqlite" + suffix)
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        }
    }

    /// The demo's canopy.yml: the shop's start URL, the team's rule set, the chat widget as a
    /// vendor's, and the output next to the file.
    static func configuration(origin: String) -> String {
        """
        # Written by `canopy demo` for its sample shop (the port changes with every demo).
        # A real site's file looks the same; docs/configuration.md lists every key.
        start: \(origin)/
        rules:
          set: rules.yml
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

    /// The demo's rules.yml in `week`: Canopy's default set, plus the opt-in rules the story has
    /// enabled by then. A file from week 1 on, so that enabling a rule changes the rule set and
    /// nothing else: the trend marks exactly "rules added".
    static func ruleSet(week: Int) -> String {
        let added = DemoShop.enabledRules(week: week)
        let comment = added.isEmpty ? "" : "\n# Added since: \(added.joined(separator: ", ")) (opt-in rules, Rules/all.yml lists them)."
        let ids = RuleCatalog.defaultRules.map(\.metadata.id) + added
        return """
            # Written by `canopy demo`: the shop team's rule set, Canopy's default set (Rules/default.yml) to start with.\(comment)
            # docs/rule-sets.md describes the format.
            name: shop
            rules:
            \(ids.map { "  - \($0)" }.joined(separator: "\n"))

            """
    }
}

/// Which week's shop the server serves; read by the server's connection threads, set by the demo.
private final class ShopSwitch: @unchecked Sendable {
    // @unchecked: `shop` is only touched under `lock`.
    private let lock = NSLock()
    private var shop = DemoShop(week: 1)

    var current: DemoShop {
        get { lock.withLock { shop } }
        set { lock.withLock { shop = newValue } }
    }
}
