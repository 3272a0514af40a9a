import CanopyHTML
import Foundation

/// Runs rules over a document within a scope and gathers axe-shaped results.
public struct Auditor: Sendable {
    public let rules: [any Rule]

    public init(rules: [any Rule]) {
        self.rules = rules
    }

    /// Audits `document` within `scope`. `ruleExclusions` removes further subtrees for single
    /// rules only (by rule id), e.g. `region` under a tracking pixel's container: axe-core's
    /// context applies to every rule alike and cannot say this.
    public func audit(
        _ document: Document,
        scope: AuditScope = .wholeDocument,
        ruleExclusions: [String: [SelectorList]] = [:],
        at date: Date = Date()
    ) -> AuditResult {
        let page = PageContext(document: document)
        let inScope = scope.membership(in: document)
        let describer = NodeDescriber(document: document)
        var results: [RuleResult] = []
        results.reserveCapacity(rules.count)
        for rule in rules {
            var ruleScope = inScope
            if let extra = ruleExclusions[rule.metadata.id], !extra.isEmpty {
                ruleScope = AuditScope(include: scope.include, exclude: scope.exclude + extra).membership(in: document)
            }
            var nodes: [NodeResult] = []
            // Through the page's memo: several rules share a selector (`*`, `[role]`, `html:root`).
            for element in page.elements(matching: rule.selector) where ruleScope[element.position] {
                if rule.excludesHidden, page.accessibility.isHiddenFromAssistiveTechnology(element) { continue }
                guard rule.applies(to: element, on: page) else { continue }
                var outcome = rule.evaluate(element, on: page)
                if rule.metadata.reviewOnFail, case .violation(let message) = outcome { outcome = .incomplete(message) }
                nodes.append(NodeResult(element: element, outcome: outcome, describer: describer))
            }
            results.append(RuleResult(metadata: rule.metadata, nodes: nodes))
        }
        return AuditResult(url: document.url, date: date, rules: results)
    }
}

/// One element's result for one rule.
public struct NodeResult: Sendable {
    public let element: Element
    public let outcome: CheckOutcome
    let describer: NodeDescriber

    /// A CSS selector matching exactly this element in the page (computed when first asked for).
    public var target: String { describer.target(for: element) }
    /// The element's markup, shortened for reports.
    public var html: String { element.snippet() }
}

/// Makes targets for an audit's nodes on demand: most passing nodes are never shown with a
/// selector, and building one costs more than checking the rule. Shared by the nodes of one
/// audit, which may be read from several threads, hence the lock.
final class NodeDescriber: @unchecked Sendable {
    private let document: Document
    private let lock = NSLock()
    private var session: TargetSelectorGenerator.Session?
    private var targets: [Int: String] = [:]

    init(document: Document) {
        self.document = document
    }

    func target(for element: Element) -> String {
        lock.withLock {
            if let known = targets[element.node] { return known }
            let session = self.session ?? TargetSelectorGenerator().session(for: document)
            self.session = session
            let target = session.selector(for: element)
            targets[element.node] = target
            return target
        }
    }
}

/// Everything one rule found on a page.
public struct RuleResult: Sendable {
    public let metadata: RuleMetadata
    public let nodes: [NodeResult]

    public var violations: [NodeResult] { nodes.filter { if case .violation = $0.outcome { true } else { false } } }
    public var passes: [NodeResult] { nodes.filter { $0.outcome == .pass } }
    public var incomplete: [NodeResult] { nodes.filter { if case .incomplete = $0.outcome { true } else { false } } }
}

/// A page's audit, grouped as axe-core groups results: a rule appears under `violations`,
/// `passes` and `incomplete` with the nodes of each outcome, and under `inapplicable` when it
/// applied to nothing.
public struct AuditResult: Sendable {
    public let url: String?
    public let date: Date
    public let rules: [RuleResult]

    public var violations: [RuleResult] { group(\.violations) }
    public var passes: [RuleResult] { group(\.passes) }
    public var incomplete: [RuleResult] { group(\.incomplete) }
    public var inapplicable: [RuleResult] { rules.filter { $0.nodes.isEmpty } }

    private func group(_ nodes: KeyPath<RuleResult, [NodeResult]>) -> [RuleResult] {
        rules.compactMap { rule in
            let selected = rule[keyPath: nodes]
            return selected.isEmpty ? nil : RuleResult(metadata: rule.metadata, nodes: selected)
        }
    }
}
