import CanopyStore
import Foundation

/// What changed on a site since the run before, short enough to paste into a chat: the numbers,
/// the new issues grouped by rule and where they are, the biggest fixes, the oldest open issues,
/// and pages that vanished or stopped answering. Written as digest.md and digest.json after every
/// crawl (docs/digest.md documents the JSON); field names are stable, add rather than rename.
public struct WeeklyDigest: Codable, Sendable, Equatable {
    public static let currentFormatVersion = 1

    public var formatVersion = WeeklyDigest.currentFormatVersion
    public var site: String
    public var runId: RunID
    public var startedAt: Date
    public var pages: Pages
    public var violations: IssueTotals
    public var needsReview: IssueTotals
    /// Against the previous complete run; nil for the first run.
    public var change: Change?
    /// Violation issues new in this run, by rule and then by page type or component.
    public var newIssues: [NewIssueGroup]
    /// Violation issues of the previous run that are gone, most pages first.
    public var biggestFixes: [DigestIssue]
    /// Violation issues open longest (by the start of their current streak), oldest first.
    public var oldestOpen: [DigestIssue]
    public var coverage: CoverageChange

    public struct Pages: Codable, Sendable, Equatable {
        public var planned: Int
        public var audited: Int
        public var failed: Int
    }

    public struct Change: Codable, Sendable, Equatable {
        public var previousRunId: RunID
        public var previousStartedAt: Date
        public var newIssues: Int
        public var fixedIssues: Int
        public var persistingIssues: Int
        public var newInstances: Int
        public var fixedInstances: Int
        /// The violation issue count then, to show the change as "41 → 37".
        public var previousViolationIssues: Int
        /// Why counts may have moved for reasons other than the site: rules, configuration, version.
        public var caveats: [String]
    }

    public struct NewIssueGroup: Codable, Sendable, Equatable {
        public var ruleId: String
        public var impact: String
        /// Page type (a URL pattern such as `/product/*`) or site-wide component; nil for neither.
        public var pageType: String?
        public var component: String?
        public var issues: [DigestIssue]
        public var pages: Int
    }

    public struct DigestIssue: Codable, Sendable, Equatable {
        public var issueKey: String
        public var ruleId: String
        public var impact: String
        public var pageType: String?
        public var component: String?
        public var owner: String?
        public var pages: Int
        public var firstSeenAt: Date?
        public var exampleUrl: String?
    }

    public struct CoverageChange: Codable, Sendable, Equatable {
        /// Audited in the previous run, absent from this one.
        public var vanishedPages: Int
        public var vanishedExamples: [String]
        /// Failed in this run (unreachable, error status).
        public var failedPages: Int
        /// Failed now and did not fail in the previous run.
        public var newlyFailedPages: Int
        public var failedExamples: [FailedPage]
        /// The run's coverage: pages audited, not audited by reason, failed by kind, frames, stylesheets.
        public var run: RunCoverage
        /// Pages not audited because their content depends on scripts (`problem`: the signals).
        public var clientRenderedExamples: [FailedPage]
    }

    public struct FailedPage: Codable, Sendable, Equatable {
        public var url: String
        public var problem: String
    }

    /// The digest of the trend's latest run, or nil when no run is complete. `details` comes from
    /// `RunStore.digestDetails`; lists are cut to `listLimit` entries.
    public init?(trend: TrendReport, details: DigestDetails, site: String, listLimit: Int = 10) {
        var openIssues = OpenIssueLists(listLimit: listLimit)
        for issue in trend.latest?.openIssues ?? [] { openIssues.add(issue) }
        self.init(trend: trend, openIssues: openIssues, details: details, site: site)
    }

