import CanopyAccessibility
import CanopyHTML

/// A positive `tabindex` pulls an element ahead of the page's natural tab order, which
/// surprises keyboard users and is hard to keep in step with the layout.
public struct TabindexRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "tabindex",
        impact: .serious,
        tags: ["cat.keyboard", "best-practice"],
        description: "Checks that no tabindex attribute is greater than 0",
        help: "tabindex should not be greater than 0",
        howToFix: "Use tabindex=\"0\" to make an element focusable in document order (or -1 for focus by script only), and order the markup the way keyboard users should move through it.",
        enabledByDefault: true,
        rationale: "A positive tabindex reorders the keyboard path away from the visual order."
    )

    public let selector = try! SelectorList("[tabindex]")

    /// Values that are not numbers are ignored by browsers, so they cannot reorder anything.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if let tabIndex = page.accessibility.tabIndex(of: element), tabIndex > 0 {
            return .violation("tabindex=\"\(tabIndex)\" moves the element ahead of the natural tab order.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<p tabindex="0">Focusable in order</p>"#,
            #"<div tabindex="-1">Focus by script</div>"#,
            #"<span tabindex="abc">Not a number</span>"#,
        ],
        violating: [
            RuleExample(#"<p tabindex="1">First</p>"#, at: "p"),
            RuleExample(#"<button tabindex="32">Jump</button>"#, at: "button"),
        ],
        inapplicable: [
            "<button>No tabindex</button>",
            #"<div hidden tabindex="3"></div>"#,
        ]
    )
}
