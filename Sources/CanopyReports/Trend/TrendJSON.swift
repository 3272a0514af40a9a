import CanopyHistory
import CanopyRules
import CanopyStore
import Foundation

/// trend.json: the trend report for dashboards (docs/trend-json.md).
extension TrendReport {
    /// The report as JSONEncoder would write it (sorted keys, ISO 8601 dates), in memory, with the
    /// issues and pages it holds; `ReportWriter` writes trend.json a piece at a time instead.
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        try TrendJSONWriter.data(self, pretty: prettyPrinted)
    }

    public static func decode(_ data: Data) throws -> TrendReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(TrendReport.self, from: data)
    }
}

/// Writes trend.json as JSONEncoder would (tests hold the two to the same bytes), a piece at a
/// time: the runs and the short lists from the report, the open issues and the pages one at a
/// time as the store reads them, so neither list is ever held whole (a 10,000-page site has over
/// 100,000 open issues).
///
/// `init` writes everything up to the open issues, `add` each issue in the trend's order, and
/// `finish` the rest; when no run is complete there are no issues and `finish` only closes.
struct TrendJSONWriter {
    private var json: JSONStreamWriter
    private let report: TrendReport

    init(report: TrendReport, pretty: Bool = true, sink: ByteSink?) {
        self.report = report
        json = JSONStreamWriter(pretty: pretty, sink: sink)
        // Keys in the order `.sortedKeys` gives them, here and in every writer below.
        json.beginObject()
        json.member("formatVersion", report.formatVersion)
        json.member("generatedAt", report.generatedAt)
        guard let latest = report.latest else { return }
        json.key("latest")
        json.beginObject()
        json.key("clientRenderedPages")
        json.beginArray()
        for page in latest.clientRenderedPages {
            json.beginObject()
            json.member("signals", page.signals)
            json.member("url", page.url)
            json.endObject()
        }
        json.endArray()
        json.key("components")
        json.write(latest.components)
        json.key("openIssues")
        json.beginArray()
    }

    /// The next open issue of the latest run.
    mutating func add(_ issue: OpenIssue) throws {
        try json.write(issue)
        try json.flushIfFull()
    }

    /// The latest run's pages from `forEachPage`, then the runs.
    mutating func finish(pages forEachPage: ((PageDrillDown) throws -> Void) throws -> Void) throws {
        try finish(writingPages: { json in try Self.write(pages: forEachPage, to: &json) })
    }

    /// The latest run's pages as `writePages(pretty:to:_:)` wrote them, then the runs.
    mutating func finish(pagesFrom scratch: ScratchFile) throws {
        try finish(writingPages: { json in try json.append(elementsFrom: scratch, writtenAtDepth: Self.pagesDepth) })
    }

    /// How deep the pages are: in the array `pages` of the object `latest` of the report.
    private static let pagesDepth = 3

    /// The elements of trend.json's `pages` array, apart from the rest of the file, for
    /// `finish(pagesFrom:)` to take in: written on a thread of their own while the open issues
    /// are written on another.
    static func writePages(pretty: Bool = true, to sink: ByteSink, _ forEachPage: ((PageDrillDown) throws -> Void) throws -> Void) throws {
        var json = JSONStreamWriter(pretty: pretty, sink: sink, elementsOfArrayAtDepth: pagesDepth)
        try write(pages: forEachPage, to: &json)
        try json.finishElements()
    }

    private static func write(pages forEachPage: ((PageDrillDown) throws -> Void) throws -> Void, to json: inout JSONStreamWriter) throws {
        try forEachPage { page in
            json.write(page)
            try json.flushIfFull()
        }
    }

    private mutating func finish(writingPages writePages: (inout JSONStreamWriter) throws -> Void) throws {
        if let latest = report.latest {
            json.endArray()
            json.key("pageTypes")
            json.write(latest.pageTypes)
            json.key("pages")
            json.beginArray()
            try writePages(&json)
            json.endArray()
            json.member("runId", Int(latest.runId.rawValue))
            json.endObject()
        }
        json.key("runs")
        json.beginArray()
        for run in report.runs {
            json.write(run)
            try json.flushIfFull()
        }
        json.endArray()
        json.endObject()
        try json.finish()
    }

    /// The whole report with the issues and pages it holds, in memory (tests, small reports).
    static func data(_ report: TrendReport, pretty: Bool = true) throws -> Data {
        var writer = TrendJSONWriter(report: report, pretty: pretty, sink: nil)
        for issue in report.latest?.openIssues ?? [] { try writer.add(issue) }
        try writer.finish { body in
            for page in report.latest?.pages ?? [] { try body(page) }
        }
        return Data(writer.json.bytes)
    }
}

