import CanopyAccessibility
import CanopyHTML

/// Every `aria-*` attribute must be one that WAI-ARIA defines: a misspelt name is silently
/// ignored by browsers, so the state or property it was meant to convey never reaches users.
public struct ARIAValidAttrRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-valid-attr",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that attributes whose names start with aria- are attributes WAI-ARIA defines",
        help: "ARIA attribute names must be valid",
        howToFix: "Correct the spelling of the attribute, or remove it if WAI-ARIA has no such state or property.",
        enabledByDefault: true,
        rationale: "A misspelled aria- attribute is ignored, so the state or relation it meant to convey is lost."
    )

    public let selector = try! SelectorList("*")

    public func candidates(on page: PageContext) -> [Element]? { page.accessibility.elementsWithARIAAttributes }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        page.accessibility.hasARIAAttribute(element)  // any aria-* attribute, known for the page at once
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let unknown = element.attributeNames.filter {
            ARIAValidity.isARIAName($0) && ARIAAttributes.attribute(named: $0.lowercased()) == nil
        }
        if unknown.isEmpty { return .pass }
        return .violation("WAI-ARIA defines no attribute named \(ARIAValidity.list(unknown)).")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="checkbox" aria-checked="true">Agree</div>"#,
            #"<button aria-describedby="hint">Save</button><p id="hint">Saves a draft</p>"#,
            #"<span aria-hidden="false">Visible</span>"#,
        ],
        violating: [
            RuleExample(#"<div role="checkbox" aria-chekced="true">Agree</div>"#, at: "div"),
            RuleExample(#"<button aria-labeledby="x">Save</button>"#, at: "button"),
        ],
        inapplicable: [
            #"<div role="button">No aria attributes</div>"#,
            #"<div hidden aria-foo="bar"></div>"#,
        ]
    )
}
