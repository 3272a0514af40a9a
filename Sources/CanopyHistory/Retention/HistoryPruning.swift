import CanopyStore
import Foundation

/// Which runs `canopy store prune` keeps. With both limits, a run goes when either says so; the
/// latest complete run always stays (it is what the next run is compared with), and a run that
/// is still being written is never touched.
public struct RetentionPolicy: Sendable, Equatable {
    /// Keep at most this many complete runs, the newest.
    public var keepRuns: Int?
    /// Drop runs that started longer ago than this.
    public var maximumAge: TimeInterval?

    public init(keepRuns: Int? = nil, maximumAge: TimeInterval? = nil) {
        self.keepRuns = keepRuns
        self.maximumAge = maximumAge
    }

    /// "400d", "8w", "36h": the forms `--older-than` takes.
    public static func age(parsing text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["h": 3_600, "d": 86_400, "w": 7 * 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0 else { return nil }
        return TimeInterval(count) * unit
    }
}

/// What a prune did.
public struct PruneOutcome: Sendable, Equatable {
    public var deletedRuns: [RunID]
    public var keptCompleteRuns: Int
    /// Open issues whose first-seen dates now come from `issue_origins`, their runs gone.
    public var preservedOrigins: Int
    public var bytesBefore: Int
    public var bytesAfter: Int
}

extension RunStore {
    /// Deletes the runs `policy` lets go, with their pages and findings, and compacts the file.
    ///
    /// Issue ages stay true: before a run goes, every issue still present in the kept runs has
    /// where it began written to `issue_origins` (the first run that ever had it, and where its
    /// current streak began when that streak reaches back into the deleted runs), and the trend
    /// reads them from there. The caller holds the store's `StoreWriterLock`.
    public func prune(_ policy: RetentionPolicy, now: Date = Date()) throws -> PruneOutcome {
        let bytesBefore = Self.bytesOnDisk(ofStoreAt: path)
        let (deleted, kept, preserved) = try withDatabase { database in
            try database.transaction { try HistoryPruning(database: database).prune(policy, now: now) }
        }
        if !deleted.isEmpty {
            try deleteUnusedValues()
            try compact()
        }
        return PruneOutcome(deletedRuns: deleted, keptCompleteRuns: kept, preservedOrigins: preserved, bytesBefore: bytesBefore, bytesAfter: Self.bytesOnDisk(ofStoreAt: path))
    }
}

private struct HistoryPruning {
    let database: SQLiteDatabase

    private struct Origin {
        var first: (run: RunID, at: Double)
        var streak: (run: RunID, at: Double)?
    }

    func prune(_ policy: RetentionPolicy, now: Date) throws -> (deleted: [RunID], keptComplete: Int, preserved: Int) {
        let complete = try database.query("SELECT id, started_at FROM runs WHERE status = 'complete' ORDER BY id") {
            (run: RunID($0.int64(0)), at: $0.double(1))
        }
        guard !complete.isEmpty else { return ([], 0, 0) }
        var firstKept = 0
        if let keep = policy.keepRuns { firstKept = max(firstKept, complete.count - max(1, keep)) }
        if let age = policy.maximumAge {
            let oldestAllowed = now.timeIntervalSince1970 - age
            let tooOld = complete.prefix { $0.at < oldestAllowed }.count
            firstKept = max(firstKept, min(tooOld, complete.count - 1))
        }
        let cutoff = complete[firstKept].run
        let deleted = try database.query("SELECT id FROM runs WHERE id < ? AND status != 'running' ORDER BY id", [.integer(cutoff.rawValue)]) {
            RunID($0.int64(0))
        }
        guard !deleted.isEmpty else { return ([], complete.count - firstKept, 0) }

        let origins = try origins(complete: complete, firstKept: firstKept)
        try database.run("DELETE FROM issue_origins")
        for (key, origin) in origins {
            try database.run(
                "INSERT INTO issue_origins (issue_key, first_seen_run_id, first_seen_at, streak_run_id, streak_started_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(key), .integer(origin.first.run.rawValue), .real(origin.first.at),
                    origin.streak.map { .integer($0.run.rawValue) } ?? .null, origin.streak.map { .real($0.at) } ?? .null,
                ]
            )
        }
        try database.run("DELETE FROM runs WHERE id < ? AND status != 'running'", [.integer(cutoff.rawValue)])
        return (deleted, complete.count - firstKept, origins.count)
    }

    /// Where each issue seen both before and from the first kept run began, counting the runs
    /// about to go and what earlier prunes recorded.
    private func origins(complete: [(run: RunID, at: Double)], firstKept: Int) throws -> [String: Origin] {
        let positions = Dictionary(uniqueKeysWithValues: complete.enumerated().map { ($0.element.run, $0.offset) })
        let cutoff = SQLiteValue.integer(complete[firstKept].run.rawValue)
        var earlier: [String: Origin] = [:]
        try database.forEachRow("SELECT issue_key, first_seen_run_id, first_seen_at, streak_run_id, streak_started_at FROM issue_origins") { row in
            earlier[row.string(0)] = Origin(
                first: (RunID(row.int64(1)), row.double(2)),
                streak: row.isNull(3) ? nil : (RunID(row.int64(3)), row.double(4))
            )
        }
        // The complete runs (by position) that had each issue still seen in the kept runs.
        var seen: [String: Set<Int>] = [:]
        try database.forEachRow(
            """
            SELECT DISTINCT issue.issue_key, run_issues.run_id FROM run_issues JOIN issue_keys AS issue ON issue.id = run_issues.issue_id
            WHERE run_issues.issue_id IN (SELECT issue_id FROM run_issues WHERE run_id >= ?) AND run_issues.run_id <= ?
            """,
            [cutoff, cutoff]
        ) { row in
            if let position = positions[RunID(row.int64(1))] { seen[row.string(0), default: []].insert(position) }
        }
        // An issue of an earlier prune that the kept runs still have keeps its first sighting.
        try database.forEachRow(
            "SELECT DISTINCT issue.issue_key FROM run_issues JOIN issue_keys AS issue ON issue.id = run_issues.issue_id WHERE run_issues.run_id >= ?",
            [cutoff]
        ) { row in
            let key = row.string(0)
            if earlier[key] != nil, seen[key] == nil { seen[key] = [] }
        }
        var origins: [String: Origin] = [:]
        for (key, positions) in seen {
            let before = positions.filter { $0 < firstKept }
            let previous = earlier[key]
            guard !before.isEmpty || previous != nil else { continue }
            let firstPosition = before.min()
            var first: (run: RunID, at: Double) = firstPosition.map { (complete[$0].run, complete[$0].at) } ?? previous!.first
            if let previous, previous.first.at < first.at { first = previous.first }
            // The streak counts only for an issue in the first kept run, walking back while runs had it.
            var streak: (run: RunID, at: Double)?
            if positions.contains(firstKept) {
                var start = firstKept
                while start > 0 && positions.contains(start - 1) { start -= 1 }
                if start < firstKept {
                    streak = start == 0 ? (previous?.streak ?? (complete[0].run, complete[0].at)) : (complete[start].run, complete[start].at)
                } else if firstKept == 0 {
                    streak = previous?.streak
                }
            }
            origins[key] = Origin(first: first, streak: streak)
        }
        return origins
    }
}
