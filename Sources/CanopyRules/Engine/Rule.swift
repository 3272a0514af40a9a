import CanopyAccessibility
import CanopyHTML

/// What a rule concludes about one element.
public enum CheckOutcome: Sendable, Equatable {
    case pass
    /// The element fails; the message says what is wrong with this element.
    case violation(String)
    /// Static HTML cannot decide (layout, scripts, ...): the message says why, for a person to review.
    case incomplete(String)
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
    /// Narrows the candidates further, as axe-core's `matches` functions do.
    func applies(to element: Element, on page: PageContext) -> Bool
    func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome
    /// Markup that the rule must pass, fail, or report as incomplete.
    var examples: RuleExamples { get }
}

extension Rule {
    public var excludesHidden: Bool { true }
    public func applies(to element: Element, on page: PageContext) -> Bool { true }
}

/// Examples of a rule's behaviour. Each snippet is a page (or a fragment placed in `<body>`);
/// every element of it that the rule applies to must get the expected outcome.
public struct RuleExamples: Sendable {
    public let passing: [String]
    public let violating: [String]
    public let incomplete: [String]
    /// Markup where the rule applies to nothing.
    public let inapplicable: [String]

    public init(passing: [String], violating: [String], incomplete: [String] = [], inapplicable: [String] = []) {
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
    private var memos: [String: Any] = [:]

    public init(document: Document) {
        self.document = document
        self.accessibility = AccessibilityModel(document: document)
    }

    /// The value stored under `key` for this page, computed by `compute` the first time.
    public func memo<Value>(_ key: String, _ compute: () -> Value) -> Value {
        if let known = memos[key] as? Value { return known }
        let value = compute()
        memos[key] = value
        return value
    }
}
