import CanopyAccessibility
import CanopyHTML

/// `aria-hidden="true"` on `<body>` hides the whole page from assistive technology, while it
/// stays visible and operable for everyone else.
public struct ARIAHiddenBodyRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-hidden-body",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag131", "wcag412", "EN-301-549", "EN-9.1.3.1", "EN-9.4.1.2", "RGAAv4", "RGAA-10.8.1"],
        description: "Checks that the document body does not carry aria-hidden=\"true\"",
        help: "The body of the page must not be hidden from assistive technology",
        howToFix: "Remove aria-hidden=\"true\" from <body>; to hide background content behind a dialog, hide the sibling containers instead, or use the inert attribute.",
        enabledByDefault: true,
        rationale: "aria-hidden on the body hides the whole page from screen readers."
    )

    public let selector = try! SelectorList("body")

    /// A frame's own document is not the page (axe's `is-initiator-matches`).
    public var topDocumentOnly: Bool { true }

    /// The body is hidden by this very attribute, so hidden elements must not be skipped.
    public var excludesHidden: Bool { false }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        // Only the exact value "true" hides; browsers ignore other values.
        if element.attribute("aria-hidden") == "true" {
            return .violation("The body has aria-hidden=\"true\", so screen readers perceive nothing on the page.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            "<html><body><p>Content</p></body></html>",
            #"<html><body aria-hidden="false"><p>Content</p></body></html>"#,
            #"<html><body aria-hidden="TRUE "><p>Not the exact value</p></body></html>"#,
        ],
        violating: [
            RuleExample(#"<html><body aria-hidden="true"><p>Content</p></body></html>"#, at: "body"),
        ]
    )
}
