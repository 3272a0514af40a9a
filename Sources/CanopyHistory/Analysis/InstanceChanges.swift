import CanopyStore
/// Violation instances — (issue key, page URL) pairs — new, fixed and persisting between a run
/// and the complete run before it. Issue counts alone hide a template issue that spreads to
/// more pages or a component issue fixed on some of them; instance counts show it.
///
/// Computed when a run is analysed (`run_changes`), so a trend over a year of runs reads one row
/// a run; the trend computes it afresh only when the run it compares with is not the one the
/// analysis saw (a run resumed and completed after a later one).
struct InstanceChanges: Equatable {
    var new: Int
    var fixed: Int
    var persisting: Int

    static func between(_ run: RunID, and previous: RunID, in database: SQLiteDatabase) throws -> InstanceChanges {
        var urls: [String: Int32] = [:]
        let now = try instances(of: run, urls: &urls, in: database), before = try instances(of: previous, urls: &urls, in: database)
        let persisting = now.intersection(before).count
        return InstanceChanges(new: now.count - persisting, fixed: before.count - persisting, persisting: persisting)
    }

    /// Compares `run` with the latest complete run before it and stores the result (nothing for a first run).
    static func record(_ run: RunID, in database: SQLiteDatabase) throws {
        try database.run("DELETE FROM run_changes WHERE run_id = ?", [.integer(run.rawValue)])
        let latestBefore = try database.queryFirst(
            "SELECT MAX(id) FROM runs WHERE status = 'complete' AND id < ?", [.integer(run.rawValue)]
        ) { $0.optionalInt(0) }
        guard let previous = latestBefore.flatMap({ $0 }).map({ RunID(Int64($0)) }) else { return }
        let changes = try between(run, and: previous, in: database)
        try database.run(
            "INSERT INTO run_changes (run_id, previous_run_id, new_instances, fixed_instances, persisting_instances) VALUES (?, ?, ?, ?, ?)",
            [
                .integer(run.rawValue), .integer(previous.rawValue), .integer(Int64(changes.new)), .integer(Int64(changes.fixed)),
                .integer(Int64(changes.persisting)),
            ]
        )
    }

    /// The stored comparison of `run`, when it was made against `previous`.
    static func stored(_ run: RunID, against previous: RunID, in database: SQLiteDatabase) throws -> InstanceChanges? {
        try database.queryFirst(
            "SELECT new_instances, fixed_instances, persisting_instances FROM run_changes WHERE run_id = ? AND previous_run_id = ?",
            [.integer(run.rawValue), .integer(previous.rawValue)]
        ) { InstanceChanges(new: $0.int(0), fixed: $0.int(1), persisting: $0.int(2)) }
    }

    /// A violation instance, compactly: the issue's row in `issue_keys` (one key has one row,
    /// whichever run it is in; 0 for a finding without a key) and the page's URL as a number the
    /// two runs compared share. As a string of key and URL, the instances of two runs of the whole
    /// javadoc site (about 200,000 each) were 30 MB of the second run's peak.
    private struct Instance: Hashable {
        let issueID: Int64
        let url: Int32
    }

    private static func instances(of run: RunID, urls: inout [String: Int32], in database: SQLiteDatabase) throws -> Set<Instance> {
        let runValue = SQLiteValue.integer(run.rawValue)
        var urlOfPage: [Int64: Int32] = [:]
        try database.forEachRow("SELECT id, url FROM pages WHERE run_id = ?", [runValue]) { row in
            let url = row.string(1)
            let number = urls[url] ?? Int32(urls.count)
            if number == urls.count { urls[url] = number }
            urlOfPage[row.int64(0)] = number
        }
        var instances: Set<Instance> = []
        try database.forEachRow(
            """
            SELECT findings.issue_id, findings.page_id FROM findings JOIN finding_details AS detail ON detail.id = findings.detail_id
            WHERE findings.run_id = ? AND detail.outcome = 'violation'
            """,
            [runValue]
        ) { row in
            guard let url = urlOfPage[row.int64(1)] else { return }
            instances.insert(Instance(issueID: row.optionalInt(0).map(Int64.init) ?? 0, url: url))
        }
        return instances
    }
}
