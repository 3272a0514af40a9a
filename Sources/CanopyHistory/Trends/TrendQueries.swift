import CanopyStore
import CanopyRules
import Foundation

/// What a trend report includes.
public struct TrendOptions: Sendable {
    /// Include every page of the latest run with its findings (the drill-down); the largest part.
    public var includePages: Bool
    /// Include the latest run's open issues; without them, `RunStore.forEachOpenIssue` gives them one at a time.
    public var includeOpenIssues: Bool
    /// Only the last this many complete runs (all when nil).
    public var maximumRuns: Int?

    public init(includePages: Bool = true, includeOpenIssues: Bool = true, maximumRuns: Int? = nil) {
        self.includePages = includePages
        self.includeOpenIssues = includeOpenIssues
        self.maximumRuns = maximumRuns
    }
}

extension RunStore {
    /// The trend over complete runs, read from the per-run summaries the analysis wrote at each
    /// run's end (`run_totals`: a few hundred rows a run), never from all findings of all runs;
    /// only the latest run's issues and findings are read in full, for its lists and drill-down.
    public func trendReport(options: TrendOptions = TrendOptions(), generatedAt: Date = Date()) throws -> TrendReport {
        try withDatabase { database in
            // One read transaction: every query sees the same committed state while a crawl writes.
            try database.transaction(immediate: false) {
                try TrendQueries(database: database).report(options: options, generatedAt: generatedAt)
            }
        }
    }
}

extension RunStore {
    /// The open issues of complete run `run` in the trend's order (`LatestRun.openIssues` one at a
    /// time): a report on a site with 100,000 issues holds one of them, never all.
    public func forEachOpenIssue(run: RunID, _ body: (OpenIssue) throws -> Void) throws {
        try withDatabase { database in
            try database.transaction(immediate: false) {
                let queries = TrendQueries(database: database)
                let previous = try database.queryFirst(
                    "SELECT MAX(id) FROM runs WHERE status = 'complete' AND id < ?", [.integer(run.rawValue)]
                ) { $0.isNull(0) ? nil : RunID($0.int64(0)) } ?? nil
                try queries.forEachOpenIssue(of: run, previous: previous, body)
            }
        }
    }

    /// Each page of a complete run with its findings, in URL order (`LatestRun.pages` one at a time).
    public func forEachDrillDownPage(run: RunID, _ body: (PageDrillDown) throws -> Void) throws {
        try withDatabase { database in
            try database.transaction(immediate: false) { try TrendQueries(database: database).forEachPage(of: run, body) }
        }
    }

    /// How many pages a complete run has, and the ones an HTML drill-down of at most `limit` pages
    /// shows: all of them, or the failures and the pages with the most findings. With
    /// `findingsPerPage`, a page lists at most that many findings and counts the rest
    /// (`PageDrillDown.counts`): the pages with the most findings hold thousands each.
    public func drillDownPages(run: RunID, limit: Int, findingsPerPage: Int? = nil) throws -> (total: Int, pages: [PageDrillDown]) {
        try withDatabase { database in
            try database.transaction(immediate: false) {
                try TrendQueries(database: database).drillDown(of: run, limit: limit, findingsPerPage: findingsPerPage)
            }
        }
    }
}

private struct TrendQueries {
    let database: SQLiteDatabase

