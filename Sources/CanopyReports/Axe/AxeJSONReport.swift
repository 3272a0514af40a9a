import CanopyRules
import Foundation

/// A page's results in axe-core's result shape, so tools that read axe output read Canopy's.
public struct AxeJSONReport: Encodable, Sendable {
    public let url: String
    public let timestamp: String
    public let testEngine: TestEngine
    public let violations: [RuleEntry]
    public let passes: [RuleEntry]
    public let incomplete: [RuleEntry]
    public let inapplicable: [RuleEntry]

    public struct TestEngine: Encodable, Sendable {
        public let name: String
        public let version: String
    }

    public struct RuleEntry: Encodable, Sendable {
        public let id: String
        /// The rule's impact for violations and incomplete results; null for passes and inapplicable, as in axe-core.
        public let impact: String?
        public let tags: [String]
        public let description: String
        public let help: String
        public let helpUrl: String
        public let nodes: [NodeEntry]

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(impact, forKey: .impact)
            try container.encode(tags, forKey: .tags)
            try container.encode(description, forKey: .description)
            try container.encode(help, forKey: .help)
            try container.encode(helpUrl, forKey: .helpUrl)
            try container.encode(nodes, forKey: .nodes)
        }

        enum CodingKeys: String, CodingKey { case id, impact, tags, description, help, helpUrl, nodes }
    }

    public struct NodeEntry: Encodable, Sendable {
        public let target: [String]
        public let html: String
        public let impact: String?
        public let failureSummary: String?
        /// The check that measured something (contrast and its colours), as axe-core lists it.
        public var any: [AxeCheckEntry]? = nil

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(any, forKey: .any)
            try container.encode(target, forKey: .target)
            try container.encode(html, forKey: .html)
            try container.encode(impact, forKey: .impact)
            try container.encode(failureSummary, forKey: .failureSummary)
        }

        enum CodingKeys: String, CodingKey { case target, html, impact, failureSummary, any }
    }

    /// The groups whose nodes a report lists in full, as axe-core's `resultTypes` option: the
    /// other groups keep `otherGroupsNodeLimit` nodes per rule (axe keeps one), which keeps a
    /// crawl's per-page lines small and cheap (a page has thousands of passing nodes).
    public enum ResultType: Sendable { case violations, incomplete, passes, inapplicable }

    public init(
        result: AuditResult, url: String,
        resultTypes: Set<ResultType> = [.violations, .incomplete, .passes, .inapplicable], otherGroupsNodeLimit: Int = 1
    ) {
        self.url = url
        timestamp = AxeTimestamp.string(result.date)
        testEngine = TestEngine(name: "canopy", version: CanopyVersion.current)
        func limit(_ type: ResultType) -> Int { resultTypes.contains(type) ? Int.max : max(0, otherGroupsNodeLimit) }
        violations = result.violations.map { Self.entry($0, impact: $0.metadata.impact, limit: limit(.violations)) }
        passes = result.passes.map { Self.entry($0, impact: nil, limit: limit(.passes)) }
        incomplete = result.incomplete.map { Self.entry($0, impact: $0.metadata.impact, limit: limit(.incomplete)) }
        inapplicable = result.inapplicable.map { Self.entry($0, impact: nil, limit: limit(.inapplicable)) }
    }

    private static func entry(_ rule: RuleResult, impact: Impact?, limit: Int) -> RuleEntry {
        RuleEntry(
            id: rule.metadata.id, impact: impact?.rawValue, tags: rule.metadata.tags,
            description: rule.metadata.description, help: rule.metadata.help, helpUrl: rule.metadata.helpURL,
            nodes: rule.nodes.prefix(limit).map { node in
                NodeEntry(
                    target: node.axeTarget, html: node.html, impact: impact?.rawValue,
                    failureSummary: FailureSummary.text(for: node.outcome, rule: rule.metadata),
                    any: node.evidence.isEmpty ? nil : [
                        AxeCheckEntry(id: rule.metadata.id, impact: rule.metadata.impact.rawValue, message: node.outcome.message, data: node.evidence)
                    ]
                )
            }
        )
    }

    /// One line of compact JSON with stable key order, for JSON-lines files.
    public func jsonLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Pretty-printed JSON with stable key order.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// One check's result on a node, as axe-core reports it in `any`/`all`/`none`: here only for
/// checks that measured something, with what they measured in `data`.
public struct AxeCheckEntry: Encodable, Sendable {
    public let id: String
    public let impact: String
    public let message: String
    public let data: [String: EvidenceValue]

    /// A JSON number as the line writer and JSONEncoder both write it.
    static func jsonNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// How to fix a node, in axe-core's `failureSummary` spirit but in our words.
enum FailureSummary {
    static func text(for outcome: CheckOutcome, rule: RuleMetadata) -> String? {
        switch outcome {
        case .pass: return nil
        case .violation(let message): return "Fix this: \(message)\n\(rule.howToFix)"
        case .incomplete(let reason): return "Review this: \(reason)\n\(rule.howToFix)"
        }
    }
}
