import CanopyStore
import CanopyRules
import Foundation

/// A site's accessibility over its complete runs, and the open issues of the latest one.
///
/// The JSON form (`jsonData()`, in CanopyReports) is an interface for dashboards: field names are camelCase and
/// stable, dates ISO 8601, and docs/trend-json.md documents every field. Add fields (to
/// CanopyReports' `TrendJSONWriter` too, which writes them a piece at a time); do not rename or
/// remove them without raising `formatVersion`.
public struct TrendReport: Codable, Sendable, Equatable {
    /// The version of this JSON shape.
    public var formatVersion: Int
    public var generatedAt: Date
    /// Complete runs, oldest first. Running and interrupted runs are never part of a trend.
    public var runs: [RunTrend]
    /// The latest complete run's issues and pages, nil when no run is complete.
    public var latest: LatestRun?

    public static let currentFormatVersion = 1


    public init(formatVersion: Int, generatedAt: Date, runs: [RunTrend], latest: LatestRun? = nil) {
        self.formatVersion = formatVersion
        self.generatedAt = generatedAt
        self.runs = runs
        self.latest = latest
    }
}

/// One complete run in the trend.
public struct RunTrend: Codable, Sendable, Equatable {
    public var runId: RunID
    public var startedAt: Date
    public var endedAt: Date?
    public var canopyVersion: String
    public var ruleSetName: String
    public var coverage: RunCoverage
    /// Violations: unique issues, instances (issue × page) and findings (failing elements).
    public var violations: IssueTotals
    /// Elements that need a person's review (axe-core's incomplete).
    public var needsReview: IssueTotals
    /// Violations by impact, most severe first.
    public var byImpact: [GroupTotals]
    /// Violations by rule, with the rule's passing elements over the run.
    public var byRule: [RuleTotals]
    /// Violations outside site-wide components, by page type.
    public var byPageType: [GroupTotals]
    /// Violations inside site-wide components, by component.
    public var byComponent: [GroupTotals]
    /// Violations by owner: `firstParty` true for the site's own markup, else the vendor's name.
    public var byOwner: [OwnerTotals]
    /// Against the previous complete run; nil for the first one.
    public var comparison: RunComparison?

    public init(runId: RunID, startedAt: Date, endedAt: Date? = nil, canopyVersion: String, ruleSetName: String, coverage: RunCoverage, violations: IssueTotals, needsReview: IssueTotals, byImpact: [GroupTotals], byRule: [RuleTotals], byPageType: [GroupTotals], byComponent: [GroupTotals], byOwner: [OwnerTotals], comparison: RunComparison? = nil) {
        self.runId = runId
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.canopyVersion = canopyVersion
        self.ruleSetName = ruleSetName
        self.coverage = coverage
        self.violations = violations
        self.needsReview = needsReview
        self.byImpact = byImpact
        self.byRule = byRule
        self.byPageType = byPageType
        self.byComponent = byComponent
        self.byOwner = byOwner
        self.comparison = comparison
    }
}

public struct IssueTotals: Codable, Sendable, Equatable {
    public var issues: Int
    public var instances: Int
    public var findings: Int

    public init(issues: Int, instances: Int, findings: Int) {
        self.issues = issues
        self.instances = instances
        self.findings = findings
    }
}

public struct GroupTotals: Codable, Sendable, Equatable {
    public var name: String
    public var issues: Int
    public var instances: Int

    public init(name: String, issues: Int, instances: Int) {
        self.name = name
        self.issues = issues
        self.instances = instances
    }
}

public struct RuleTotals: Codable, Sendable, Equatable {
    public var ruleId: String
    public var issues: Int
    public var instances: Int
    public var findings: Int
    public var passes: Int

    public init(ruleId: String, issues: Int, instances: Int, findings: Int, passes: Int) {
        self.ruleId = ruleId
        self.issues = issues
        self.instances = instances
        self.findings = findings
        self.passes = passes
    }
}

public struct OwnerTotals: Codable, Sendable, Equatable {
    /// nil for first-party markup.
    public var owner: String?
    public var firstParty: Bool
    public var issues: Int
    public var instances: Int

