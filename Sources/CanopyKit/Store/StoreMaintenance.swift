import CanopyDiagnostics
import CanopyHistory
import CanopyReports
import CanopyStore
import Foundation

/// What `canopy store` does to a history: export it to one file and import it back (so it outlives
/// a CI runner), check it, and prune it. The store comes from `--store`, else canopy.yml's
/// `output`, else the default `Reports/canopy.sqlite`.
public struct StoreMaintenance: Sendable {
    public struct Location: Sendable {
        public var configPath: String?
        public var storePath: String?
        public var environment: [String: String]

        public init(configPath: String? = nil, storePath: String? = nil, environment: [String: String] = [:]) {
            self.configPath = configPath
            self.storePath = storePath
            self.environment = environment
        }

        func resolve() throws(Diagnostic) -> String {
            if let storePath { return storePath }
            guard let configPath else { return CrawlConfiguration(startURLs: []).output.storePath }
            return try CrawlConfiguration.load(contentsOf: configPath, environment: environment).output.storePath
        }
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        public var messages: [OutcomeLine]
    }

    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    public func export(_ location: Location, to path: String) -> Outcome {
        perform(location) { storePath in
            guard FileManager.default.fileExists(atPath: storePath) else {
                throw Diagnostic(.store, "no run store at \(storePath): nothing to export")
            }
            let store = try RunStore(path: storePath, readOnly: true)
            let exported = try StoreArchive.export(store, to: path)
            return [.note(
                "exported \(exported.runs) run\(exported.runs == 1 ? "" : "s") of \(storePath) to \(path) "
                    + "(\(Self.size(exported.bytes)), from \(Self.size(exported.storeBytes)))"
            )]
        }
    }

    /// - Parameter newHistoryIfUnusable: for CI restore steps: a missing, damaged or too new file
    ///   is a warning and the store stays as it is (a new history starts), not an error.
    public func importArchive(_ location: Location, from path: String, replace: Bool, newHistoryIfUnusable: Bool) -> Outcome {
        perform(location) { storePath in
            do {
                let imported = try StoreArchive.importArchive(at: path, intoStoreAt: storePath, replace: replace, analyzer: RunAnalysis())
                var line = "imported \(imported.runs) run\(imported.runs == 1 ? "" : "s") from \(path) into \(storePath)"
                if let from = imported.migratedFrom { line += " (schema \(from) brought up to \(imported.schemaVersion))" }
                if imported.replacedRuns > 0 { line += "; it replaced a history of \(imported.replacedRuns) runs" }
                return [.note(line)]
            } catch let error as ArchiveError {
                switch error {
                case .missing, .corrupt, .newer:
                    guard newHistoryIfUnusable else { throw Diagnostic(.store, error.description) }
                    let kept = FileManager.default.fileExists(atPath: storePath) ? "the store \(storePath) is left as it was" : "a new history starts at \(storePath)"
                    return [.note("warning: \(error.description); \(kept)")]
                default:
                    throw Diagnostic(.store, error.description)
                }
            }
        }
    }

    public func check(_ location: Location) -> Outcome {
        perform(location) { storePath in
            let health = try StoreHealth.check(storeAt: storePath)
            var lines: [OutcomeLine] = []
            let runs = health.runs
            var summary = "\(storePath): schema \(health.schemaVersion), \(Self.size(health.bytes)); "
                + "\(runs.complete) complete run\(runs.complete == 1 ? "" : "s")"
            if runs.interrupted > 0 { summary += ", \(runs.interrupted) interrupted" }
            if runs.running > 0 { summary += ", \(runs.running) running" }
            summary += "; \(health.pages) pages, \(health.findings) findings"
            if let first = health.firstRunStartedAt, let latest = health.latestRunStartedAt {
                let dates = DateText()
                summary += "; runs from \(dates.date(first)) to \(dates.date(latest))"
            }
            lines.append(.note(summary))
            if health.isNewer {
                throw Diagnostic(.store, "\(storePath) has schema \(health.schemaVersion), newer than this Canopy reads (\(RunStore.schemaVersion)): use a newer Canopy")
            }
            if let problem = health.problems.first {
                throw Diagnostic(.store, "\(storePath) is not usable: \(problem)")
            }
            if health.needsMigration {
                lines.append(.note("note: the next crawl brings it from schema \(health.schemaVersion) to \(RunStore.schemaVersion)"))
            }
            lines.append(.note("integrity: ok"))
            return lines
        }
    }

    public func prune(_ location: Location, policy: RetentionPolicy) -> Outcome {
        perform(location) { storePath in
            guard FileManager.default.fileExists(atPath: storePath) else { throw Diagnostic(.store, "no run store at \(storePath)") }
            let writer = try StoreWriterLock(storePath: storePath)
            defer { writer.release() }
            let store = try RunStore(path: storePath)
            let pruned = try store.prune(policy, now: now())
            guard !pruned.deletedRuns.isEmpty else {
                return [.note("nothing to prune: the store keeps its \(pruned.keptCompleteRuns) complete runs")]
            }
            var line = "pruned \(pruned.deletedRuns.count) run\(pruned.deletedRuns.count == 1 ? "" : "s") "
                + "(\(pruned.deletedRuns.map(\.description).joined(separator: ", "))); \(pruned.keptCompleteRuns) complete runs kept; "
                + "\(Self.size(pruned.bytesBefore)) → \(Self.size(pruned.bytesAfter))"
            if pruned.preservedOrigins > 0 { line += "; first-seen dates kept for \(pruned.preservedOrigins) issues still open" }
            return [.note(line)]
        }
    }

    private func perform(_ location: Location, _ body: (String) throws -> [OutcomeLine]) -> Outcome {
        do {
            let storePath = try location.resolve()
            return Outcome(exitStatus: .passed, messages: try body(storePath))
        } catch let diagnostic as Diagnostic {
            return Outcome(exitStatus: diagnostic.exitStatus, messages: [.problem(diagnostic)])
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(Diagnostic(.store, "\(error)"))])
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.0f KB", Double(bytes) / 1024)
    }
}