    func report(options: TrendOptions, generatedAt: Date) throws -> TrendReport {
        var complete = try RunStore.addingCoverageDetails(
            to: database.query("SELECT \(RunStore.runColumns) FROM runs WHERE status = 'complete' ORDER BY id") { try RunStore.storedRun($0) },
            in: database
        )
        // The run before the first one shown is still needed to compare that first one with.
        var previousOfFirst: StoredRun?
        if let maximum = options.maximumRuns, complete.count > maximum {
            previousOfFirst = complete[complete.count - maximum - 1]
            complete.removeFirst(complete.count - maximum)
        }
        guard let firstShown = complete.first else {
            return TrendReport(formatVersion: TrendReport.currentFormatVersion, generatedAt: generatedAt, runs: [], latest: nil)
        }
        let totals = try runTotals(since: firstShown.id)
        let passes = try rulePasses(since: firstShown.id)

        var trends: [RunTrend] = []
        var previous = previousOfFirst
        for run in complete {
            let groups = totals[run.id] ?? [:]
            let none = IssueTotals(issues: 0, instances: 0, findings: 0)
            let violations = groups["outcome"]?["violation"] ?? none
            trends.append(RunTrend(
                runId: run.id, startedAt: run.startedAt, endedAt: run.endedAt, canopyVersion: run.canopyVersion, ruleSetName: run.ruleSetName,
                coverage: run.coverage,
                violations: violations,
                needsReview: groups["outcome"]?["incomplete"] ?? none,
                byImpact: Impact.allCases.reversed().compactMap { impact in
                    groups["impact"]?[impact.rawValue].map { GroupTotals(name: impact.rawValue, issues: $0.issues, instances: $0.instances) }
                },
                byRule: Self.ruleTotals(groups["rule"] ?? [:], passes: passes[run.id] ?? [:]),
                byPageType: Self.largestFirst(groups["page_type"] ?? [:]),
                byComponent: Self.largestFirst(groups["component"] ?? [:]),
                byOwner: Self.largestFirst(groups["owner"] ?? [:]).map { group in
                    let owner = group.name.isEmpty ? nil : group.name
                    return OwnerTotals(owner: owner, firstParty: owner == nil, issues: group.issues, instances: group.instances)
                },
                comparison: try previous.map { earlier in
                    // The run before the first shown one is not in `totals`.
                    let earlierViolations = try totals[earlier.id]?["outcome"]?["violation"]?.issues ?? violationIssues(of: earlier.id) ?? 0
                    return try compare(run, violations: violations.issues, with: earlier, previousViolations: earlierViolations)
                }
            ))
            previous = run
        }
        let latestRun = complete[complete.count - 1]
        let previousRun = complete.count > 1 ? complete[complete.count - 2] : previousOfFirst
        return TrendReport(
            formatVersion: TrendReport.currentFormatVersion, generatedAt: generatedAt, runs: trends,
            latest: try latest(latestRun.id, previous: previousRun?.id, options: options)
        )
    }

    // MARK: Per-run totals

    /// The totals the analysis stored for each run, by run, dimension and name.
    private func runTotals(since first: RunID) throws -> [RunID: [String: [String: IssueTotals]]] {
        var totals: [RunID: [String: [String: IssueTotals]]] = [:]
        try database.forEachRow(
            "SELECT run_id, dimension, name, issues, instances, findings FROM run_totals WHERE run_id >= ?", [.integer(first.rawValue)]
        ) { row in
            totals[RunID(row.int64(0)), default: [:]][row.string(1), default: [:]][row.string(2)] = IssueTotals(
                issues: row.int(3), instances: row.int(4), findings: row.int(5)
            )
        }
        return totals
    }

    private func rulePasses(since first: RunID) throws -> [RunID: [String: Int]] {
        var passes: [RunID: [String: Int]] = [:]
        try database.forEachRow("SELECT run_id, rule_id, passes FROM run_rule_passes WHERE run_id >= ?", [.integer(first.rawValue)]) { row in
            passes[RunID(row.int64(0)), default: [:]][row.string(1)] = row.int(2)
        }
        return passes
    }

    private func violationIssues(of run: RunID) throws -> Int? {
        try database.queryFirst(
            "SELECT issues FROM run_totals WHERE run_id = ? AND dimension = 'outcome' AND name = 'violation'", [.integer(run.rawValue)]
        ) { $0.int(0) }
    }

    private static func largestFirst(_ groups: [String: IssueTotals]) -> [GroupTotals] {
        groups.map { GroupTotals(name: $0.key, issues: $0.value.issues, instances: $0.value.instances) }
            .sorted { ($0.instances, $1.name) > ($1.instances, $0.name) }
    }

    /// Rules with violations, and rules with only passes (zero issues), most instances first.
    private static func ruleTotals(_ violations: [String: IssueTotals], passes: [String: Int]) -> [RuleTotals] {
        Set(violations.keys).union(passes.keys).map { rule in
            let totals = violations[rule] ?? IssueTotals(issues: 0, instances: 0, findings: 0)
            return RuleTotals(ruleId: rule, issues: totals.issues, instances: totals.instances, findings: totals.findings, passes: passes[rule] ?? 0)
        }
        .sorted { ($0.instances, $1.ruleId) > ($1.instances, $0.ruleId) }
    }