    public init(owner: String? = nil, firstParty: Bool, issues: Int, instances: Int) {
        self.owner = owner
        self.firstParty = firstParty
        self.issues = issues
        self.instances = instances
    }
}

/// What changed since the previous complete run.
public struct RunComparison: Codable, Sendable, Equatable {
    public var previousRunId: RunID
    /// Violation issues in this run and not in the previous one.
    public var newIssues: Int
    /// Violation issues in the previous run and not in this one.
    public var fixedIssues: Int
    /// Violation issues in both.
    public var persistingIssues: Int
    /// Violation instances (issue × page) in this run and not in the previous one: new issues'
    /// pages, and pages a persisting issue spread to.
    public var newInstances: Int
    /// Violation instances in the previous run and not in this one.
    public var fixedInstances: Int
    /// Violation instances in both.
    public var persistingInstances: Int
    /// The rule set's hash differs: a jump in counts may come from the rules, not the site.
    public var ruleSetChanged: Bool
    public var rulesAdded: [String]
    public var rulesRemoved: [String]
    public var configChanged: Bool
    public var canopyVersionChanged: Bool
    /// Readable reasons, e.g. "rules added: image-alt", "configuration changed".
    public var changes: [String]

    public init(previousRunId: RunID, newIssues: Int, fixedIssues: Int, persistingIssues: Int, newInstances: Int, fixedInstances: Int, persistingInstances: Int, ruleSetChanged: Bool, rulesAdded: [String], rulesRemoved: [String], configChanged: Bool, canopyVersionChanged: Bool, changes: [String]) {
        self.previousRunId = previousRunId
        self.newIssues = newIssues
        self.fixedIssues = fixedIssues
        self.persistingIssues = persistingIssues
        self.newInstances = newInstances
        self.fixedInstances = fixedInstances
        self.persistingInstances = persistingInstances
        self.ruleSetChanged = ruleSetChanged
        self.rulesAdded = rulesAdded
        self.rulesRemoved = rulesRemoved
        self.configChanged = configChanged
        self.canopyVersionChanged = canopyVersionChanged
        self.changes = changes
    }
}

/// The latest complete run's open issues and pages.
public struct LatestRun: Codable, Sendable, Equatable {
    public var runId: RunID
    /// Violations and needs-review issues, most severe and widespread first.
    public var openIssues: [OpenIssue]
    /// Page types with their page counts, for coverage by template.
    public var pageTypes: [GroupCount]
    /// Site-wide components with the number of pages holding them.
    public var components: [GroupCount]
    /// Every page of the run with its findings, for drill-down.
    public var pages: [PageDrillDown]
    /// Pages not audited because their content depends on scripts, with the signals that said
    /// so, in URL order (the first `clientRenderedListLimit`; `coverage.notAudited` counts them all).
    public var clientRenderedPages: [ClientRenderedPage] = []

    public static let clientRenderedListLimit = 500

    public init(
        runId: RunID, openIssues: [OpenIssue], pageTypes: [GroupCount], components: [GroupCount], pages: [PageDrillDown],
        clientRenderedPages: [ClientRenderedPage] = []
    ) {
        self.runId = runId
        self.openIssues = openIssues
        self.pageTypes = pageTypes
        self.components = components
        self.pages = pages
        self.clientRenderedPages = clientRenderedPages
    }
}

public struct ClientRenderedPage: Codable, Sendable, Equatable {
    public var url: String
    /// The detector's signals, in words.
    public var signals: [String]

    public init(url: String, signals: [String]) {
        self.url = url
        self.signals = signals
    }
}

public struct GroupCount: Codable, Sendable, Equatable {
    public var name: String
    public var pages: Int

    public init(name: String, pages: Int) {
        self.name = name
        self.pages = pages
    }
}

