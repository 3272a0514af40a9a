import CanopyRules

/// Findings for people reading a terminal: per page, each failing rule with its impact, then
/// each element with its selector, line, snippet and how to fix it.
public struct TextReport: Sendable {
    public init() {}

    public func render(_ result: AuditResult, source: String) -> String {
        let violations = result.violations
        let incomplete = result.incomplete
        let failingNodes = violations.reduce(0) { $0 + $1.nodes.count }
        var lines: [String] = []
        let byImpact = Impact.allCases.reversed().compactMap { impact -> String? in
            let count = violations.filter { $0.metadata.impact == impact }.reduce(0) { $0 + $1.nodes.count }
            return count > 0 ? "\(count) \(impact.rawValue)" : nil
        }
        let summary = failingNodes == 0
            ? "no violations"
            : "\(failingNodes) violation\(failingNodes == 1 ? "" : "s") (\(byImpact.joined(separator: ", ")))"
        lines.append("\(source): \(summary); \(result.passes.count) rules passed, \(incomplete.count) need review, \(result.inapplicable.count) not applicable")
        for rule in violations.sorted(by: { $0.metadata.impact > $1.metadata.impact }) {
            lines.append("")
            lines.append("  ✗ \(rule.metadata.id) [\(rule.metadata.impact.rawValue)] \(rule.metadata.help) (\(rule.nodes.count))")
            appendNodes(rule, to: &lines)
        }
        for rule in incomplete {
            lines.append("")
            lines.append("  ? \(rule.metadata.id) [needs review] \(rule.metadata.help) (\(rule.nodes.count))")
            appendNodes(rule, to: &lines)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func appendNodes(_ rule: RuleResult, to lines: inout [String]) {
        for node in rule.nodes {
            lines.append("    \(node.location)  (line \(node.element.line))")
            lines.append("      \(node.html.replacingNewlines())")
            switch node.outcome {
            case .violation(let message), .incomplete(let message): lines.append("      \(message)")
            case .pass: break
            }
        }
        lines.append("    How to fix: \(rule.metadata.howToFix)")
        lines.append("    More: \(rule.metadata.helpURL)")
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        split(whereSeparator: \.isNewline).map { $0.trimmingPrefixWhitespace() }.joined(separator: " ")
    }
}

extension Substring {
    fileprivate func trimmingPrefixWhitespace() -> Substring { drop(while: \.isWhitespace) }
}
