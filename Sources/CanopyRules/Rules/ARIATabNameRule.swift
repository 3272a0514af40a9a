import CanopyAccessibility
import CanopyHTML

/// A tab must say which panel it shows.
public struct ARIATabNameRule: WidgetNameRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-tab-name",
        impact: .serious,
        tags: [
            "cat.aria", "wcag2a", "wcag412", "TTv5", "TT5.c", "EN-301-549", "EN-9.4.1.2", "ACT", "RGAAv4",
            "RGAA-7.1.1",
        ],
        description: "Checks that every ARIA tab has an accessible name",
        help: "ARIA tabs need an accessible name",
        howToFix: "Put the tab's label inside it (an icon alone is not enough), or give it an aria-label, aria-labelledby or title.",
        enabledByDefault: true,
        rationale: "A tab without a name cannot be told from the other tabs of its list."
    )

    public let selector = try! SelectorList(#"[role="tab"]"#)
    public let widgetName = "tab"
    public let isNamedByContent = true

    public let examples = RuleExamples(
        passing: [
            #"<div role="tablist"><span role="tab" tabindex="0">Overview <i class="icon"></i></span></div>"#,
            #"<div role="tablist"><div role="tab" aria-label="Overview"></div></div>"#,
            #"<div role="tablist"><div role="tab" title="Overview"></div></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="tablist"><span role="tab" tabindex="0"><i class="icon"></i></span></div>"#, at: "span"),
            RuleExample(#"<div role="tablist"><div role="tab" aria-labelledby="missing"></div></div>"#, at: #"[role="tab"]"#),
        ],
        inapplicable: [
            #"<div role="tablist"><button role="tab"></button></div>"#,
            #"<div role="tablist"><div role="tab" hidden></div></div>"#,
        ]
    )
}