    /// The same, with the latest run's open issues gathered apart (`RunStore.forEachOpenIssue`),
    /// for a trend read without them.
    public init?(trend: TrendReport, openIssues: OpenIssueLists, details: DigestDetails, site: String) {
        guard let run = trend.runs.last, let latest = trend.latest else { return nil }
        let listLimit = openIssues.listLimit
        self.site = site
        runId = run.runId
        startedAt = run.startedAt
        pages = Pages(planned: run.coverage.planned, audited: run.coverage.crawled, failed: run.coverage.failed)
        violations = run.violations
        needsReview = run.needsReview
        let previousRun = trend.runs.dropLast().last
        change = run.comparison.map { comparison in
            Change(
                previousRunId: comparison.previousRunId, previousStartedAt: previousRun?.startedAt ?? details.previousStartedAt ?? run.startedAt,
                newIssues: comparison.newIssues, fixedIssues: comparison.fixedIssues, persistingIssues: comparison.persistingIssues,
                newInstances: comparison.newInstances, fixedInstances: comparison.fixedInstances,
                previousViolationIssues: comparison.fixedIssues + comparison.persistingIssues, caveats: comparison.changes
            )
        }
        let rank = ["critical": 3, "serious": 2, "moderate": 1, "minor": 0]
        newIssues = Array(openIssues.newIssueGroups.values.sorted {
            (rank[$0.impact, default: 0], $0.pages, $1.ruleId, $1.component ?? $1.pageType ?? "") > (rank[$1.impact, default: 0], $1.pages, $0.ruleId, $0.component ?? $0.pageType ?? "")
        }
        .prefix(listLimit))
        biggestFixes = Array(details.fixedIssues.prefix(listLimit))
        oldestOpen = openIssues.oldestOpen
        coverage = CoverageChange(
            vanishedPages: details.vanishedPages.count, vanishedExamples: Array(details.vanishedPages.prefix(listLimit)),
            failedPages: details.failedPages.count, newlyFailedPages: details.newlyFailed,
            failedExamples: Array(details.failedPages.prefix(listLimit)), run: run.coverage,
            clientRenderedExamples: latest.clientRenderedPages.prefix(listLimit).map {
                FailedPage(url: $0.url, problem: $0.signals.joined(separator: "; "))
            }
        )
    }

    /// What the digest takes from the latest run's open violations, gathered one issue at a time:
    /// the new ones by rule and place, and the oldest. Only `listLimit` issues of each list are
    /// kept (with every group's page total), so a site with 100,000 issues costs what one with
    /// a hundred does.
    public struct OpenIssueLists: Sendable {
        public let listLimit: Int
        /// By rule, component and page type; each group's `issues` the ones with the most pages.
        fileprivate var newIssueGroups: [String: NewIssueGroup] = [:]
        /// By the start of their current streak, oldest first.
        fileprivate var oldestOpen: [DigestIssue] = []

        public init(listLimit: Int = 10) {
            self.listLimit = listLimit
        }

        public mutating func add(_ issue: OpenIssue) {
            guard issue.outcome == "violation" else { return }
            let digestIssue = WeeklyDigest.digestIssue(issue)
            if issue.isNew {
                let key = [issue.ruleId, issue.component ?? "", issue.pageType ?? ""].joined(separator: "\u{1F}")
                var group = newIssueGroups[key] ?? NewIssueGroup(
                    ruleId: issue.ruleId, impact: issue.impact, pageType: issue.component == nil ? issue.pageType : nil, component: issue.component,
                    issues: [], pages: 0
                )
                group.pages += issue.pageCount
                Self.keep(digestIssue, in: &group.issues, limit: listLimit) { ($0.pages, $1.issueKey) > ($1.pages, $0.issueKey) }
                newIssueGroups[key] = group
            }
            Self.keep(digestIssue, in: &oldestOpen, limit: listLimit) { left, right in
                (left.firstSeenAt ?? .distantPast, right.pages, left.issueKey) < (right.firstSeenAt ?? .distantPast, left.pages, right.issueKey)
            }
        }

        /// Puts `issue` in its place in `list`, sorted by `precedes`, and keeps the first `limit`.
        private static func keep(_ issue: DigestIssue, in list: inout [DigestIssue], limit: Int, by precedes: (DigestIssue, DigestIssue) -> Bool) {
            // A full list keeps only what goes before its last: nearly every issue of a large run
            // is turned away by one comparison, where looking for its place copied each issue of
            // the list (callgrind: 71,000 copies for 7,000 issues).
            if list.count >= limit, let last = list.last, !precedes(issue, last) { return }
            let index = list.firstIndex { precedes(issue, $0) } ?? list.endIndex
            guard index < limit else { return }
            list.insert(issue, at: index)
            if list.count > limit { list.removeLast() }
        }
    }

