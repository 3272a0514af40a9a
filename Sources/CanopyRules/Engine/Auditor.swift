import CanopyHTML
import CanopyStyle
import Foundation

/// Runs rules over a document within a scope and gathers axe-shaped results.
public struct Auditor: Sendable {
    public let rules: [any Rule]
    /// How many elements name computations may visit per page (nil: the model's default, far
    /// above real pages); results that needed a name past it are reported as needing review.
    public var nameStepBudget: Int?
    /// Whether passing nodes are listed in the results (false: only counted, in
    /// `RuleResult.passesNotListed`), for callers that keep no more than the count, as a crawl
    /// does: a page of 100,000 text elements would otherwise hold 100,000 passing results while
    /// it is audited.
    public var listsPassingNodes = true

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
    /// `frames` loads what the page's `<iframe src>`/`<frame src>` show; with it, frames (and
    /// `srcdoc` frames) are audited as part of the page, as axe does, their findings targeted by
    /// the frame's selector then the element's. Without it frames are left alone.
    public func audit(
        _ document: Document,
        styles: StyleEnvironment? = nil,
        scope: AuditScope = .wholeDocument,
        ruleExclusions: [String: [SelectorList]] = [:],
        frames: (any FrameLoading)? = nil,
        frameLimits: FrameLimits = FrameLimits(),
        at date: Date = Date()
    ) -> AuditResult {
        let environment = styles ?? StyleEnvironment.embeddedOnly()
        let top = AuditedDocument(document: document, styles: environment, nameStepBudget: nameStepBudget, readsStyles: readsStyles)
        top.inScope = scope.membership(in: document)
        var documents = [top]
        var frameURLs: [String] = []
        if let frames {
            FrameTree(loader: frames, limits: frameLimits, environment: environment, auditor: self)
                .load(framesOf: top, into: &documents, requested: &frameURLs)
        }
        var results: [RuleResult] = []
        results.reserveCapacity(rules.count)
        for rule in rules {
            var ruleScope = top.inScope
            if let extra = ruleExclusions[rule.metadata.id], !extra.isEmpty {
                ruleScope = AuditScope(include: scope.include, exclude: scope.exclude + extra).membership(in: document)
            }
            // Frames are merged by rules that read every document's passes: passes are dropped after.
            var passesNotListed = 0
            var nodes = judge(rule, in: top, scope: ruleScope, listingPasses: listsPassingNodes || documents.count > 1, passesNotListed: &passesNotListed)
            if documents.count > 1 {
                var perDocument = [nodes]
                for frame in documents.dropFirst() {
                    perDocument.append(rule.topDocumentOnly ? [] : judge(rule, in: frame, scope: frame.inScope, listingPasses: true, passesNotListed: &passesNotListed))
                }
                nodes = FrameMerge.merge(perDocument, of: rule, in: documents)
                if !listsPassingNodes {
                    passesNotListed += nodes.count { $0.outcome == .pass }
                    nodes.removeAll { $0.outcome == .pass }
                }
            }
            results.append(RuleResult(metadata: rule.metadata, nodes: nodes, passesNotListed: passesNotListed))
        }
        var sheets = top.page.styles.index.loadedSheetURLs
        for frame in documents.dropFirst() {
            for url in frame.page.styles.index.loadedSheetURLs where !sheets.contains(url) { sheets.append(url) }
        }
        let counts = FrameCounts(
            audited: documents.count - 1,
            unavailable: documents.reduce(0) { total, audited in
                total + audited.page.frames.values.count { if case .unavailable = $0 { true } else { false } }
            }
        )
        return AuditResult(url: document.url, date: date, rules: results, stylesheetURLs: sheets, frames: counts, frameURLs: frameURLs)
    }

    /// One rule over one document of the page.
    private func judge(
        _ rule: any Rule, in audited: AuditedDocument, scope ruleScope: [Bool], listingPasses: Bool, passesNotListed: inout Int
    ) -> [NodeResult] {
        let page = audited.page
        if let candidates = rule.candidates(on: page) {
            return judge(rule, each: candidates, in: audited, scope: ruleScope, listingPasses: listingPasses, passesNotListed: &passesNotListed)
        }
        // `*` is walked from the document, not listed: a list of every element of a page of
        // megabytes (3 MB for javadoc's uses of `String`) stayed in the page's query cache
        // through the audit, where a styled crawl peaks on that page.
        if rule.selector.matchesEveryElement {
            return judge(rule, each: page.document.elements, in: audited, scope: ruleScope, listingPasses: listingPasses, passesNotListed: &passesNotListed)
        }
        // Through the page's memo: several rules share a selector (`[role]`, `html:root`).
        return judge(
            rule, each: page.elements(matching: rule.selector), in: audited, scope: ruleScope, listingPasses: listingPasses, passesNotListed: &passesNotListed
        )
    }

