import CanopyAccessibility
import CanopyHTML

/// Checkboxes, radios, switches, options and checkable menu items built with ARIA need a name.
public struct ARIAToggleFieldNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-toggle-field-name",
        impact: .serious,
        tags: [
            "cat.aria", "wcag2a", "wcag412", "TTv5", "TT5.c", "EN-301-549", "EN-9.4.1.2", "ACT", "RGAAv4",
            "RGAA-7.1.1",
        ],
        description: "Checks that every ARIA toggle field has an accessible name",
        help: "ARIA toggle fields need an accessible name",
        howToFix: "Put text inside the element, or give it an aria-label, aria-labelledby or title; a <label> element does not name an ARIA widget.",
        enabledByDefault: true,
        rationale: "A switch, checkbox or radio made with ARIA and no name announces a state without saying what it switches."
    )

    public let selector = try! SelectorList(
        #"[role="checkbox"], [role="menuitemcheckbox"], [role="menuitemradio"], [role="radio"], [role="switch"], [role="option"]"#
    )

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    /// Content, aria-label, aria-labelledby or title (together, the accessible name). A `<label>`
    /// whose text is missing from the name needs a person to judge.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        guard checks.hasName(element) else {
            return .violation("The element has no text, aria-label, aria-labelledby that gives text, or title.")
        }
        if checks.labelTextIsMissingFromName(element) {
            return .incomplete(
                "A <label> shows text that the element's accessible name does not contain; check that it is announced as it appears."
            )
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="checkbox" aria-checked="false" tabindex="0">Newsletter</div>"#,
            #"<div role="switch" aria-checked="true" aria-label="Dark mode"><span>on</span></div>"#,
            #"<div role="listbox" aria-label="Greeting"><div role="option">Hello</div></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="checkbox" aria-checked="false" tabindex="0"></div>"#, at: "div"),
            RuleExample(#"<div role="radiogroup"><div role="radio" aria-checked="false" aria-labelledby="missing"></div></div>"#, at: #"[role="radio"]"#),
            RuleExample(#"<label>Newsletter <div role="checkbox" aria-checked="false"></div></label>"#, at: "div"),
        ],
        incomplete: [
            RuleExample(#"<label for="c">Newsletter</label><div role="checkbox" id="c" aria-checked="false" aria-label="Subscribe"></div>"#, at: "#c"),
        ],
        inapplicable: [
            #"<input type="checkbox">"#,
            #"<select><option>Red</option></select>"#,
            #"<div role="checkbox" hidden></div>"#,
        ]
    )
}
