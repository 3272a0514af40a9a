import CanopyHistory
import CanopyStore
import Foundation

/// digest.md: the weekly digest as Markdown for people, short enough for a chat message. Links
/// point into the HTML report (`reportLink`, relative to the reports folder unless the report is
/// published somewhere and its address given).
public struct DigestMarkdown: Sendable {
    public let digest: WeeklyDigest
    /// index.html, or the published report's address.
    public let reportLink: String

    public init(digest: WeeklyDigest, reportLink: String = ReportWriter.htmlFile) {
        self.digest = digest
        self.reportLink = reportLink
    }

    public func render() -> String {
        let dates = DateText()
        var lines = ["# Accessibility digest: \(digest.site), run \(digest.runId) of \(dates.date(digest.startedAt))", ""]
        lines.append(headline())
        if let caveats = digest.change?.caveats, !caveats.isEmpty {
            lines.append("")
            lines.append("> Not only the site changed since the last run: \(caveats.joined(separator: "; ")).")
        }
        if !digest.newIssues.isEmpty {
            let count = digest.newIssues.reduce(0) { $0 + $1.issues.count }
            lines += ["", "## New issues (\(count))", ""]
            for group in digest.newIssues {
                let issues = group.issues.count == 1 ? "1 issue" : "\(group.issues.count) issues"
                let first = group.issues[0]
                lines.append("- **\(group.ruleId)** (\(group.impact)), \(Self.place(component: group.component, pageType: group.pageType)): \(issues) on \(Self.pages(group.pages)) — [see it](\(link(first)))")
            }
        }
        if !digest.biggestFixes.isEmpty {
            lines += ["", "## Biggest fixes", ""]
            for issue in digest.biggestFixes {
                lines.append("- \(issue.ruleId) (\(issue.impact)), \(Self.place(component: issue.component, pageType: issue.pageType)): gone from \(Self.pages(issue.pages))")
            }
        }
        if !digest.oldestOpen.isEmpty {
            lines += ["", "## Oldest open issues", ""]
            for issue in digest.oldestOpen.prefix(5) {
                let since = issue.firstSeenAt.map { "open since \(dates.date($0)) (\(Self.age(from: $0, to: digest.startedAt)))" } ?? "open"
                lines.append("- \(issue.ruleId) (\(issue.impact)), \(Self.place(component: issue.component, pageType: issue.pageType))\(Self.owner(issue.owner)): \(since), \(Self.pages(issue.pages)) — [see it](\(link(issue)))")
            }
        }
        let coverage = digest.coverage
        let clientRendered = coverage.run.notAudited[NotAudited.clientRendered] ?? 0
        if coverage.vanishedPages > 0 || coverage.failedPages > 0 || coverage.run.pagesNotAudited > 0 {
            lines += ["", "## Coverage", ""]
            lines.append("- " + CoverageText.line(coverage.run))
            if clientRendered > 0 {
                let examples = coverage.clientRenderedExamples.map { "\($0.url) (\($0.problem))" }
                lines.append(
                    "- \(Self.pages(clientRendered)) not audited, client-rendered (their content depends on scripts; their last findings are kept): "
                        + Self.list(examples, total: clientRendered)
                )
            }
            if coverage.vanishedPages > 0 {
                let since = digest.change.map { " since run \($0.previousRunId)" } ?? ""
                lines.append("- \(Self.pages(coverage.vanishedPages)) vanished\(since): " + Self.list(coverage.vanishedExamples, total: coverage.vanishedPages))
            }
            if coverage.failedPages > 0 {
                let newly = coverage.newlyFailedPages > 0 ? " (\(coverage.newlyFailedPages) newly)" : ""
                let examples = coverage.failedExamples.map { "\($0.url) (\($0.problem))" }
                lines.append("- \(Self.pages(coverage.failedPages)) could not be audited\(newly): " + Self.list(examples, total: coverage.failedPages))
            }
        }
        lines += ["", "Full report: \(reportLink)", ""]
        return lines.joined(separator: "\n")
    }

    private func headline() -> String {
        var text = "**\(Self.count(digest.violations.issues, "violation issue"))** on \(Self.count(digest.violations.instances, "page instance"))"
        if let change = digest.change {
            text += " (\(change.previousViolationIssues) → \(digest.violations.issues) since run \(change.previousRunId): "
                + "\(change.newIssues) new, \(change.fixedIssues) fixed)"
        }
        text += ", \(digest.needsReview.issues) to review. "
        text += "\(Self.pages(digest.pages.audited)) audited"
        if digest.pages.failed > 0 { text += ", \(digest.pages.failed) failed" }
        if let clientRendered = digest.coverage.run.notAudited[NotAudited.clientRendered], clientRendered > 0 {
            text += ", \(clientRendered) not audited (client-rendered)"
        }
        return text + "."
    }

    /// The issue's row in the HTML report's open-issues table.
    private func link(_ issue: WeeklyDigest.DigestIssue) -> String { "\(reportLink)#issue-\(issue.issueKey)" }

    private static func place(component: String?, pageType: String?) -> String {
        if let component { return "in the site-wide `\(component)`" }
        if let pageType { return "on `\(pageType)` pages" }
        return "on single pages"
    }

    private static func owner(_ owner: String?) -> String { owner.map { " (owned by \($0))" } ?? "" }

    private static func pages(_ count: Int) -> String { count == 1 ? "1 page" : "\(count) pages" }

    private static func count(_ value: Int, _ noun: String) -> String { value == 1 ? "1 \(noun)" : "\(value) \(noun)s" }

    private static func list(_ items: [String], total: Int) -> String {
        items.joined(separator: ", ") + (total > items.count ? ", and \(total - items.count) more" : "")
    }

    static func age(from start: Date, to end: Date) -> String {
        let days = Int((end.timeIntervalSince(start) / 86_400).rounded())
        if days < 14 { return days == 1 ? "1 day" : "\(days) days" }
        return "\(days / 7) weeks"
    }
}

extension WeeklyDigest {
    /// digest.json: sorted keys, ISO 8601 dates, like trend.json.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> WeeklyDigest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(WeeklyDigest.self, from: data)
    }
}
