import CanopyAccessibility
import CanopyHTML

/// Text boxes, comboboxes, listboxes, sliders and spin buttons built with ARIA need a name.
public struct ARIAInputFieldNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-input-field-name",
        impact: .serious,
        tags: [
            "cat.aria", "wcag2a", "wcag412", "TTv5", "TT5.c", "EN-301-549", "EN-9.4.1.2", "ACT", "RGAAv4",
            "RGAA-11.1.1",
        ],
        description: "Checks that every ARIA input field has an accessible name",
        help: "ARIA input fields need an accessible name",
        howToFix: "Give the field an aria-label or an aria-labelledby pointing at its visible label; a <label> element does not name an ARIA widget.",
        enabledByDefault: true,
        rationale: "An ARIA text field, combobox or listbox without a name gives screen-reader users no idea what to enter."
    )

    public let selector = try! SelectorList(
        #"[role="combobox"], [role="listbox"], [role="searchbox"], [role="slider"], [role="spinbutton"], [role="textbox"]"#
    )

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    /// Only aria-label, aria-labelledby and title name these widgets (not their content, not a
    /// `<label>`). A `<label>` whose text is missing from the name needs a person to judge.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        guard checks.hasARIALabelOrTitle(element) else {
            return .violation("The field has no aria-label, aria-labelledby that gives text, or title.")
        }
        if checks.labelTextIsMissingFromName(element) {
            return .incomplete(
                "A <label> shows text that the field's accessible name does not contain; check that the field is announced as it appears."
            )
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="textbox" contenteditable="true" aria-label="Comment"></div>"#,
            #"<p id="l">Volume</p><div role="slider" aria-labelledby="l" aria-valuenow="3"></div>"#,
            #"<div role="spinbutton" title="Quantity" aria-valuenow="1"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="textbox" contenteditable="true"></div>"#, at: "div"),
            RuleExample(#"<div role="combobox">England</div>"#, at: "div"),
            RuleExample(#"<label>Comment <div role="textbox"></div></label>"#, at: "div"),
            RuleExample(#"<div role="listbox" aria-labelledby="missing"><div role="option">Red</div></div>"#, at: #"[role="listbox"]"#),
        ],
        incomplete: [
            RuleExample(#"<label>First name <div role="textbox" aria-label="Name"></div></label>"#, at: #"[aria-label="Name"]"#),
        ],
        inapplicable: [
            #"<input type="text">"#,
            #"<select><option>Red</option></select>"#,
            #"<div role="combobox" aria-controls="p"><input type="text" aria-label="Colour"></div><ul role="listbox" id="p"><li role="option">Red</li></ul>"#,
        ]
    )
}
