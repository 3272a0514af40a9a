import CanopyDiagnostics
import CanopyReports
import CanopyHistory
import CanopyStore
import Foundation

/// What `canopy report` does: write the reports of a run store (index.html, trend.json,
/// open-issues.csv, latest-results.jsonl) without crawling. The store and the folder come from
/// canopy.yml's `output` section, or the flags, or the defaults (`Reports/`, `Reports/canopy.sqlite`).
public struct ReportGeneration: Sendable {
    public struct Options: Sendable {
        public var configPath: String?
        /// Replaces `output.store`.
        public var storePath: String?
        /// Replaces `output.reports`.
        public var reportsFolder: String?
        /// Resolves `${NAME}` in the configuration's credentials (the file is read whole).
        public var environment: [String: String]

        public init(configPath: String? = nil, storePath: String? = nil, reportsFolder: String? = nil, environment: [String: String] = [:]) {
            self.configPath = configPath
            self.storePath = storePath
            self.reportsFolder = reportsFolder
            self.environment = environment
        }
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        public var messages: [OutcomeLine]
        public var report: ReportWriter.Output?
    }

    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    public func run(_ options: Options) -> Outcome {
        var output = CrawlConfiguration.Output()
        if let path = options.configPath {
            do throws(Diagnostic) {
                output = try CrawlConfiguration.load(contentsOf: path, environment: options.environment).output
            } catch {
                return Outcome(exitStatus: .usageError, messages: [.problem(error)])
            }
        }
        if let folder = options.reportsFolder { output.reports = folder }
        if let store = options.storePath { output.store = store }
        let storePath = output.storePath
        guard FileManager.default.fileExists(atPath: storePath) else {
            return Outcome(exitStatus: .usageError, messages: [.problem(Diagnostic(.store, "no run store at \(storePath): run `canopy crawl` first, or name the store with --store"))])
        }
        do {
            // Read-only: a report never migrates or changes the history, and may run while a crawl writes.
            let store = try RunStore(path: storePath, readOnly: true)
            let report = try ReportWriter(store: store, now: now).write(to: output.reports)
            let messages: [OutcomeLine] = [
                .note(Self.describe(report.trend)), "report: \(report.htmlPath)", .note("also: " + report.files.dropFirst().joined(separator: ", ")),
            ]
            return Outcome(exitStatus: .passed, messages: messages, report: report)
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(Diagnostic(.store, "cannot report on \(storePath): \(error)"))])
        }
    }

    /// One line about the latest run: issues, and what changed since the run before.
    static func describe(_ trend: TrendReport) -> String {
        guard let run = trend.runs.last else { return "no complete run in the store yet" }
        var line = "run \(run.runId): \(run.violations.issues) violation issues on \(run.violations.instances) page instances, \(run.needsReview.issues) to review"
        if let comparison = run.comparison {
            line += "; since run \(comparison.previousRunId): \(comparison.newIssues) new, \(comparison.fixedIssues) fixed, \(comparison.persistingIssues) persisting"
            if !comparison.changes.isEmpty { line += " (also changed: \(comparison.changes.joined(separator: "; ")))" }
        }
        return line
    }
}
