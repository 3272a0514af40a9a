import CanopyDiagnostics
import CanopyStore

/// Which run `canopy crawl --resume` continues.
public enum ResumeRequest: Sendable, Equatable {
    /// The store's most recent interrupted run.
    case latest
    case run(RunID)
}


enum ResumeSelection {
    /// The run to resume among the store's runs (oldest first), when resuming it with this crawl
    /// is right: it is interrupted, no later run is complete or running (a late resume would put
    /// pages crawled now before that run in the trend, which is ordered by run), and it was
    /// started with the same start URLs, configuration, rules and Canopy version (a run's pages
    /// must all be crawled and audited alike to be compared with other runs).
    /// A refusal names the run and why (`Diagnostic.Kind.resume`: `canopy crawl` stops with exit status 2).
    static func choose(_ request: ResumeRequest, among runs: [StoredRun], for start: RunStart, store: String) -> Result<StoredRun, Diagnostic> {
        func refuse(_ message: String) -> Result<StoredRun, Diagnostic> { .failure(Diagnostic(.resume, message)) }
        let run: StoredRun
        switch request {
        case .latest:
            guard let latest = runs.last(where: { $0.status == .interrupted }) else {
                return refuse("nothing to resume: the store \(store) has no interrupted run")
            }
            run = latest
        case .run(let id):
            guard let found = runs.first(where: { $0.id == id }) else { return refuse("cannot resume run \(id): there is no run \(id) in the store \(store)") }
            switch found.status {
            case .interrupted: run = found
            case .complete: return refuse("cannot resume run \(id): it is complete")
            case .running: return refuse("cannot resume run \(id): it is still running, in another canopy process")
            }
        }
        let name = "run \(run.id)"
        if let later = runs.first(where: { $0.id > run.id && $0.status != .interrupted }) {
            return refuse("cannot resume \(name): run \(later.id), started after it, is \(later.status.rawValue); start a new crawl instead")
        }
        if run.startURLs != start.startURLs {
            return refuse("cannot resume \(name): it started from \(run.startURLs.joined(separator: " ")), this crawl from \(start.startURLs.joined(separator: " "))")
        }
        if run.configHash != start.configHash {
            return refuse("cannot resume \(name): its configuration differs from this crawl's (config hash \(run.configHash.prefix(12)) there, \(start.configHash.prefix(12)) here); resume with the same canopy.yml and flags")
        }
        if run.ruleIDs != start.ruleIDs || run.ruleSetHash != start.ruleSetHash {
            return refuse("cannot resume \(name): it was audited with other rules (rule set \(run.ruleSetName), \(run.ruleIDs.count) rules)")
        }
        if run.canopyVersion != start.canopyVersion {
            return refuse("cannot resume \(name): it was crawled by Canopy \(run.canopyVersion), this is \(start.canopyVersion)")
        }
        return .success(run)
    }
}
