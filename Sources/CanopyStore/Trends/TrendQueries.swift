import Foundation

/// What a trend report includes.
public struct TrendOptions: Sendable {
    /// Include every page of the latest run with its findings (the drill-down); the largest part.
    public var includePages: Bool
    /// Only the last this many complete runs (all when nil).
    public var maximumRuns: Int?

    public init(includePages: Bool = true, maximumRuns: Int? = nil) {
        self.includePages = includePages
        self.maximumRuns = maximumRuns
    }
}

extension RunStore {
    /// The trend over complete runs, read from the per-run summaries the analysis wrote at each
    /// run's end: aggregation happens in SQL over `run_issues` (thousands of rows a run), never
    /// over all findings of all runs; only the latest run's findings are read, for drill-down.
    public func trendReport(options: TrendOptions = TrendOptions(), generatedAt: Date = Date()) throws -> TrendReport {
        try withDatabase { database in
            // One read transaction: every query sees the same committed state while a crawl writes.
            try database.transaction(immediate: false) {
                try TrendQueries(database: database).report(options: options, generatedAt: generatedAt)
            }
        }
    }
}

private struct TrendQueries {
    let database: SQLiteDatabase

    func report(options: TrendOptions, generatedAt: Date) throws -> TrendReport {
        var complete = try database.query("SELECT \(RunStore.runColumns) FROM runs WHERE status = 'complete' ORDER BY id") {
            try RunStore.storedRun($0)
        }
        // The run before the first one shown is still needed to compare that first one with.
        var previousOfFirst: StoredRun?
        if let maximum = options.maximumRuns, complete.count > maximum {
            previousOfFirst = complete[complete.count - maximum - 1]
            complete.removeFirst(complete.count - maximum)
        }
        guard let firstShown = complete.first else {
            return TrendReport(formatVersion: TrendReport.currentFormatVersion, generatedAt: generatedAt, runs: [], latest: nil)
        }
        let since = SQLiteValue.integer(firstShown.id.rawValue)
        let totals = try outcomeTotals(since: since)
        let impacts = try groupTotals("impact", since: since, filter: "")
        let pageTypes = try groupTotals("page_type", since: since, filter: "AND component_key IS NULL")
        let components = try groupTotals("component_key", since: since, filter: "AND component_key IS NOT NULL")
        let owners = try groupTotals("owner", since: since, filter: "")
        let rules = try ruleTotals(since: since)

        var trends: [RunTrend] = []
        var previous = previousOfFirst
        for run in complete {
            let id = run.id
            let impactRank = ["critical": 0, "serious": 1, "moderate": 2, "minor": 3]
            trends.append(RunTrend(
                runId: id, startedAt: run.startedAt, endedAt: run.endedAt, canopyVersion: run.canopyVersion, ruleSetName: run.ruleSetName,
                coverage: run.coverage,
                violations: totals[id]?["violation"] ?? IssueTotals(issues: 0, instances: 0, findings: 0),
                needsReview: totals[id]?["incomplete"] ?? IssueTotals(issues: 0, instances: 0, findings: 0),
                byImpact: (impacts[id] ?? []).sorted { impactRank[$0.name, default: 4] < impactRank[$1.name, default: 4] },
                byRule: rules[id] ?? [],
                byPageType: pageTypes[id] ?? [],
                byComponent: components[id] ?? [],
                byOwner: (owners[id] ?? []).map { group in
                    let owner = group.name.isEmpty ? nil : group.name
                    return OwnerTotals(owner: owner, firstParty: owner == nil, issues: group.issues, instances: group.instances)
                },
                comparison: try previous.map { try compare(run, with: $0) }
            ))
            previous = run
        }
        let latestRun = complete[complete.count - 1]
        let previousRun = complete.count > 1 ? complete[complete.count - 2] : previousOfFirst
        return TrendReport(
            formatVersion: TrendReport.currentFormatVersion, generatedAt: generatedAt, runs: trends,
            latest: try latest(latestRun, previous: previousRun, includePages: options.includePages)
        )
    }

    // MARK: Per-run totals

    private func outcomeTotals(since: SQLiteValue) throws -> [RunID: [String: IssueTotals]] {
        var totals: [RunID: [String: IssueTotals]] = [:]
        try database.forEachRow(
            "SELECT run_id, outcome, COUNT(*), SUM(instances), SUM(findings) FROM run_issues WHERE run_id >= ? GROUP BY run_id, outcome",
            [since]
        ) { row in
            totals[RunID(row.int64(0)), default: [:]][row.string(1)] = IssueTotals(issues: row.int(2), instances: row.int(3), findings: row.int(4))
        }
        return totals
    }

