import CanopyAccessibility
import CanopyHTML

/// A tooltip must have text, or screen readers announce an empty popup.
public struct ARIATooltipNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-tooltip-name",
        impact: .serious,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2"],
        description: "Checks that every ARIA tooltip has an accessible name",
        help: "ARIA tooltips need an accessible name",
        howToFix: "Put the tooltip's text inside it, or give it an aria-label, aria-labelledby or title.",
        enabledByDefault: true,
        rationale: "A tooltip without a name says nothing when it appears."
    )

    public let selector = try! SelectorList(#"[role="tooltip"]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    /// Content, aria-label, aria-labelledby or title: together, the accessible name.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if NamingChecks(page).hasName(element) { return .pass }
        return .violation("The tooltip has no text, aria-label, aria-labelledby that gives text, or title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="tooltip">Copies the link</div>"#,
            #"<div role="tooltip" aria-label="Copies the link"></div>"#,
            #"<div role="tooltip" title="Copies the link"></div>"#,
        ],
        violating: [
            #"<div role="tooltip"></div>"#,
            #"<div role="tooltip" aria-labelledby="missing"></div>"#,
        ],
        inapplicable: [
            #"<button role="tooltip" title="Label"></button>"#,
            #"<div role="tooltip" aria-hidden="true"></div>"#,
        ]
    )
}
