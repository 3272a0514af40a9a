import CanopyHTML
import CanopyRules
import Testing

/// A node's outcome without its message, for comparing whole pages at a glance.
enum RuleOutcome: Equatable { case pass, violation, incomplete }

/// The outcome of each element `ruleID` applied to on `html`, by the element's id (every applicable
/// element in a page test carries one).
func ruleOutcomes(of ruleID: String, on html: String, scope: AuditScope = .wholeDocument) throws -> [String: RuleOutcome] {
    let rule = try #require(RuleCatalog.rule(withID: ruleID))
    let result = try #require(Auditor(rules: [rule]).audit(HTMLParser().parse(html: html), scope: scope).rules.first)
    var outcomes: [String: RuleOutcome] = [:]
    for node in result.nodes {
        let id = try #require(node.element.id, "\(ruleID) applied to an element without id: \(node.html)")
        switch node.outcome {
        case .pass: outcomes[id] = .pass
        case .violation: outcomes[id] = .violation
        case .incomplete: outcomes[id] = .incomplete
        }
    }
    return outcomes
}