    /// Violation issues and instances per run, grouped by one column of `run_issues`.
    /// - Parameters:
    ///   - column: a column name from this file's callers, never from input.
    ///   - filter: a fixed condition from this file's callers, never from input.
    private func groupTotals(_ column: String, since: SQLiteValue, filter: String) throws -> [RunID: [GroupTotals]] {
        var groups: [RunID: [GroupTotals]] = [:]
        try database.forEachRow(
            """
            SELECT run_id, COALESCE(\(column), ''), COUNT(*), SUM(instances) FROM run_issues
            WHERE run_id >= ? AND outcome = 'violation' \(filter)
            GROUP BY run_id, \(column) ORDER BY run_id, SUM(instances) DESC, \(column)
            """,
            [since]
        ) { row in
            groups[RunID(row.int64(0)), default: []].append(GroupTotals(name: row.string(1), issues: row.int(2), instances: row.int(3)))
        }
        return groups
    }

    private func ruleTotals(since: SQLiteValue) throws -> [RunID: [RuleTotals]] {
        var rules: [RunID: [String: RuleTotals]] = [:]
        try database.forEachRow(
            """
            SELECT run_id, rule_id, COUNT(*), SUM(instances), SUM(findings) FROM run_issues
            WHERE run_id >= ? AND outcome = 'violation' GROUP BY run_id, rule_id
            """,
            [since]
        ) { row in
            let rule = row.string(1)
            rules[RunID(row.int64(0)), default: [:]][rule] = RuleTotals(
                ruleId: rule, issues: row.int(2), instances: row.int(3), findings: row.int(4), passes: 0
            )
        }
        try database.forEachRow("SELECT run_id, rule_id, passes FROM run_rule_passes WHERE run_id >= ?", [since]) { row in
            let rule = row.string(1)
            rules[RunID(row.int64(0)), default: [:]][rule, default: RuleTotals(ruleId: rule, issues: 0, instances: 0, findings: 0, passes: 0)]
                .passes = row.int(2)
        }
        return rules.mapValues { byRule in
            byRule.values.sorted { ($0.instances, $1.ruleId) > ($1.instances, $0.ruleId) }
        }
    }

    // MARK: Comparison

    private func compare(_ run: StoredRun, with previous: StoredRun) throws -> RunComparison {
        let current = SQLiteValue.integer(run.id.rawValue), earlier = SQLiteValue.integer(previous.id.rawValue)
        let countSQL = "SELECT COUNT(*) FROM run_issues WHERE run_id = ? AND outcome = 'violation'"
        let currentCount = try database.queryFirst(countSQL, [current]) { $0.int(0) } ?? 0
        let previousCount = try database.queryFirst(countSQL, [earlier]) { $0.int(0) } ?? 0
        let new = try database.queryFirst(
            """
            SELECT COUNT(*) FROM run_issues AS now
            WHERE now.run_id = ? AND now.outcome = 'violation'
              AND NOT EXISTS (SELECT 1 FROM run_issues AS before WHERE before.run_id = ? AND before.issue_key = now.issue_key)
            """,
            [current, earlier]
        ) { $0.int(0) } ?? 0
        let persisting = currentCount - new
        let added = Set(run.ruleIDs).subtracting(previous.ruleIDs).sorted()
        let removed = Set(previous.ruleIDs).subtracting(run.ruleIDs).sorted()
        let ruleSetChanged = run.ruleSetHash != previous.ruleSetHash || !added.isEmpty || !removed.isEmpty
        var changes: [String] = []
        if !added.isEmpty { changes.append("rules added: " + added.joined(separator: ", ")) }
        if !removed.isEmpty { changes.append("rules removed: " + removed.joined(separator: ", ")) }
        if ruleSetChanged && added.isEmpty && removed.isEmpty { changes.append("rule set changed (impacts or options)") }
        if run.ruleSetName != previous.ruleSetName { changes.append("rule set renamed: \(previous.ruleSetName) → \(run.ruleSetName)") }
        if run.configHash != previous.configHash { changes.append("configuration changed") }
        if run.canopyVersion != previous.canopyVersion { changes.append("Canopy \(previous.canopyVersion) → \(run.canopyVersion)") }
        return RunComparison(
            previousRunId: previous.id, newIssues: new, fixedIssues: previousCount - persisting, persistingIssues: persisting,
            ruleSetChanged: ruleSetChanged, rulesAdded: added, rulesRemoved: removed,
            configChanged: run.configHash != previous.configHash, canopyVersionChanged: run.canopyVersion != previous.canopyVersion,
            changes: changes
        )
    }

    // MARK: Latest run

