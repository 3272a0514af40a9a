import CanopyAccessibility
import CanopyHTML

/// A drop-down list must say what it chooses.
public struct SelectNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "select-name",
        impact: .critical,
        tags: [
            "cat.forms", "wcag2a", "wcag412", "section508", "section508.22.n", "TTv5", "TT5.c", "EN-301-549",
            "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-11.1.1",
        ],
        description: "Checks that every <select> has an accessible name",
        help: "Select elements need a label",
        howToFix: "Associate a visible <label> with the list (wrap it, or use for=\"id\"), or give it an aria-label, aria-labelledby or title; its options do not name it.",
        enabledByDefault: true,
        rationale: "A select without a name leaves users guessing what they choose."
    )

    public let selector = try! SelectorList("select")

    /// A `<label>`, aria-label, aria-labelledby or title (together, the accessible name), or a
    /// presentational role; a hidden `<label for>` with nothing else fails.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        FormFieldNaming.evaluate(element, checks: NamingChecks(page), kind: "select")
    }

    public let examples = RuleExamples(
        passing: [
            #"<label>Country <select><option>France</option></select></label>"#,
            #"<label for="c">Country</label><select id="c"><option>France</option></select>"#,
            #"<select aria-label="Country"><option>France</option></select>"#,
            #"<select title="Country"><option>France</option></select>"#,
            #"<select role="none" disabled></select>"#,
        ],
        violating: [
            RuleExample(#"<select><option>France</option></select>"#, at: "select"),
            RuleExample(#"<label><select><option selected>France</option></select></label>"#, at: "select"),
            RuleExample(#"<select role="presentation"></select>"#, at: "select"),
            RuleExample(#"<label for="c" hidden>Country</label><select id="c"></select>"#, at: "#c"),
        ],
        inapplicable: [
            #"<select hidden></select>"#,
            #"<div aria-hidden="true"><select></select></div>"#,
        ]
    )
}
