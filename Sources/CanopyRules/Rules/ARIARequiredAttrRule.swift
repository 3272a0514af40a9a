import CanopyAccessibility
import CanopyHTML

/// Widgets whose state is their purpose (a checkbox's checked state, a slider's value, a heading's
/// level) must say what it is: without the required attribute users hear an incomplete control.
public struct ARIARequiredAttrRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-required-attr",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that elements with an explicit ARIA role have every attribute that role requires",
        help: "Attributes required by an ARIA role must be present",
        howToFix: "Add the missing states and properties (for example aria-checked on a checkbox role, aria-valuenow on a slider, aria-level on a heading), or use the native HTML element.",
        enabledByDefault: true,
        rationale: "A role without its required states (a checkbox without aria-checked) cannot tell users its state."
    )

    public let selector = try! SelectorList("[role]")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        guard let role = model.explicitRole(of: element, options: .standard),
              let definition = ARIARoles.role(named: role), !definition.requiredAttributes.isEmpty
        else { return .pass }
        // ARIA waives some requirements: a static separator has no value, a collapsed combobox
        // controls nothing yet, and a slider may speak its value as text.
        if role == "separator" && !model.isFocusable(element) { return .pass }
        if role == "combobox" && ARIAValidity.nonBlankValue(element, "aria-expanded") == "false" { return .pass }
        if role == "slider" && ARIAValidity.nonBlankValue(element, "aria-valuetext") != nil { return .pass }
        let implicit = ARIAValidity.implicitAttributes(of: element)
        let missing = definition.requiredAttributes.filter {
            ARIAValidity.nonBlankValue(element, $0) == nil && !implicit.contains($0)
        }
        if missing.isEmpty { return .pass }
        return .violation("Role \(role) requires \(missing.joined(separator: ", ")), which the element lacks.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="checkbox" aria-checked="false" tabindex="0">Agree</div>"#,
            #"<div role="heading" aria-level="2">Title</div>"#,
            #"<div role="separator"></div>"#,
            #"<div role="combobox" aria-expanded="false" tabindex="0"></div>"#,
            #"<div role="slider" aria-valuetext="Loud" tabindex="0"></div>"#,
            #"<input type="checkbox" role="switch">"#,
            #"<div role="region">No requirements</div>"#,
        ],
        violating: [
            RuleExample(#"<div role="checkbox" tabindex="0">Agree</div>"#, at: "div"),
            RuleExample(#"<div role="heading">Title</div>"#, at: "div"),
            RuleExample(#"<div role="slider" aria-valuenow=" " tabindex="0"></div>"#, at: "div"),
            RuleExample(#"<div role="separator" tabindex="0"></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<div aria-checked="true">No role</div>"#,
            #"<div hidden role="checkbox"></div>"#,
        ]
    )
}
