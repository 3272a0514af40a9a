import CanopyAccessibility
import CanopyHTML

/// A tooltip must have text, or screen readers announce an empty popup.
public struct ARIATooltipNameRule: WidgetNameRule {
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
    public let widgetName = "tooltip"
    public let isNamedByContent = true

    public let examples = RuleExamples(
        passing: [
            #"<div role="tooltip">Copies the link</div>"#,
            #"<div role="tooltip" aria-label="Copies the link"></div>"#,
            #"<div role="tooltip" title="Copies the link"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="tooltip"></div>"#, at: "div"),
            RuleExample(#"<div role="tooltip" aria-labelledby="missing"></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<button role="tooltip" title="Label"></button>"#,
            #"<div role="tooltip" aria-hidden="true"></div>"#,
        ]
    )
}
