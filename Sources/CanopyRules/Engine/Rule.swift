import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// What a rule concludes about one element.
public enum CheckOutcome: Sendable, Equatable {
    case pass
    /// The element fails; the message says what is wrong with this element.
    case violation(String)
    /// Static HTML cannot decide (layout, scripts, ...): the message says why, for a person to review.
    case incomplete(String)
}

extension CheckOutcome {
    /// What the outcome says of the element; empty for a pass.
    public var message: String {
        switch self {
        case .pass: ""
        case .violation(let message), .incomplete(let message): message
        }
    }
}

/// One accessibility rule: its metadata, the elements it applies to, and its check.
///
/// A rule lives in its own file with its examples, which the test suite runs, so that every rule
/// documents and proves its own behaviour (after SwiftLint's rule layout).
public protocol Rule: Sendable {
    var metadata: RuleMetadata { get }
    /// The candidate elements, as axe-core's rule `selector`.
    var selector: SelectorList { get }
    /// Whether elements hidden from assistive technology are skipped (axe-core's `excludeHidden`).
    var excludesHidden: Bool { get }
    /// The selector's matches that `applies` can accept, when the rule can list them more cheaply
    /// than testing every match (nil: all the selector's matches). Same order, same results; only
    /// faster for rules whose selector is `*` but that apply to few elements.
    func candidates(on page: PageContext) -> [Element]?
    /// Narrows the candidates further, as axe-core's `matches` functions do.
    func applies(to element: Element, on page: PageContext) -> Bool
    func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome
    /// The outcome with what the rule measured (axe-core's check `data`); by default `evaluate`
    /// with no evidence.
    func check(_ element: Element, on page: PageContext) -> CheckResult
    /// Markup that the rule must pass, fail, or report as incomplete.
    var examples: RuleExamples { get }
    /// The computed properties the rule's verdicts depend on. When a page's stylesheet could not
    /// be loaded, or a rule under `@container` sets one of them, the auditor reports the page as
    /// one review for this rule instead of judging from part of its styles. Empty by default:
    /// visibility is the accessibility model's, every rule shares it.
    var stylesRead: PropertySet { get }
    /// Whether the rule judges only the top-level page and not the documents of its frames
    /// (axe's `is-initiator-matches`: a page's title, language and viewport are the top page's).
    var topDocumentOnly: Bool { get }
}

/// An outcome with the measurements behind it (a contrast ratio and its colours).
public struct CheckResult: Sendable, Equatable {
    public var outcome: CheckOutcome
    public var evidence: [String: EvidenceValue]

    public init(_ outcome: CheckOutcome, evidence: [String: EvidenceValue] = [:]) {
        self.outcome = outcome
        self.evidence = evidence
    }
}

extension Rule {
    public var excludesHidden: Bool { true }
    public var stylesRead: PropertySet { PropertySet() }
    public var topDocumentOnly: Bool { false }

    public func check(_ element: Element, on page: PageContext) -> CheckResult {
        CheckResult(evaluate(element, on: page))
    }
    public func applies(to element: Element, on page: PageContext) -> Bool { true }
    public func candidates(on page: PageContext) -> [Element]? { nil }
}

/// One example of a rule's behaviour: a page, or a fragment placed in `<body>`, and for a
/// failing or needs-review example the elements that get that outcome, by CSS selector, so a
/// rule's tests check which node fails and not only that the page does.
public struct RuleExample: Sendable, ExpressibleByStringLiteral {
    public let markup: String
    /// The elements the example's outcome is expected on; every other element the rule applies
    /// to must pass. Empty for passing and inapplicable examples.
    public let targets: [String]

    public init(_ markup: String, at targets: String...) {
        self.markup = markup
        self.targets = targets
    }

    public init(stringLiteral markup: String) {
        self.init(markup)
    }
}

/// Examples of a rule's behaviour; every one is run by the test suite.
public struct RuleExamples: Sendable {
    /// Markup where every element the rule applies to passes.
    public let passing: [RuleExample]
    public let violating: [RuleExample]
    public let incomplete: [RuleExample]
    /// Markup where the rule applies to nothing.
    public let inapplicable: [RuleExample]

    public init(passing: [RuleExample], violating: [RuleExample], incomplete: [RuleExample] = [], inapplicable: [RuleExample] = []) {
        self.passing = passing
        self.violating = violating
        self.incomplete = incomplete
        self.inapplicable = inapplicable
    }
}

/// What a rule sees of the page: the whole document (for id lookups and page-wide facts, even
/// outside the audited scope, as in axe-core) and its accessibility model.
public final class PageContext {
    public let document: Document
    public let accessibility: AccessibilityModel