public struct OpenIssue: Codable, Sendable, Equatable {
    public var issueKey: String
    public var ruleId: String
    public var impact: String
    /// `violation` or `incomplete`.
    public var outcome: String
    public var owner: String?
    /// The page type for a template issue; nil for a component issue.
    public var pageType: String?
    /// The site-wide component holding it (e.g. `footer`); nil for a template issue.
    public var component: String?
    /// Pages with an instance of the issue.
    public var pageCount: Int
    public var findingCount: Int
    /// Where the issue's current streak began: the earliest complete run from which every complete
    /// run up to the latest has it. An issue that was fixed and came back starts again: its age is
    /// that of the regression.
    public var firstSeenRunId: RunID
    public var firstSeenAt: Date
    /// The earliest complete run that ever had the issue; before `firstSeenRunId` when it came back.
    public var firstSeenEverRunId: RunID
    public var firstSeenEverAt: Date
    /// Not in the previous complete run.
    public var isNew: Bool
    public var example: IssueExample

    public init(issueKey: String, ruleId: String, impact: String, outcome: String, owner: String? = nil, pageType: String? = nil, component: String? = nil, pageCount: Int, findingCount: Int, firstSeenRunId: RunID, firstSeenAt: Date, firstSeenEverRunId: RunID, firstSeenEverAt: Date, isNew: Bool, example: IssueExample) {
        self.issueKey = issueKey
        self.ruleId = ruleId
        self.impact = impact
        self.outcome = outcome
        self.owner = owner
        self.pageType = pageType
        self.component = component
        self.pageCount = pageCount
        self.findingCount = findingCount
        self.firstSeenRunId = firstSeenRunId
        self.firstSeenAt = firstSeenAt
        self.firstSeenEverRunId = firstSeenEverRunId
        self.firstSeenEverAt = firstSeenEverAt
        self.isNew = isNew
        self.example = example
    }
}

public struct IssueExample: Codable, Sendable, Equatable {
    public var url: String
    public var target: String
    public var snippet: String
    public var message: String
    /// What the rule measured (a contrast ratio and its colours), when it measured anything.
    public var evidence: [String: EvidenceValue]?

    public init(url: String, target: String, snippet: String, message: String, evidence: [String: EvidenceValue]? = nil) {
        self.url = url
        self.target = target
        self.snippet = snippet
        self.message = message
        self.evidence = evidence
    }
}

public struct PageDrillDown: Codable, Sendable, Equatable {
    public var url: String
    public var finalUrl: String?
    public var title: String?
    public var pageType: String?
    public var statusCode: Int?
    public var error: String?
    public var findings: [PageFinding]
    /// Why the page was fetched but not audited (`client-rendered`, `not HTML`, `redirect`...);
    /// a client-rendered page lists the findings of its last audit.
    public var notAudited: String?
    /// How many findings the page has, when `findings` lists only the first of them (the HTML
    /// drill-down's pages: a page with thousands of findings shows a hundred). Not in trend.json,
    /// whose pages list every finding.
    public var counts: FindingCounts?

    public struct FindingCounts: Sendable, Equatable {
        public var violations: Int
        public var total: Int

        public init(violations: Int, total: Int) {
            self.violations = violations
            self.total = total
        }
    }

    /// Violations among all the page's findings, listed or not.
    public var violationCount: Int { counts?.violations ?? findings.count { $0.outcome == "violation" } }
    /// All the page's findings, listed or not.
    public var findingCount: Int { counts?.total ?? findings.count }

    private enum CodingKeys: String, CodingKey {
        case url, finalUrl, title, pageType, statusCode, error, findings, notAudited
    }

    public init(
        url: String, finalUrl: String? = nil, title: String? = nil, pageType: String? = nil, statusCode: Int? = nil, error: String? = nil,
        findings: [PageFinding], notAudited: String? = nil
    ) {
        self.notAudited = notAudited
        self.url = url
        self.finalUrl = finalUrl
        self.title = title
        self.pageType = pageType
        self.statusCode = statusCode
        self.error = error
        self.findings = findings
    }
}

public struct PageFinding: Codable, Sendable, Equatable {
    public var issueKey: String
    public var ruleId: String
    public var impact: String
    public var outcome: String
    public var target: String
    public var owner: String?
    public var component: String?

    public init(issueKey: String, ruleId: String, impact: String, outcome: String, target: String, owner: String? = nil, component: String? = nil) {
        self.issueKey = issueKey
        self.ruleId = ruleId
        self.impact = impact
        self.outcome = outcome
        self.target = target
        self.owner = owner
        self.component = component
    }
}
