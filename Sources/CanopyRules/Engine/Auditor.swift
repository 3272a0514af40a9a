import CanopyHTML
import CanopyStyle
import Foundation

/// Runs rules over a document within a scope and gathers axe-shaped results.
public struct Auditor: Sendable {
    public let rules: [any Rule]
    /// How many elements name computations may visit per page (nil: the model's default, far
    /// above real pages); results that needed a name past it are reported as needing review.
    public var nameStepBudget: Int?

    /// Whether some rule reads computed colours and fonts (not only visibility).
    let readsStyles: Bool

    public init(rules: [any Rule], nameStepBudget: Int? = nil) {
        self.rules = rules
        self.nameStepBudget = nameStepBudget
        self.readsStyles = rules.contains { !$0.stylesRead.isEmpty }
    }

    /// Audits `document` within `scope`. `ruleExclusions` removes further subtrees for single
    /// rules only (by rule id), e.g. `region` under a tracking pixel's container: axe-core's
    /// context applies to every rule alike and cannot say this.
    /// `styles` gives the page's stylesheets (nil: `<style>` and `style=""` only, linked sheets
    /// count as not loaded).
    public func audit(
        _ document: Document,
        styles: StyleEnvironment? = nil,
        scope: AuditScope = .wholeDocument,
        ruleExclusions: [String: [SelectorList]] = [:],
        at date: Date = Date()
    ) -> AuditResult {
        let computed = (styles ?? StyleEnvironment.embeddedOnly()).styles(for: document)
        // Not when a sheet failed: every rule that reads styles then stops at its first element.
        computed.matchesAllRulesAtOnce = readsStyles && computed.index.failures.isEmpty
        let page = PageContext(document: document, styles: computed, nameStepBudget: nameStepBudget)
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
            // Read once, not per element: `metadata` is a struct of many strings, copied on each read.
            let excludesHidden = rule.excludesHidden
            let reviewOnFail = rule.metadata.reviewOnFail
            // Styles this rule reads that the page's cascade cannot vouch for: one review for the
            // page (see below), not one per element.
            let stylesRead = rule.stylesRead
            let doubt = stylesRead.isEmpty ? nil : StyleCertainty.doubt(about: stylesRead, on: page)
            // Through the page's memo: several rules share a selector (`*`, `[role]`, `html:root`).
            for element in rule.candidates(on: page) ?? page.elements(matching: rule.selector) where ruleScope[element.position] {
                if excludesHidden, page.accessibility.isHiddenFromAssistiveTechnology(element) { continue }
                let namesCutBefore = page.accessibility.namesCutShort
                let applies = rule.applies(to: element, on: page)
                // Whether the rule applies was decided without a name it asked for: not skipped, not judged.
                if page.accessibility.namesCutShort != namesCutBefore {
                    nodes.append(NodeResult(element: element, outcome: .incomplete(Self.nameBudgetSpent(page)), describer: describer))
                    continue
                }
                guard applies else { continue }
                if let doubt {
                    // Once the rule applies to something, the page is what needs review: reported
                    // on its root element when that is audited (the first element the rule applies
                    // to otherwise), and nothing else looked at, so a page whose styles are
                    // unknown costs the rule, its selectors and its fingerprints nearly nothing.
                    let root = document.documentElement.flatMap { ruleScope[$0.position] ? $0 : nil }
                    let message = doubt.message + " Every element this rule checks on the page is left for review"
                        + (root == nil ? "; this one stands for them." : ".")
                    nodes.append(NodeResult(element: root ?? element, outcome: .incomplete(message), evidence: ["messageKey": .text(doubt.key)], describer: describer))
                    break
                }
                let checked = rule.check(element, on: page)
                var outcome = checked.outcome
                if reviewOnFail, case .violation(let message) = outcome { outcome = .incomplete(message) }
                if page.accessibility.namesCutShort != namesCutBefore { outcome = .incomplete(Self.nameBudgetSpent(page)) }
                nodes.append(NodeResult(element: element, outcome: outcome, evidence: checked.evidence, describer: describer))
            }
            results.append(RuleResult(metadata: rule.metadata, nodes: nodes))
        }
        return AuditResult(url: document.url, date: date, rules: results, stylesheetURLs: computed.index.loadedSheetURLs)
    }
}

extension Auditor {
    /// Why a result that needed an accessible name after the page's name budget ran out is left
    /// for a person to check.
    static func nameBudgetSpent(_ page: PageContext) -> String {
        "Canopy stopped computing accessible names on this page after visiting \(page.accessibility.nameStepBudget) elements for them "
            + "(real pages need a few per element; this one nests or shares labels so that names cost the square of its size). "
            + "Check this element by hand."
    }
}

/// One element's result for one rule.
public struct NodeResult: Sendable {
    public let element: Element
    public let outcome: CheckOutcome
    /// What the rule measured for this element, by name (axe-core's check `data`).
    public var evidence: [String: EvidenceValue] = [:]
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
    /// The linked and imported sheets the page's styles came from (`StyleRuleIndex.loadedSheetURLs`).
    public let stylesheetURLs: [String]

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