    private func judge<Candidates: Sequence<Element>>(
        _ rule: any Rule, each candidates: Candidates, in audited: AuditedDocument, scope ruleScope: [Bool], listingPasses: Bool,
        passesNotListed: inout Int
    ) -> [NodeResult] {
        let page = audited.page
        var nodes: [NodeResult] = []
        // Read once, not per element: `metadata` is a struct of many strings, copied on each read.
        let excludesHidden = rule.excludesHidden
        let reviewOnFail = rule.metadata.reviewOnFail
        // Styles this rule reads that the page's cascade cannot vouch for: one review for the
        // page (see below), not one per element.
        let stylesRead = rule.stylesRead
        let doubt = stylesRead.isEmpty ? nil : StyleCertainty.doubt(about: stylesRead, on: page)
        for element in candidates where ruleScope[element.position] {
            if excludesHidden, page.accessibility.isHiddenFromAssistiveTechnology(element) { continue }
            let namesCutBefore = page.accessibility.namesCutShort
            let applies = rule.applies(to: element, on: page)
            // Whether the rule applies was decided without a name it asked for: not skipped, not judged.
            if page.accessibility.namesCutShort != namesCutBefore {
                nodes.append(audited.node(element, .incomplete(Self.nameBudgetSpent(page))))
                continue
            }
            guard applies else { continue }
            if let doubt {
                // Once the rule applies to something, the page is what needs review: reported
                // on its root element when that is audited (the first element the rule applies
                // to otherwise), and nothing else looked at, so a page whose styles are
                // unknown costs the rule, its selectors and its fingerprints nearly nothing.
                let root = page.document.documentElement.flatMap { ruleScope[$0.position] ? $0 : nil }
                let message = doubt.message + " Every element this rule checks on the page is left for review"
                    + (root == nil ? "; this one stands for them." : ".")
                nodes.append(audited.node(root ?? element, .incomplete(message), evidence: ["messageKey": .text(doubt.key)]))
                break
            }
            let checked = rule.check(element, on: page)
            var outcome = checked.outcome
            if reviewOnFail, case .violation(let message) = outcome { outcome = .incomplete(message) }
            if page.accessibility.namesCutShort != namesCutBefore { outcome = .incomplete(Self.nameBudgetSpent(page)) }
            if !listingPasses, outcome == .pass {
                passesNotListed += 1
                continue
            }
            nodes.append(audited.node(element, outcome, evidence: checked.evidence))
        }
        return nodes
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
    /// For an element inside a frame, the selectors of the frame elements that lead to its
    /// document, outermost first (axe's target is these followed by `target`); empty on the page itself.
    public var framePath: [String] = []
    /// The frame elements themselves, outermost first, each in its own document.
    public var frameHosts: [Element] = []

    /// A CSS selector matching exactly this element in its document (computed when first asked for).
    public var target: String { describer.target(for: element) }
    /// axe's target: the frame selectors, then the element's.
    public var axeTarget: [String] { framePath + [target] }
    /// The target as reports keep it (`FrameTarget`): the selector, or inside frames the array.
    public var location: String { framePath.isEmpty ? target : FrameTarget.joined(axeTarget) }
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

    /// Lets go of the tables targets are made with, keeping the targets made: a target asked for
    /// later makes them again.
    func releaseSelectorTables() {
        lock.withLock { session = nil }
    }
}

/// Everything one rule found on a page.
public struct RuleResult: Sendable {
    public let metadata: RuleMetadata
    public let nodes: [NodeResult]
    /// Passing nodes counted but not in `nodes` (`Auditor.listsPassingNodes` false).
    public var passesNotListed = 0

    public init(metadata: RuleMetadata, nodes: [NodeResult], passesNotListed: Int = 0) {
        self.metadata = metadata
        self.nodes = nodes
        self.passesNotListed = passesNotListed
    }

    /// How many nodes passed, listed or not.
    public var passCount: Int { passesNotListed + nodes.count { $0.outcome == .pass } }

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
    /// The linked and imported sheets the page's styles came from (`StyleRuleIndex.loadedSheetURLs`),
    /// its frames' included.
    public let stylesheetURLs: [String]
    /// The frames audited with the page and those that could not be.
    public var frames = FrameCounts()
    /// The frame documents asked of the frame loader (`srcdoc` frames are the page's own markup):
    /// an incremental crawl re-audits a page when one of them changes.
    public var frameURLs: [String] = []

    /// Lets go of the tables the nodes' targets were made with (those made are kept): on a page of
    /// thousands of findings they are megabytes, not needed once every finding has its target.
    public func releaseTargetSelectorTables() {
        var released = Set<ObjectIdentifier>()
        for rule in rules {
            for node in rule.nodes where released.insert(ObjectIdentifier(node.describer)).inserted {
                node.describer.releaseSelectorTables()
            }
        }
    }

    public var violations: [RuleResult] { group(\.violations) }
    public var passes: [RuleResult] { group(\.passes) }
    public var incomplete: [RuleResult] { group(\.incomplete) }
    public var inapplicable: [RuleResult] { rules.filter { $0.nodes.isEmpty && $0.passesNotListed == 0 } }

    private func group(_ nodes: KeyPath<RuleResult, [NodeResult]>) -> [RuleResult] {
        rules.compactMap { rule in
            let selected = rule[keyPath: nodes]
            let unlisted = nodes == \RuleResult.passes ? rule.passesNotListed : 0
            return selected.isEmpty && unlisted == 0 ? nil : RuleResult(metadata: rule.metadata, nodes: selected, passesNotListed: unlisted)
        }
    }
}
