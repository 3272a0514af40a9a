import CanopyHistory
import CanopyStore
import Foundation

/// CSV as RFC 4180 writes it: CRLF line ends, fields with a comma, quote or line break quoted,
/// quotes doubled. Cells are crawled content opened in spreadsheets, so a cell that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return)
/// gets a leading `'`, OWASP's advice against CSV injection.
public enum CSV {
    public static func field(_ value: String) -> String {
        var bytes: [UInt8] = []
        append(field: value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func row(_ values: [String]) -> String {
        var bytes: [UInt8] = []
        append(row: values, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(row values: [String], to output: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(comma) }
            append(field: value, to: &output)
        }
        output.append(contentsOf: [carriageReturn, lineFeed])
    }

    /// Appends a cell's bytes, quoted and defused as it needs: one scan of its UTF-8, and a copy
    /// in runs between quotes (byte-wise, since "\r\n" is one Character).
    static func append(field value: String, to output: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            let defused: Bool = switch bytes.first {
            case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"), carriageReturn: true
            default: false
            }
            let quoted = needsQuotes(bytes)
            if quoted { output.append(quote) }
            if defused { output.append(UInt8(ascii: "'")) }
            guard quoted else { return output.append(contentsOf: bytes) }
            var start = 0
            while let end = bytes[start...].firstIndex(of: quote) {
                // Up to and with the quote, then the quote again.
                output.append(contentsOf: bytes[start...end])
                output.append(quote)
                start = end + 1
            }
            output.append(contentsOf: bytes[start...])
            output.append(quote)
        }
    }

    /// Whether a cell holds a comma, a quote or a line break, eight bytes at a time: a byte at a
    /// time was most of writing open-issues.csv, whose snippets and messages run long.
    static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            let word = ByteMasks.word(bytes, at: index)
            let found = ByteMasks.equal(word, comma) | ByteMasks.equal(word, quote) | ByteMasks.equal(word, lineFeed)
                | ByteMasks.equal(word, carriageReturn)
            if found != 0 { return true }
            index += 8
        }
        return bytes[index...].contains { $0 == comma || $0 == quote || $0 == lineFeed || $0 == carriageReturn }
    }

    static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
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

    /// The whole file from the report's open issues (`OpenIssuesCSVWriter` writes it an issue at a time).
    public func render() -> String {
        var writer = OpenIssuesCSVWriter(sink: nil)
        for issue in report.latest?.openIssues ?? [] { writer.add(issue) }
        return String(decoding: writer.output.bytes, as: UTF8.self)
    }
}

/// open-issues.csv written an issue at a time, in pieces of about a megabyte.
struct OpenIssuesCSVWriter {
    private(set) var output: ChunkedOutput
    private var dates = ISO8601Dates()

    init(sink: ByteSink?) {
        output = ChunkedOutput(sink: sink)
        CSV.append(row: OpenIssuesCSV.header, to: &output.bytes)
    }

    mutating func add(_ issue: OpenIssue) {
        CSV.append(row: [
            issue.issueKey, issue.ruleId, issue.impact, issue.outcome, issue.isNew ? "yes" : "no", String(issue.pageCount),
            String(issue.findingCount), issue.firstSeenRunId.description, dates.string(issue.firstSeenAt),
            issue.owner ?? "", issue.component ?? "", issue.pageType ?? "", issue.example.url, issue.example.target,
            issue.example.snippet, issue.example.message, issue.firstSeenEverRunId.description, dates.string(issue.firstSeenEverAt),
        ], to: &output.bytes)
    }

    mutating func flushIfFull() throws { try output.flushIfFull() }
    mutating func finish() throws { try output.flush() }
}

/// `ISO8601DateFormatter`'s text of each date, made once per distinct date: a report's dates are
/// its runs' (a few dozen), and formatting one took longer than writing the rest of its row.
struct ISO8601Dates {
    private let formatter = ISO8601DateFormatter()
    private var texts: [Date: String] = [:]

    mutating func string(_ date: Date) -> String {
        if let text = texts[date] { return text }
        let text = formatter.string(from: date)
        texts[date] = text
        return text
    }
}