    private func latest(_ run: StoredRun, previous: StoredRun?, includePages: Bool) throws -> LatestRun {
        let runValue = SQLiteValue.integer(run.id.rawValue)
        var firstSeen: [String: (RunID, Date)] = [:]
        try database.forEachRow(
            """
            SELECT now.issue_key, MIN(runs.id), MIN(runs.started_at)
            FROM run_issues AS now
            JOIN run_issues AS seen ON seen.issue_key = now.issue_key AND seen.run_id <= now.run_id
            JOIN runs ON runs.id = seen.run_id AND runs.status = 'complete'
            WHERE now.run_id = ? GROUP BY now.issue_key
            """,
            [runValue]
        ) { row in
            firstSeen[row.string(0)] = (RunID(row.int64(1)), Date(timeIntervalSince1970: row.double(2)))
        }
        var previousKeys: Set<String> = []
        if let previous {
            try database.forEachRow("SELECT issue_key FROM run_issues WHERE run_id = ?", [.integer(previous.id.rawValue)]) {
                previousKeys.insert($0.string(0))
            }
        }
        var issues = try database.query(
            """
            SELECT run_issues.issue_key, run_issues.rule_id, run_issues.impact, run_issues.outcome, run_issues.owner, run_issues.page_type,
                   run_issues.component_key, run_issues.instances, run_issues.findings,
                   pages.url, findings.target, findings.snippet, findings.message
            FROM run_issues
            JOIN findings ON findings.id = run_issues.example_finding_id
            JOIN pages ON pages.id = findings.page_id
            WHERE run_issues.run_id = ?
            """,
            [runValue]
        ) { row in
            let key = row.string(0)
            let seen = firstSeen[key] ?? (run.id, run.startedAt)
            return OpenIssue(
                issueKey: key, ruleId: row.string(1), impact: row.string(2), outcome: row.string(3), owner: row.optionalString(4),
                pageType: row.optionalString(5), component: row.optionalString(6), pageCount: row.int(7), findingCount: row.int(8),
                firstSeenRunId: seen.0, firstSeenAt: seen.1, isNew: previous != nil && !previousKeys.contains(key),
                example: IssueExample(url: row.string(9), target: row.string(10), snippet: row.string(11), message: row.string(12))
            )
        }
        let impactRank = ["critical": 3, "serious": 2, "moderate": 1, "minor": 0]
        issues.sort { left, right in
            let leftOrder = (left.outcome == "violation" ? 1 : 0, impactRank[left.impact, default: 0], left.pageCount)
            let rightOrder = (right.outcome == "violation" ? 1 : 0, impactRank[right.impact, default: 0], right.pageCount)
            if leftOrder != rightOrder { return leftOrder > rightOrder }
            return (left.ruleId, left.issueKey) < (right.ruleId, right.issueKey)
        }
        let pageTypes = try database.query(
            "SELECT page_type, page_count FROM run_page_types WHERE run_id = ? ORDER BY page_count DESC, page_type", [runValue]
        ) { GroupCount(name: $0.string(0), pages: $0.int(1)) }
        let components = try database.query(
            "SELECT component_key, page_count FROM run_components WHERE run_id = ? ORDER BY page_count DESC, component_key", [runValue]
        ) { GroupCount(name: $0.string(0), pages: $0.int(1)) }
        return LatestRun(
            runId: run.id, openIssues: issues, pageTypes: pageTypes, components: components,
            pages: includePages ? try pages(of: run.id) : []
        )
    }

    private func pages(of run: RunID) throws -> [PageDrillDown] {
        let runValue = SQLiteValue.integer(run.rawValue)
        var findingsByPage: [Int64: [PageFinding]] = [:]
        try database.forEachRow(
            """
            SELECT findings.page_id, findings.issue_key, findings.rule_id, findings.impact, findings.outcome, findings.target,
                   findings.owner, run_issues.component_key
            FROM findings JOIN run_issues ON run_issues.run_id = findings.run_id AND run_issues.issue_key = findings.issue_key
            WHERE findings.run_id = ? ORDER BY findings.id
            """,
            [runValue]
        ) { row in
            findingsByPage[row.int64(0), default: []].append(PageFinding(
                issueKey: row.string(1), ruleId: row.string(2), impact: row.string(3), outcome: row.string(4), target: row.string(5),
                owner: row.optionalString(6), component: row.optionalString(7)
            ))
        }
        return try database.query(
            "SELECT id, url, final_url, title, page_type, status_code, error FROM pages WHERE run_id = ? ORDER BY url", [runValue]
        ) { row in
            PageDrillDown(
                url: row.string(1), finalUrl: row.optionalString(2), title: row.optionalString(3), pageType: row.optionalString(4),
                statusCode: row.optionalInt(5), error: row.optionalString(6), findings: findingsByPage[row.int64(0)] ?? []
            )
        }
    }
}
