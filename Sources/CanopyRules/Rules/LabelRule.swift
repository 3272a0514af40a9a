import CanopyAccessibility
import CanopyHTML

/// Form fields must say what to enter.
public struct LabelRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "label",
        impact: .critical,
        tags: [
            "cat.forms", "wcag2a", "wcag412", "section508", "section508.22.n", "TTv5", "TT5.c", "EN-301-549",
            "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-11.1.1",
        ],
        description: "Checks that every form field has an accessible name",
        help: "Form fields need a label",
        howToFix: "Associate a visible <label> with the field (wrap it, or use for=\"id\"), or give it an aria-label, aria-labelledby, title or placeholder.",
        enabledByDefault: true,
        rationale: "A form field without a name leaves users guessing what to enter."
    )

    public let selector = try! SelectorList("input, textarea")

    /// Buttons and image buttons have their own rules; hidden inputs are never shown.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard element.localName == "input", let type = element.attribute("type")?.lowercased() else { return true }
        return !["hidden", "image", "button", "submit", "reset"].contains(type)
    }

    /// axe passes a field named by a `<label>`, aria-label, aria-labelledby, title or placeholder,
    /// which together make up the field's accessible name; or a presentational role. It fails a
    /// field whose `<label for>` is hidden from screen readers when nothing else names it.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        FormFieldNaming.evaluate(element, checks: NamingChecks(page), kind: "field")
    }

    public let examples = RuleExamples(
        passing: [
            #"<label>Email <input type="email"></label>"#,
            #"<label for="e">Email</label><input type="email" id="e">"#,
            #"<input type="text" aria-label="Search">"#,
            #"<span id="l">Search</span><input type="text" aria-labelledby="l">"#,
            #"<textarea title="Comment"></textarea>"#,
            #"<input type="search" placeholder="Search the shop">"#,
            #"<input role="presentation" disabled>"#,
        ],
        violating: [
            RuleExample(#"<input type="text">"#, at: "input"),
            RuleExample(#"<textarea></textarea>"#, at: "textarea"),
            RuleExample(#"<label><input type="text" value="Typed text is no label"></label>"#, at: "input"),
            RuleExample(#"<label for="e" style="display:none">Email</label><input type="email" id="e">"#, at: "#e"),
            RuleExample(#"<input type="text" aria-labelledby="missing">"#, at: "input"),
        ],
        inapplicable: [
            #"<input type="hidden" name="token">"#,
            #"<input type="submit">"#,
            #"<input type="text" hidden>"#,
        ]
    )
}

/// The shared verdict of `label` and `select-name`: same checks, different elements.
enum FormFieldNaming {
    static func evaluate(_ element: Element, checks: NamingChecks, kind: String) -> CheckOutcome {
        if checks.hasHiddenExplicitLabelOnly(element) {
            return .violation(
                "The \(kind)'s <label> is hidden from screen readers, and nothing else gives the \(kind) a name."
            )
        }
        if checks.hasName(element) || checks.isPresentational(element) { return .pass }
        if let role = checks.page.accessibility.explicitRole(of: element), role == "none" || role == "presentation" {
            return .violation(
                "The \(kind) has role=\"\(role)\" but stays a form control, because it is focusable or has global ARIA attributes; it needs a label."
            )
        }
        return .violation(
            "The \(kind) has no label with text, aria-label, aria-labelledby that gives text, or title."
        )
    }
}
