import CanopyHistory
import CanopyRules
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

    public func render() throws -> Data {
        let open = report.latest?.openIssues ?? []
        let issues = open.prefix(maximumResults)
        let metadata = Dictionary(uniqueKeysWithValues: RuleCatalog.all.map { ($0.metadata.id, $0.metadata) })
        let (ruleIDs, driverRules) = SARIFRules.descriptors(for: issues.map(\.ruleId), metadata: metadata)
        let ruleIndex = Dictionary(uniqueKeysWithValues: ruleIDs.enumerated().map { ($1, $0) })
        let dates = ISO8601DateFormatter()
        let results: [[String: Any]] = issues.map { issue in
            let needsReview = issue.outcome != "violation"
            let place = issue.component.map { "the \($0) component" } ?? issue.pageType.map { "\($0) pages" } ?? "the site"
            return [
                "ruleId": issue.ruleId,
                "ruleIndex": ruleIndex[issue.ruleId] ?? 0,
                "kind": needsReview ? "review" : "fail",
                "level": needsReview ? "none" : SARIFRules.level(Impact(rawValue: issue.impact) ?? .minor, failing: true),
                "message": ["text": "\(issue.example.message) (\(issue.example.target)); on \(issue.pageCount) page\(issue.pageCount == 1 ? "" : "s") of \(place)"],
                "locations": [[
                    "physicalLocation": ["artifactLocation": ["uri": issue.example.url]],
                    "logicalLocations": [["fullyQualifiedName": issue.example.target, "kind": "element"]],
                ]],
                "partialFingerprints": ["canopyIssue/v1": issue.issueKey],
                "baselineState": issue.isNew ? "new" : "unchanged",
                "properties": [
                    "impact": issue.impact, "pages": issue.pageCount, "findings": issue.findingCount, "firstSeen": dates.string(from: issue.firstSeenAt),
                    "snippet": issue.example.snippet, "owner": issue.owner ?? "", "pageType": issue.pageType ?? "", "component": issue.component ?? "",
                ],
            ]
        }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": ["name": "Canopy", "version": CanopyVersion.current, "rules": driverRules]],
                "results": results,
                "automationDetails": ["id": "canopy/crawl/run-\(report.latest?.runId.description ?? "none")"],
                // Says how many open issues the file leaves out: index.html and open-issues.csv have them all.
                "properties": ["openIssues": open.count, "resultsLeftOut": open.count - issues.count],
            ]],
        ]
        return try SARIFJSON.data(log)
    }
}