    /// Page-wide results a rule computes once and reads for each element (e.g. region's walk
    /// of the body). Per audit, so nothing is shared between pages or threads.
    /// Boxed, so that reading one back is a class cast rather than an existential one.
    // Unchecked for the model's reason (see AccessibilityModel): one thread, no overlapping access.
    @exclusivity(unchecked) private var memos: [String: AnyObject] = [:]
    /// The memos asked for most recently, newest first: a rule asks for a few of them in turn for
    /// each element (color-contrast four), which a single last entry kept missing.
    @exclusivity(unchecked) private var recentMemos: [(key: String, box: AnyObject)] = []

    /// The frame element this document is shown in; nil for the top-level page.
    public internal(set) var host: FrameHost?
    /// What became of each frame element of this document (by position) that the audit tried to
    /// load; empty when frames are not loaded (a check without a frame loader).
    public internal(set) var frames: [Int: FrameOutcome] = [:]

    /// Whether this is the page itself rather than a frame's document.
    public var isTopDocument: Bool { host == nil }

    public init(document: Document) {
        self.document = document
        self.accessibility = AccessibilityModel(document: document)
    }

    public init(document: Document, nameStepBudget: Int) {
        self.document = document
        self.accessibility = AccessibilityModel(document: document, nameStepBudget: nameStepBudget)
    }

    /// A page styled by `styles` (its stylesheets as loaded by the crawl or check).
    public init(document: Document, styles: ComputedStyles, nameStepBudget: Int? = nil) {
        self.document = document
        self.accessibility = AccessibilityModel(document: document, styles: styles, nameStepBudget: nameStepBudget)
    }

    /// The page's cascade.
    public var styles: ComputedStyles { accessibility.styles }

    /// The value stored under `key` for this page, computed by `compute` the first time.
    public func memo<Value>(_ key: String, _ compute: () -> Value) -> Value {
        // The auditor runs one rule over all its elements in a row, so the same keys come back
        // many times: comparing them with the recent ones (literals compare by address) spares
        // hashing each time. Checking the box's class by identity and then downcasting without a
        // check spares a generic dynamic cast, which cost more than the rule's own work on rules
        // like region.
        // Lengths first: keys of other lengths are told apart without the general string comparison.
        for recent in recentMemos
        where key.utf8.count == recent.key.utf8.count && key == recent.key
            && ObjectIdentifier(type(of: recent.box)) == ObjectIdentifier(MemoBox<Value>.self) {
            return unsafeDowncast(recent.box, to: MemoBox<Value>.self).value
        }
        if let box = memos[key], let known = box as? MemoBox<Value> {
            remember(key, box)
            return known.value
        }
        let value = compute()
        let box = MemoBox(value)
        memos[key] = box
        remember(key, box)
        return value
    }

    private func remember(_ key: String, _ box: AnyObject) {
        if recentMemos.count == 4 { recentMemos.removeLast() }
        recentMemos.insert((key, box), at: 0)
    }

    /// Elements by local name and attribute name, so page-wide queries visit only candidates:
    /// a full selector scan of a large page costs as much as parsing it.
    public private(set) lazy var elementIndex = ElementNameIndex(document: document)
    /// Page-wide query results by selector (rules ask the same question for each candidate).
    // Room for the selectors of the default rules: grown from empty it was rehashed five times a page.
    @exclusivity(unchecked) private var queries: [SelectorList: [Element]] = Dictionary(minimumCapacity: 64)

    /// All elements of the page matching `selector`, in document order, as
    /// `document.querySelectorAll` gives them; computed once per page and selector.
    public func elements(matching selector: SelectorList) -> [Element] {
        if let known = queries[selector] { return known }
        let found = elementIndex.querySelectorAll(selector)
        queries[selector] = found
        return found
    }

    /// The descendants of `element` matching `selector`, in document order, as
    /// `element.querySelectorAll` gives them (from the page-wide query).
    public func elements(matching selector: SelectorList, inside element: Element) -> [Element] {
        let all = elements(matching: selector)
        let start = element.position + 1
        let end = element.descendants.endIndex
        // Positions are sorted: cut the slice with two binary searches.
        let lower = all.binarySearchFirst { $0.position >= start }
        let upper = all[lower...].binarySearchFirst { $0.position >= end }
        return Array(all[lower..<upper])
    }
}

private final class MemoBox<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Collection {
    /// The first index whose element satisfies `predicate`, which must be false then true along the collection.
    func binarySearchFirst(where predicate: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if predicate(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
