import CanopyDiagnostics
import CanopyRules
import Foundation

/// What `canopy rules` prints: every rule with its impact, WCAG criteria, tags and help.
public struct RuleListing: Sendable {
    private let rules: [any Rule]

    public init(rules: [any Rule] = RuleCatalog.all) {
        self.rules = rules
    }

    /// The rules of a rule set, with its impact overrides.
    public init(ruleSet: RuleSet) {
        self.rules = ruleSet.rules
    }

    /// Every rule Canopy has, the opt-in ones included.
    public static var everyRule: RuleListing { RuleListing(rules: RuleCatalog.all) }

    /// The rules of the rule set file at `path`, or of Canopy's default set when nil.
    public init(ruleSetPath path: String?) throws(Diagnostic) {
        self.init(ruleSet: try PageCheck.ruleSet(at: path))
    }

    public func text() -> String {
        var lines: [String] = []
        for rule in rules.sorted(by: { $0.metadata.id < $1.metadata.id }) {
            let metadata = rule.metadata
            let criteria = metadata.wcagCriteria.isEmpty ? "best practice" : "WCAG " + metadata.wcagCriteria.joined(separator: ", ")
            lines.append("\(metadata.id)  [\(metadata.impact.rawValue)]  \(criteria)")
            lines.append("  \(metadata.help)")
            lines.append("  How to fix: \(metadata.howToFix)")
            lines.append("  Tags: \(metadata.tags.joined(separator: ", "))")
            lines.append("  \(metadata.helpURL)")
            lines.append("")
        }
        lines.append("\(rules.count) rules")
        return lines.joined(separator: "\n") + "\n"
    }

    public func json() -> String {
        struct Entry: Encodable {
            let id: String, impact: String, tags: [String], wcag: [String], description: String, help: String
            let howToFix: String, helpUrl: String
        }
        let entries = rules.map { rule in
            let metadata = rule.metadata
            return Entry(
                id: metadata.id, impact: metadata.impact.rawValue, tags: metadata.tags, wcag: metadata.wcagCriteria,
                description: metadata.description, help: metadata.help, howToFix: metadata.howToFix, helpUrl: metadata.helpURL
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) } ?? "[]") + "\n"
    }
}
