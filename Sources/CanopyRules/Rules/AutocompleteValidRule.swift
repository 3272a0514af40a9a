import CanopyAccessibility
import CanopyHTML

/// A correct `autocomplete` lets browsers and assistive tools fill in, and label, fields that
/// collect the user's own data (WCAG 1.3.5, Identify Input Purpose); a wrong one does nothing.
public struct AutocompleteValidRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "autocomplete-valid",
        impact: .serious,
        tags: ["cat.forms", "wcag21aa", "wcag135", "EN-301-549", "EN-9.1.3.5", "ACT", "RGAAv4", "RGAA-11.13.1"],
        description: "Checks that the autocomplete attribute of a form field holds a valid value from the HTML standard",
        help: "autocomplete attributes must hold valid values",
        howToFix: "Use the HTML standard's tokens in their order, e.g. autocomplete=\"shipping postal-code\" or \"work email\"; use \"on\" or \"off\" when the field collects no personal data.",
        enabledByDefault: true,
        rationale: "A valid autocomplete token lets browsers and assistive tools fill in and label personal data fields; an invalid one does nothing."
    )

    /// axe's selector is `*`; `applies` needs the attribute anyway, so naming it lets the auditor
    /// visit only elements that have it, with the same results.
    public let selector = try! SelectorList("[autocomplete]")

    /// Input types that collect no text from the user.
    private static let excludedInputTypes: Set<String> = ["submit", "reset", "button", "hidden"]

    /// Enabled, editable form fields with a non-blank autocomplete, that users can reach.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let autocomplete = element.attribute("autocomplete"),
            !autocomplete.allSatisfy(\.isWhitespace),
            element.isHTML, ["input", "select", "textarea"].contains(element.localName)
        else { return false }
        if element.localName == "input", let type = element.attribute("type")?.lowercased(),
            Self.excludedInputTypes.contains(type)
        {
            return false
        }
        if element.hasAttribute("disabled") || element.attribute("aria-disabled")?.lowercased() == "true" { return false }
        // Read-only fields take no input, so their autocomplete has no effect.
        if element.hasAttribute("readonly") || element.attribute("aria-readonly")?.lowercased() == "true" { return false }
        // Taken out of the tab order and given a role that is not a widget: not a field for users.
        if element.attribute("tabindex") == "-1", let role = element.attribute("role"), !role.isEmpty {
            guard let definition = ARIARoles.role(named: role), definition.type == "widget" else { return false }
        }
        return true
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let value = element.attribute("autocomplete") ?? ""
        switch AutocompleteGrammar.verdict(for: value) {
        case .valid:
            return .pass
        case .ignoredButSafe:
            return .incomplete("autocomplete=\"\(value)\" is not a value of the HTML standard, but browsers ignore it harmlessly; check whether a standard token fits the field.")
        case .invalid:
            return .violation("autocomplete=\"\(value)\" is not a valid combination of autocomplete tokens.")
        }
    }

    public let examples = RuleExamples(
        passing: [
            #"<input autocomplete="email">"#,
            #"<input autocomplete="section-order shipping work tel">"#,
            #"<select autocomplete="bday-month"><option>May</option></select>"#,
            #"<textarea autocomplete="Street-Address"></textarea>"#,
            #"<input autocomplete=" off ">"#,
            #"<input autocomplete="email webauthn">"#,
        ],
        violating: [
            RuleExample(#"<input autocomplete="mail">"#, at: "input"),
            RuleExample(#"<input autocomplete="work photo">"#, at: "input"),
            RuleExample(#"<input autocomplete="work shipping email">"#, at: "input"),
            RuleExample(#"<input autocomplete="given-name,family-name">"#, at: "input"),
            RuleExample(#"<input autocomplete="webauthn">"#, at: "input"),
        ],
        incomplete: [
            RuleExample(#"<input autocomplete="gender">"#, at: "input"),
            RuleExample(#"<input autocomplete="text">"#, at: "input"),
        ],
        inapplicable: [
            #"<input autocomplete="">"#,
            #"<button autocomplete="email"></button>"#,
            #"<input type="hidden" autocomplete="email">"#,
            #"<input autocomplete="email" disabled>"#,
            #"<input autocomplete="nonsense" readonly>"#,
            #"<input type="button" role="none" tabindex="-1" autocomplete="email">"#,
        ]
    )
}