extension JSONStreamWriter {
    mutating func write(_ issue: OpenIssue) throws {
        beginObject()
        member("component", issue.component)
        key("example")
        beginObject()
        if let evidence = issue.example.evidence {
            key("evidence")
            try write(evidence)
        }
        member("message", issue.example.message)
        member("snippet", issue.example.snippet)
        member("target", issue.example.target)
        member("url", issue.example.url)
        endObject()
        member("findingCount", issue.findingCount)
        member("firstSeenAt", issue.firstSeenAt)
        member("firstSeenEverAt", issue.firstSeenEverAt)
        member("firstSeenEverRunId", Int(issue.firstSeenEverRunId.rawValue))
        member("firstSeenRunId", Int(issue.firstSeenRunId.rawValue))
        member("impact", issue.impact)
        member("isNew", issue.isNew)
        member("issueKey", issue.issueKey)
        member("outcome", issue.outcome)
        member("owner", issue.owner)
        member("pageCount", issue.pageCount)
        member("pageType", issue.pageType)
        member("ruleId", issue.ruleId)
        endObject()
    }

    mutating func write(_ evidence: [String: EvidenceValue]) throws {
        beginObject()
        for (name, value) in evidence.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            key(name)
            switch value {
            case .text(let text): string(text)
            case .number(let number): try double(number)
            }
        }
        endObject()
    }

    mutating func write(_ page: PageDrillDown) {
        beginObject()
        member("error", page.error)
        member("finalUrl", page.finalUrl)
        key("findings")
        beginArray()
        for finding in page.findings {
            beginObject()
            member("component", finding.component)
            member("impact", finding.impact)
            member("issueKey", finding.issueKey)
            member("outcome", finding.outcome)
            member("owner", finding.owner)
            member("ruleId", finding.ruleId)
            member("target", finding.target)
            endObject()
        }
        endArray()
        member("notAudited", page.notAudited)
        member("pageType", page.pageType)
        member("statusCode", page.statusCode)
        member("title", page.title)
        member("url", page.url)
        endObject()
    }

    mutating func write(_ counts: [GroupCount]) {
        beginArray()
        for group in counts {
            beginObject()
            member("name", group.name)
            member("pages", group.pages)
            endObject()
        }
        endArray()
    }

    mutating func write(_ run: RunTrend) {
        beginObject()
        key("byComponent")
        write(run.byComponent)
        key("byImpact")
        write(run.byImpact)
        key("byOwner")
        beginArray()
        for owner in run.byOwner {
            beginObject()
            member("firstParty", owner.firstParty)
            member("instances", owner.instances)
            member("issues", owner.issues)
            member("owner", owner.owner)
            endObject()
        }
        endArray()
        key("byPageType")
        write(run.byPageType)
        key("byRule")
        beginArray()
        for rule in run.byRule {
            beginObject()
            member("findings", rule.findings)
            member("instances", rule.instances)
            member("issues", rule.issues)
            member("passes", rule.passes)
            member("ruleId", rule.ruleId)
            endObject()
        }
        endArray()
        member("canopyVersion", run.canopyVersion)
        if let comparison = run.comparison {
            key("comparison")
            write(comparison)
        }
        key("coverage")
        write(run.coverage)
        member("endedAt", run.endedAt)
        key("needsReview")
        write(run.needsReview)
        member("ruleSetName", run.ruleSetName)
        member("runId", Int(run.runId.rawValue))
        member("startedAt", run.startedAt)
        key("violations")
        write(run.violations)
        endObject()
    }

    mutating func write(_ groups: [GroupTotals]) {
        beginArray()
        for group in groups {
            beginObject()
            member("instances", group.instances)
            member("issues", group.issues)
            member("name", group.name)
            endObject()
        }
        endArray()
    }

    mutating func write(_ totals: IssueTotals) {
        beginObject()
        member("findings", totals.findings)
        member("instances", totals.instances)
        member("issues", totals.issues)
        endObject()
    }

    mutating func write(_ comparison: RunComparison) {
        beginObject()
        member("canopyVersionChanged", comparison.canopyVersionChanged)
        member("changes", comparison.changes)
        member("configChanged", comparison.configChanged)
        member("fixedInstances", comparison.fixedInstances)
        member("fixedIssues", comparison.fixedIssues)
        member("newInstances", comparison.newInstances)
        member("newIssues", comparison.newIssues)
        member("persistingInstances", comparison.persistingInstances)
        member("persistingIssues", comparison.persistingIssues)
        member("previousRunId", Int(comparison.previousRunId.rawValue))
        member("ruleSetChanged", comparison.ruleSetChanged)
        member("rulesAdded", comparison.rulesAdded)
        member("rulesRemoved", comparison.rulesRemoved)
        endObject()
    }

    mutating func write(_ coverage: RunCoverage) {
        beginObject()
        member("crawled", coverage.crawled)
        member("errors", coverage.errors)
        member("failed", coverage.failed)
        member("framesAudited", coverage.framesAudited)
        member("framesSkipped", coverage.framesSkipped)
        member("notAudited", coverage.notAudited)
        member("planned", coverage.planned)
        member("skippedByRobots", coverage.skippedByRobots)
        member("skippedByScope", coverage.skippedByScope)
        if let stylesheets = coverage.stylesheets {
            key("stylesheets")
            beginObject()
            member("failed", stylesheets.failed)
            member("loaded", stylesheets.loaded)
            member("missing", stylesheets.missing)
            endObject()
        }
        endObject()
    }
}