    // MARK: Comparison

    private func compare(_ run: StoredRun, violations currentCount: Int, with previous: StoredRun, previousViolations previousCount: Int) throws -> RunComparison {
        let current = SQLiteValue.integer(run.id.rawValue), earlier = SQLiteValue.integer(previous.id.rawValue)
        let new = try database.queryFirst(
            """
            SELECT COUNT(*) FROM run_issues AS now
            WHERE now.run_id = ? AND now.outcome = 'violation'
              AND NOT EXISTS (SELECT 1 FROM run_issues AS before WHERE before.run_id = ? AND before.issue_id = now.issue_id)
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
        let instances = try InstanceChanges.stored(run.id, against: previous.id, in: database)
            ?? InstanceChanges.between(run.id, and: previous.id, in: database)
        return RunComparison(
            previousRunId: previous.id, newIssues: new, fixedIssues: previousCount - persisting, persistingIssues: persisting,
            newInstances: instances.new, fixedInstances: instances.fixed, persistingInstances: instances.persisting,
            ruleSetChanged: ruleSetChanged, rulesAdded: added, rulesRemoved: removed,
            configChanged: run.configHash != previous.configHash, canopyVersionChanged: run.canopyVersion != previous.canopyVersion,
            changes: changes
        )
    }

    // MARK: Latest run

    private func latest(_ run: RunID, previous: RunID?, options: TrendOptions) throws -> LatestRun {
        let runValue = SQLiteValue.integer(run.rawValue)
        var issues: [OpenIssue] = []
        if options.includeOpenIssues { try forEachOpenIssue(of: run, previous: previous) { issues.append($0) } }
        let pageTypes = try database.query(
            "SELECT page_type, page_count FROM run_page_types WHERE run_id = ? ORDER BY page_count DESC, page_type", [runValue]
        ) { GroupCount(name: $0.string(0), pages: $0.int(1)) }
        let components = try database.query(
            // A component's shapes (structure hashes) add up to the pages holding it.
            """
            SELECT component_key, SUM(page_count) AS pages FROM run_components WHERE run_id = ?
            GROUP BY component_key ORDER BY pages DESC, component_key
            """,
            [runValue]
        ) { GroupCount(name: $0.string(0), pages: $0.int(1)) }
        let clientRendered = try database.query(
            "SELECT url, not_audited_details FROM pages WHERE run_id = ? AND not_audited = ? ORDER BY url LIMIT ?",
            [runValue, .text(NotAudited.clientRendered), .integer(Int64(LatestRun.clientRenderedListLimit))]
        ) { ClientRenderedPage(url: $0.string(0), signals: ($0.optionalString(1) ?? "").split(separator: "\n").map(String.init)) }
        return LatestRun(
            runId: run, openIssues: issues, pageTypes: pageTypes, components: components,
            pages: options.includePages ? try pages(of: run) : [], clientRenderedPages: clientRendered
        )
    }

    /// The open issues of `run`, violations first, then by impact and pages, ordered by the
    /// database: what is held at a time is one issue, the database's sort (which goes to a
    /// temporary file beyond the connection's cache) and an issue id and two run positions an issue.
    func forEachOpenIssue(of run: RunID, previous: RunID?, _ body: (OpenIssue) throws -> Void) throws {
        let runValue = SQLiteValue.integer(run.rawValue)
        // Complete runs up to this one, oldest first, and for each open issue the positions of
        // the runs that had it: its first run ever, and where its current streak began.
        let completeRuns = try database.query(
            "SELECT id, started_at FROM runs WHERE status = 'complete' AND id <= ? ORDER BY id", [runValue]
        ) { (RunID($0.int64(0)), Date(timeIntervalSince1970: $0.double(1))) }
        let positions = Dictionary(uniqueKeysWithValues: completeRuns.enumerated().map { ($0.element.0, $0.offset) })
        var firstSeen: [Int64: (streak: Int32, ever: Int32)] = [:]
        var issue: Int64?
        var seen: [Int] = []
        func settle() {
            guard let issue, !seen.isEmpty else { return }
            let sorted = seen.sorted(by: >)
            var streak = sorted[0]
            for position in sorted.dropFirst() where position == streak - 1 { streak = position }
            firstSeen[issue] = (Int32(streak), Int32(sorted[sorted.count - 1]))
        }
        try database.forEachRow(
            """
            SELECT now.issue_id, seen.run_id
            FROM run_issues AS now JOIN run_issues AS seen ON seen.issue_id = now.issue_id AND seen.run_id <= now.run_id
            WHERE now.run_id = ? ORDER BY now.issue_id
            """,
            [runValue]
        ) { row in
            if row.int64(0) != issue {
                settle()
                issue = row.int64(0)
                seen.removeAll(keepingCapacity: true)
            }
            if let position = positions[RunID(row.int64(1))] { seen.append(position) }
        }
        settle()
        let impactRank: SQL = "CASE now.impact WHEN 'critical' THEN 3 WHEN 'serious' THEN 2 WHEN 'moderate' THEN 1 ELSE 0 END"
        var evidenceReader = RunStore.EvidenceReader()
        try database.forEachRow(
            """
            SELECT issue.issue_key, now.rule_id, now.impact, now.outcome, now.owner, now.page_type,
                   now.component_key, now.instances, now.findings,
                   pages.url, detail.target, detail.snippet, detail.message, detail.evidence, now.issue_id,
                   EXISTS (SELECT 1 FROM run_issues AS before WHERE before.run_id = ? AND before.issue_id = now.issue_id),
                   origin.first_seen_run_id, origin.first_seen_at, origin.streak_run_id, origin.streak_started_at
            FROM run_issues AS now
            JOIN issue_keys AS issue ON issue.id = now.issue_id
            JOIN findings ON findings.id = now.example_finding_id
            JOIN finding_details AS detail ON detail.id = findings.detail_id
            JOIN pages ON pages.id = findings.page_id
            LEFT JOIN issue_origins AS origin ON origin.issue_key = issue.issue_key
            WHERE now.run_id = ?
            ORDER BY now.outcome = 'violation' DESC, \(impactRank) DESC, now.instances DESC, now.rule_id, issue.issue_key
            """,
            [previous.map { .integer($0.rawValue) } ?? .null, runValue]
        ) { row in
            let latest = completeRuns.count - 1
            let seen = firstSeen[row.int64(14)].map { (Int($0.streak), Int($0.ever)) } ?? (latest, latest)
            var (streak, ever) = (completeRuns[max(0, seen.0)], completeRuns[max(0, seen.1)])
            // An issue that began in runs a prune deleted: where it began is kept apart.
            if !row.isNull(16) {
                ever = (RunID(row.int64(16)), Date(timeIntervalSince1970: row.double(17)))
                // Only a streak that reaches the oldest run left can go on into the deleted ones.
                if seen.0 == 0, !row.isNull(18) { streak = (RunID(row.int64(18)), Date(timeIntervalSince1970: row.double(19))) }
            }
            try body(OpenIssue(
                issueKey: row.string(0), ruleId: row.string(1), impact: row.string(2), outcome: row.string(3), owner: row.optionalString(4),
                pageType: row.optionalString(5), component: row.optionalString(6), pageCount: row.int(7), findingCount: row.int(8),
                firstSeenRunId: streak.0, firstSeenAt: streak.1, firstSeenEverRunId: ever.0, firstSeenEverAt: ever.1,
                isNew: previous != nil && row.int(15) == 0,
                example: IssueExample(
                    url: row.string(9), target: row.string(10), snippet: row.string(11), message: row.string(12),
                    evidence: try row.optionalString(13).map { try evidenceReader.evidence(fromJSON: $0) }
                )
            ))
        }
    }

    private func pages(of run: RunID, findingsPerPage: Int? = nil) throws -> [PageDrillDown] {
        var pages: [PageDrillDown] = []
        try forEachPage(of: run, findingsPerPage: findingsPerPage) { pages.append($0) }
        return pages
    }

    /// The run's pages with their findings in URL order, one at a time: trend.json's drill-down
    /// is written page by page, so a 100,000-page run is never held whole.
    func forEachPage(of run: RunID, findingsPerPage: Int? = nil, _ body: (PageDrillDown) throws -> Void) throws {
        try database.forEachRow(
            "SELECT id, url, final_url, title, page_type, status_code, error, run_id, not_audited FROM pages WHERE run_id = ? ORDER BY url", [.integer(run.rawValue)]
        ) { row in
            try body(try page(row, findingsPerPage: findingsPerPage))
        }
    }

    /// The pages the HTML drill-down shows: every page when there are at most `limit`, else the
    /// `limit` most worth opening (failures first, then most findings), chosen by the database.
    func drillDown(of run: RunID, limit: Int, findingsPerPage: Int?) throws -> (total: Int, pages: [PageDrillDown]) {
        let runValue = SQLiteValue.integer(run.rawValue)
        let total = try database.queryFirst("SELECT COUNT(*) FROM pages WHERE run_id = ?", [runValue]) { $0.int(0) } ?? 0
        guard total > limit else { return (total, try pages(of: run, findingsPerPage: findingsPerPage)) }
        let pages = try database.query(
            """
            SELECT id, url, final_url, title, page_type, status_code, error, run_id, not_audited FROM (
                SELECT pages.*, (SELECT COUNT(*) FROM findings JOIN run_issues
                                 ON run_issues.run_id = findings.run_id AND run_issues.issue_id = findings.issue_id
                                 WHERE findings.run_id = pages.run_id AND findings.page_id = pages.id) AS finding_count
                FROM pages WHERE run_id = ?
            )
            WHERE error IS NOT NULL OR not_audited = 'client-rendered' OR finding_count > 0
            ORDER BY error IS NOT NULL OR not_audited = 'client-rendered' DESC, finding_count DESC, url LIMIT ?
            """,
            [runValue, .integer(Int64(limit))]
        ) { try page($0, findingsPerPage: findingsPerPage) }
        return (total, pages)
    }

    /// A page from a row of id, url, final_url, title, page_type, status_code, error, run_id,
    /// not_audited, with all its findings or the first `findingsPerPage` and their counts.
    private func page(_ row: SQLiteRow, findingsPerPage: Int? = nil) throws -> PageDrillDown {
        let keys: [SQLiteValue] = [.integer(row.int64(7)), .integer(row.int64(0))]
        // -1: no limit, in SQLite's terms.
        let findings = try database.query(
            """
            SELECT issue.issue_key, detail.rule_id, detail.impact, detail.outcome, detail.target,
                   detail.owner, run_issues.component_key
            FROM findings JOIN run_issues ON run_issues.run_id = findings.run_id AND run_issues.issue_id = findings.issue_id
            \(RunStore.findingText)
            WHERE findings.run_id = ? AND findings.page_id = ? ORDER BY findings.id LIMIT ?
            """,
            keys + [.integer(Int64(findingsPerPage ?? -1))]
        ) { row in
            PageFinding(
                issueKey: row.string(0), ruleId: row.string(1), impact: row.string(2), outcome: row.string(3), target: row.string(4),
                owner: row.optionalString(5), component: row.optionalString(6)
            )
        }
        var page = PageDrillDown(
            url: row.string(1), finalUrl: row.optionalString(2), title: row.optionalString(3), pageType: row.optionalString(4),
            statusCode: row.optionalInt(5), error: row.optionalString(6), findings: findings, notAudited: row.optionalString(8)
        )
        if let findingsPerPage, findings.count == findingsPerPage {
            page.counts = try database.queryFirst(
                """
                SELECT COUNT(*), COALESCE(SUM(detail.outcome = 'violation'), 0)
                FROM findings JOIN run_issues ON run_issues.run_id = findings.run_id AND run_issues.issue_id = findings.issue_id
                JOIN finding_details AS detail ON detail.id = findings.detail_id
                WHERE findings.run_id = ? AND findings.page_id = ?
                """,
                keys
            ) { PageDrillDown.FindingCounts(violations: $0.int(1), total: $0.int(0)) }
        }
        return page
    }
}
