import Foundation

/// A site's accessibility over its complete runs, and the open issues of the latest one.
///
/// The JSON form (`jsonData()`) is an interface for dashboards: field names are camelCase and
/// stable, dates ISO 8601, and docs/trend-json.md documents every field. Add fields; do not
/// rename or remove them without raising `formatVersion`.
public struct TrendReport: Codable, Sendable, Equatable {
    /// The version of this JSON shape.
    public var formatVersion: Int
    public var generatedAt: Date
    /// Complete runs, oldest first. Running and interrupted runs are never part of a trend.
    public var runs: [RunTrend]
    /// The latest complete run's issues and pages, nil when no run is complete.
    public var latest: LatestRun?

    public static let currentFormatVersion = 1

    /// The report as JSON: sorted keys, ISO 8601 dates.
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        try Self.encoder(prettyPrinted: prettyPrinted).encode(self)
    }

    /// The one encoder configuration of the report: `writeJSON` splices pages into `jsonData()`'s
    /// text, so both must encode alike.
    private static func encoder(prettyPrinted: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The same bytes as `jsonData()` with `latest.pages` replaced by the pages `forEachPage`
    /// gives, written in pieces as they come: for a run of 100,000 pages the drill-down is tens of
    /// megabytes of JSON, and encoding it whole took several times that in memory.
    public func writeJSON(
        pages forEachPage: ((PageDrillDown) throws -> Void) throws -> Void, to write: (Data) throws -> Void
    ) throws {
        guard latest != nil else { return try write(try jsonData()) }
        let encoder = Self.encoder(prettyPrinted: true)
        // The report with one placeholder page; its text, found in the whole, marks where the
        // pages go and how deep they are indented.
        let marker = PageDrillDown(url: "canopy-placeholder-\(UUID().uuidString)", findings: [])
        var withMarker = self
        withMarker.latest?.pages = [marker]
        let whole = try withMarker.jsonData()
        let markerText = try encoder.encode(marker)
        var found: (range: Range<Data.Index>, indent: Data)?
        for depth in 0...8 {
            let indent = Data(String(repeating: " ", count: depth * 2).utf8)
            if let range = whole.range(of: Self.indented(markerText, by: indent)) {
                found = (range, indent)
                break
            }
        }
        guard let (range, indent) = found else { throw CocoaError(.coderInvalidValue) }
        try write(whole[..<range.lowerBound])
        var buffer = Data()
        var first = true
        // Neither closure outlives this call; the compiler cannot tell that one calls the other.
        try withoutActuallyEscaping(write) { write in
            try forEachPage { page in
                if !first { buffer.append(contentsOf: ",\n".utf8) }
                first = false
                buffer.append(Self.indented(try encoder.encode(page), by: indent))
                if buffer.count >= 1 << 20 {
                    try write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        try write(buffer)
        try write(whole[range.upperBound...])
    }

    /// Pretty-printed JSON of a value nested `indent` deep, as the encoder writes it inside a report.
    /// Empty lines (inside an empty array) stay empty, as the encoder leaves them.
    private static func indented(_ json: Data, by indent: Data) -> Data {
        var result = Data()
        var atLineStart = true
        for byte in json {
            if atLineStart && byte != UInt8(ascii: "\n") { result.append(indent) }
            result.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        return result
    }

    public static func decode(_ data: Data) throws -> TrendReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(TrendReport.self, from: data)
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
}

public struct IssueTotals: Codable, Sendable, Equatable {
    public var issues: Int
    public var instances: Int
    public var findings: Int
}

public struct GroupTotals: Codable, Sendable, Equatable {
    public var name: String
    public var issues: Int
    public var instances: Int
}

public struct RuleTotals: Codable, Sendable, Equatable {
    public var ruleId: String
    public var issues: Int
    public var instances: Int
    public var findings: Int
    public var passes: Int
}

public struct OwnerTotals: Codable, Sendable, Equatable {
    /// nil for first-party markup.
    public var owner: String?
    public var firstParty: Bool
    public var issues: Int
    public var instances: Int
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
}

public struct GroupCount: Codable, Sendable, Equatable {
    public var name: String
    public var pages: Int
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
}

public struct IssueExample: Codable, Sendable, Equatable {
    public var url: String
    public var target: String
    public var snippet: String
    public var message: String
}

public struct PageDrillDown: Codable, Sendable, Equatable {
    public var url: String
    public var finalUrl: String?
    public var title: String?
    public var pageType: String?
    public var statusCode: Int?
    public var error: String?
    public var findings: [PageFinding]
}

public struct PageFinding: Codable, Sendable, Equatable {
    public var issueKey: String
    public var ruleId: String
    public var impact: String
    public var outcome: String
    public var target: String
    public var owner: String?
    public var component: String?
}
