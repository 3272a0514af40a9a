import Foundation

/// Whether a finding fails or needs a person to review it (axe-core's `incomplete`).
public enum FindingOutcome: String, Sendable, Codable {
    case violation, incomplete
}

/// A value a rule gives as evidence beside its message, as axe-core's check `data` does (a
/// contrast ratio, the colours it was computed from).
public enum EvidenceValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case text(String)
    case number(Double)

    public var description: String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        }
    }
}

/// One element that fails a rule or needs review: the one shape a finding has from the rule that
/// finds it to every report that shows it. The run store and the gate add identity and history
/// around it (`FindingRecord`, `StoredFinding`, `IssueInstance`, `GateReport.Finding`), never a
/// copy of these fields.
public struct Finding: Sendable, Hashable {
    public var ruleID: String
    /// The impact as reported for this node (after any rule-set override).
    public var impact: Impact
    public var outcome: FindingOutcome
    /// A CSS selector matching exactly the element on its page; for an element inside frames,
    /// axe's target array as one string (`FrameTarget`).
    public var target: String
    /// The element's markup, shortened.
    public var snippet: String
    /// What is wrong with this element.
    public var message: String
    /// The line of the page's source where the element starts, when the parser knows it.
    public var sourceLine: Int?
    /// What the rule measured, by name (e.g. `contrastRatio`, `fgColor`), for reports to show.
    public var evidence: [String: EvidenceValue]

    public init(
        ruleID: String, impact: Impact, outcome: FindingOutcome, target: String, snippet: String, message: String,
        sourceLine: Int? = nil, evidence: [String: EvidenceValue] = [:]
    ) {
        self.ruleID = ruleID
        self.impact = impact
        self.outcome = outcome
        self.target = target
        self.snippet = snippet
        self.message = message
        self.sourceLine = sourceLine
        self.evidence = evidence
    }
}

extension NodeResult {
    /// The node as a finding of `rule`; nil for a pass.
    public func finding(of rule: RuleMetadata) -> Finding? {
        let outcome: FindingOutcome
        let message: String
        switch self.outcome {
        case .pass: return nil
        case .violation(let text): (outcome, message) = (.violation, text)
        case .incomplete(let text): (outcome, message) = (.incomplete, text)
        }
        // libxml2 gives 0 for elements the parser or the tree repair made up, and 65535 once a
        // page passes that many lines: neither is a line to point at.
        let line = (1..<65_535).contains(element.line) ? element.line : nil
        return Finding(
            ruleID: rule.id, impact: rule.impact, outcome: outcome, target: location, snippet: html, message: message, sourceLine: line,
            evidence: evidence
        )
    }
}

/// A target as one string wherever a finding is kept or shown (store, trend, gate, baseline):
/// the element's selector on the page, or inside frames axe's target array written as JSON
/// (`["#checkout","button.pay"]`). A CSS selector cannot begin with `["`, so the two never mix.
public enum FrameTarget {
    public static func joined(_ selectors: [String]) -> String {
        guard selectors.count > 1 else { return selectors.first ?? "" }
        let data = (try? JSONEncoder().encode(selectors)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// axe's target array for a stored target.
    public static func components(_ target: String) -> [String] {
        guard target.hasPrefix("[\""), let selectors = try? JSONDecoder().decode([String].self, from: Data(target.utf8)) else {
            return [target]
        }
        return selectors
    }
}
