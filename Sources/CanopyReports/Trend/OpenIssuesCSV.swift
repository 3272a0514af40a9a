import CanopyHistory
import CanopyStore
import Foundation

/// CSV as RFC 4180 writes it: CRLF line ends, fields with a comma, quote or line break quoted,
/// quotes doubled. Cells are crawled content opened in spreadsheets, so a cell that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return)
/// gets a leading `'`, OWASP's advice against CSV injection.
public enum CSV {
    public static func field(_ value: String) -> String {
        var cell = value
        switch cell.utf8.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): cell = "'" + cell
        default: break
        }
        // Bytes, not Characters: "\r\n" is one Character, and the byte scan is much faster on big reports.
        guard cell.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func row(_ values: [String]) -> String {
        values.map(field).joined(separator: ",") + "\r\n"
    }
}

/// The latest run's open issues, one a row, for spreadsheets and ticket imports.
public struct OpenIssuesCSV: Sendable {
    public static let header = [
        "issue_key", "rule", "impact", "outcome", "new", "pages", "findings", "first_seen_run", "first_seen",
        "owner", "component", "page_type", "example_url", "target", "snippet", "message", "first_seen_ever_run", "first_seen_ever",
    ]

    public let report: TrendReport

    public init(report: TrendReport) {
        self.report = report
    }

    public func render() -> String {
        let dates = ISO8601DateFormatter()
        var text = CSV.row(Self.header)
        for issue in report.latest?.openIssues ?? [] {
            text += CSV.row([
                issue.issueKey, issue.ruleId, issue.impact, issue.outcome, issue.isNew ? "yes" : "no", String(issue.pageCount),
                String(issue.findingCount), issue.firstSeenRunId.description, dates.string(from: issue.firstSeenAt),
                issue.owner ?? "", issue.component ?? "", issue.pageType ?? "", issue.example.url, issue.example.target,
                issue.example.snippet, issue.example.message, issue.firstSeenEverRunId.description, dates.string(from: issue.firstSeenEverAt),
            ])
        }
        return text
    }
}
