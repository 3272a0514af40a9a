import CanopyAccessibility
import CanopyHTML

/// Input buttons (`type` button, submit, reset) must say what they do.
public struct InputButtonNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "input-button-name",
        impact: .critical,
        tags: [
            "cat.name-role-value", "wcag2a", "wcag412", "section508", "section508.22.a", "TTv5", "TT5.c",
            "EN-301-549", "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-11.9.1",
        ],
        description: "Checks that input buttons have an accessible name",
        help: "Input buttons need an accessible name",
        howToFix: "Give the input a non-empty value (or an aria-label, aria-labelledby, title or <label>); an empty value removes a submit or reset button's default text.",
        enabledByDefault: true,
        rationale: "An input button without a value or name is announced as \"button\" alone."
    )

    public let selector = try! SelectorList(#"input[type="button"], input[type="submit"], input[type="reset"]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).keepsNameRequirement(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if hasDefaultText(element) || checks.hasValue(element) || checks.hasARIALabelOrTitle(element)
            || checks.hasImplicitLabel(element) || checks.hasExplicitLabel(element) || checks.isPresentational(element)
        {
            return .pass
        }
        if element.hasAttribute("value"), isSubmitOrReset(element) {
            return .violation("The empty value attribute removes the button's default text, and nothing else names it.")
        }
        return .violation("The button has no value, aria-label, aria-labelledby that gives text, title, or label.")
    }

    /// Submit and reset buttons without a value show the browser's own text ("Submit", "Reset").
    private func hasDefaultText(_ element: Element) -> Bool {
        isSubmitOrReset(element) && !element.hasAttribute("value")
    }

    private func isSubmitOrReset(_ element: Element) -> Bool {
        let type = element.attribute("type")?.lowercased()
        return type == "submit" || type == "reset"
    }

    public let examples = RuleExamples(
        passing: [
            #"<input type="button" value="Add to cart">"#,
            #"<input type="submit">"#,
            #"<input type="reset">"#,
            #"<input type="button" aria-label="Add to cart">"#,
            #"<input type="button" title="Add to cart">"#,
            #"<label for="b">Add</label><input type="button" id="b">"#,
            #"<input type="button" role="none" disabled>"#,
        ],
        violating: [
            RuleExample(#"<input type="button">"#, at: "input"),
            RuleExample(#"<input type="submit" value="">"#, at: "input"),
            RuleExample(#"<input type="reset" value=" ">"#, at: "input"),
            RuleExample(#"<input type="button" aria-labelledby="missing">"#, at: "input"),
            RuleExample(#"<input type="button" role="presentation">"#, at: "input"),
        ],
        inapplicable: [
            #"<input type="button" role="gridcell" disabled>"#,
            #"<input type="image" src="go.png">"#,
            #"<input type="submit" hidden>"#,
        ]
    )
}
