import CanopyAccessibility
import CanopyHTML

/// A `<button>` must say what it does to people who cannot see it.
public struct ButtonNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "button-name",
        impact: .critical,
        tags: [
            "cat.name-role-value", "wcag2a", "wcag412", "section508", "section508.22.a", "TTv5", "TT6.a",
            "EN-301-549", "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-11.9.1",
        ],
        description: "Checks that every <button> has an accessible name",
        help: "Buttons need an accessible name",
        howToFix: "Put text inside the button, or give it an aria-label, aria-labelledby, title or <label>; a value attribute does not name a <button>.",
        enabledByDefault: true,
        rationale: "A button without a name is announced as \"button\" alone."
    )

    public let selector = try! SelectorList("button")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).keepsNameRequirement(element)
    }

    /// The name from content, ARIA or title; a `<label>`; or a presentational role that really
    /// removes the button from the accessibility tree.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if checks.hasName(element) || checks.hasImplicitLabel(element) || checks.hasExplicitLabel(element)
            || checks.isPresentational(element)
        {
            return .pass
        }
        if let role = page.accessibility.explicitRole(of: element), role == "none" || role == "presentation" {
            return .violation(
                "The button has role=\"\(role)\" but stays a button, because it is focusable or has global ARIA attributes; it needs a name."
            )
        }
        return .violation("The button has no text, aria-label, aria-labelledby that gives text, title, or label.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<button>Save</button>"#,
            #"<button aria-label="Close">×</button>"#,
            #"<span id="l">Print</span><button aria-labelledby="l"></button>"#,
            #"<button title="Close"></button>"#,
            #"<label>Send <button></button></label>"#,
            #"<button role="presentation" disabled></button>"#,
        ],
        violating: [
            RuleExample(#"<button></button>"#, at: "button"),
            RuleExample(#"<button value="Save"></button>"#, at: "button"),
            RuleExample(#"<button aria-labelledby="missing"></button>"#, at: "button"),
            RuleExample(#"<button><img src="x.png" alt=""></button>"#, at: "button"),
            RuleExample(#"<button role="none"></button>"#, at: "button"),
        ],
        inapplicable: [
            #"<button role="gridcell" disabled></button>"#,
            #"<button hidden></button>"#,
            #"<span role="button"></span>"#,
        ]
    )
}
