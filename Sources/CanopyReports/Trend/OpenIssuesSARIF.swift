import CanopyHistory
import CanopyRules
import CanopyStore
import Foundation

/// open-issues.sarif: the latest run's open issues as SARIF 2.1.0, for code-scanning dashboards
/// (GitHub's upload-sarif). One result per issue, located at its example page, not one per
/// failing element: a template issue on 3,000 pages is one thing to fix, and code scanning caps
/// the results of an upload.
public struct OpenIssuesSARIF: Sendable {
    public let report: TrendReport
    /// Results written at most, the most serious first (the trend's order): GitHub code scanning
    /// shows no more than 5,000 of an upload, and a site where nearly every finding is an issue
    /// of its own (java.base: 50,000) made a 60 MB file it would not take.
    public let maximumResults: Int

    public init(report: TrendReport, maximumResults: Int = 5_000) {
        self.report = report
        self.maximumResults = maximumResults
    }

    /// The whole file from the report's open issues (`OpenIssuesSARIFWriter` takes them one at a time).
    public func render() throws -> Data {
        var writer = OpenIssuesSARIFWriter(run: report.latest?.runId, maximumResults: maximumResults)
        for issue in report.latest?.openIssues ?? [] { writer.add(issue) }
        let output = InMemorySink()
        try writer.write(to: output)
        return Data(output.bytes)
    }
}

/// Takes the open issues one at a time and keeps the first `maximumResults`: a result names its
/// rule by its index among the rules of all results, so none is written before all are known.
/// Memory stays bounded however many issues a site has.
struct OpenIssuesSARIFWriter {
    let run: RunID?
    let maximumResults: Int
    private var results: [OpenIssue] = []
    private var openIssues = 0

    init(run: RunID?, maximumResults: Int = 5_000) {
        self.run = run
        self.maximumResults = maximumResults
    }

    mutating func add(_ issue: OpenIssue) {
        openIssues += 1
        if results.count < maximumResults { results.append(issue) }
    }

    func write(to sink: ByteSink) throws {
        let metadata = Dictionary(uniqueKeysWithValues: RuleCatalog.all.map { ($0.metadata.id, $0.metadata) })
        let (ruleIDs, driverRules) = SARIFRules.descriptors(for: results.map(\.ruleId), metadata: metadata)
        let ruleIndex = Dictionary(uniqueKeysWithValues: ruleIDs.enumerated().map { ($1, $0) })
        var dates = ISO8601Dates()
        var json = JSONStreamWriter(pretty: true, sink: sink)
        // Keys sorted, as the SARIF files written through JSONEncoder had them.
        json.beginObject()
        json.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
        json.key("runs")
        json.beginArray()
        json.beginObject()
        json.key("automationDetails")
        json.beginObject()
        json.member("id", "canopy/crawl/run-\(run?.description ?? "none")")
        json.endObject()
        // Says how many open issues the file leaves out: index.html and open-issues.csv have them all.
        json.key("properties")
        json.beginObject()
        json.member("openIssues", openIssues)
        json.member("resultsLeftOut", openIssues - results.count)
        json.endObject()
        json.key("results")
        json.beginArray()
        for issue in results {
            let needsReview = issue.outcome != "violation"
            let place = issue.component.map { "the \($0) component" } ?? issue.pageType.map { "\($0) pages" } ?? "the site"
            json.beginObject()
            json.member("baselineState", issue.isNew ? "new" : "unchanged")
            json.member("kind", needsReview ? "review" : "fail")
            json.member("level", needsReview ? "none" : SARIFRules.level(Impact(rawValue: issue.impact) ?? .minor, failing: true))
            json.key("locations")
            json.beginArray()
            json.beginObject()
            json.key("logicalLocations")
            json.beginArray()
            json.beginObject()
            json.member("fullyQualifiedName", issue.example.target)
            json.member("kind", "element")
            json.endObject()
            json.endArray()
            json.key("physicalLocation")
            json.beginObject()
            json.key("artifactLocation")
            json.beginObject()
            json.member("uri", issue.example.url)
            json.endObject()
            json.endObject()
            json.endObject()
            json.endArray()
            json.key("message")
            json.beginObject()
            json.member("text", "\(issue.example.message) (\(issue.example.target)); on \(issue.pageCount) page\(issue.pageCount == 1 ? "" : "s") of \(place)")
            json.endObject()
            json.key("partialFingerprints")
            json.beginObject()
            json.member("canopyIssue/v1", issue.issueKey)
            json.endObject()
            json.key("properties")
            json.beginObject()
            json.member("component", issue.component ?? "")
            json.member("findings", issue.findingCount)
            json.member("firstSeen", dates.string(issue.firstSeenAt))
            json.member("impact", issue.impact)
            json.member("owner", issue.owner ?? "")
            json.member("pageType", issue.pageType ?? "")
            json.member("pages", issue.pageCount)
            json.member("snippet", issue.example.snippet)
            json.endObject()
            json.member("ruleId", issue.ruleId)
            json.member("ruleIndex", ruleIndex[issue.ruleId] ?? 0)
            json.endObject()
            try json.flushIfFull()
        }
        json.endArray()
        json.key("tool")
        json.beginObject()
        json.key("driver")
        json.beginObject()
        json.member("name", "Canopy")
        json.key("rules")
        json.value(try JSONValue(driverRules))
        json.member("version", CanopyVersion.current)
        json.endObject()
        json.endObject()
        json.endObject()
        json.endArray()
        json.member("version", "2.1.0")
        json.endObject()
        try json.finish()
    }
}