    fileprivate static func digestIssue(_ issue: OpenIssue) -> DigestIssue {
        DigestIssue(
            issueKey: issue.issueKey, ruleId: issue.ruleId, impact: issue.impact, pageType: issue.pageType, component: issue.component,
            owner: issue.owner, pages: issue.pageCount, firstSeenAt: issue.firstSeenAt, exampleUrl: issue.example.url
        )
    }
}

/// What the digest needs beyond the trend: the previous run's fixed issues and the pages that
/// vanished or failed. Read from the stored runs, not from the findings of either.
public struct DigestDetails: Sendable, Equatable {
    public var previousStartedAt: Date?
    public var fixedIssues: [WeeklyDigest.DigestIssue] = []
    public var vanishedPages: [String] = []
    public var failedPages: [WeeklyDigest.FailedPage] = []
    public var newlyFailed = 0

    public init(previousStartedAt: Date? = nil) {
        self.previousStartedAt = previousStartedAt
    }
}

extension RunStore {
    /// The digest's details for complete run `run` against complete run `previous` (nil for the first).
    public func digestDetails(run: RunID, previous: RunID?) throws -> DigestDetails {
        try withDatabase { database in
            try database.transaction(immediate: false) {
                let now = SQLiteValue.integer(run.rawValue)
                var details = DigestDetails()
                try database.forEachRow(
                    "SELECT url, status_code, error FROM pages WHERE run_id = ? AND (error IS NOT NULL OR status_code >= 400) ORDER BY url", [now]
                ) { row in
                    let problem = row.optionalString(2) ?? "HTTP \(row.int(1))"
                    details.failedPages.append(WeeklyDigest.FailedPage(url: row.string(0), problem: problem))
                }
                guard let previous else { return details }
                let before = SQLiteValue.integer(previous.rawValue)
                details.previousStartedAt = try database.queryFirst("SELECT started_at FROM runs WHERE id = ?", [before]) {
                    Date(timeIntervalSince1970: $0.double(0))
                }
                details.fixedIssues = try database.query(
                    """
                    SELECT issue.issue_key, before.rule_id, before.impact, before.page_type, before.component_key, before.owner, before.instances,
                           pages.url
                    FROM run_issues AS before
                    JOIN issue_keys AS issue ON issue.id = before.issue_id
                    JOIN findings ON findings.id = before.example_finding_id
                    JOIN pages ON pages.id = findings.page_id
                    WHERE before.run_id = ? AND before.outcome = 'violation'
                      AND NOT EXISTS (SELECT 1 FROM run_issues AS now WHERE now.run_id = ? AND now.issue_id = before.issue_id)
                    ORDER BY before.instances DESC, before.rule_id, issue.issue_key
                    """,
                    [before, now]
                ) { row in
                    WeeklyDigest.DigestIssue(
                        issueKey: row.string(0), ruleId: row.string(1), impact: row.string(2), pageType: row.optionalString(3),
                        component: row.optionalString(4), owner: row.optionalString(5), pages: row.int(6), firstSeenAt: nil,
                        exampleUrl: row.string(7)
                    )
                }
                details.vanishedPages = try database.query(
                    """
                    SELECT url FROM pages AS earlier
                    WHERE earlier.run_id = ? AND earlier.error IS NULL AND earlier.audit_ms IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM pages AS current WHERE current.run_id = ? AND current.url = earlier.url)
                    ORDER BY url
                    """,
                    [before, now]
                ) { $0.string(0) }
                details.newlyFailed = try database.queryFirst(
                    """
                    SELECT COUNT(*) FROM pages AS now
                    WHERE now.run_id = ? AND (now.error IS NOT NULL OR now.status_code >= 400)
                      AND NOT EXISTS (SELECT 1 FROM pages AS earlier WHERE earlier.run_id = ? AND earlier.url = now.url
                                      AND (earlier.error IS NOT NULL OR earlier.status_code >= 400))
                    """,
                    [now, before]
                ) { $0.int(0) } ?? 0
                return details
            }
        }
    }
}
