import CanopyAccessibility
import CanopyHTML

/// Some roles forbid naming attributes (`aria-label`, `aria-labelledby` on generic, text-level and
/// presentational roles): assistive technology ignores them there, so the label never reaches users.
public struct ARIAProhibitedAttrRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-prohibited-attr",
        impact: .serious,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that elements do not carry ARIA attributes their role prohibits",
        help: "ARIA attributes prohibited by the element's role must not be used",
        howToFix: "Remove the prohibited attribute, or give the element a role that supports it (for example put the text itself in the content, or use a landmark or group role).",
        enabledByDefault: true,
        rationale: "Naming attributes on roles that prohibit names (generic, presentation...) are ignored, so the label the author wrote is never heard."
    )

    public let selector = try! SelectorList("*")

    public func candidates(on page: PageContext) -> [Element]? { page.accessibility.elementsWithARIAAttributes }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        page.accessibility.hasARIAAttribute(element)  // any aria-* attribute, known for the page at once
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let prohibitedNames = Self.prohibitedAttributes(of: element, model: model)
        let used = prohibitedNames.filter { ARIAValidity.nonBlankValue(element, $0) != nil }
        guard !used.isEmpty else { return .pass }
        let roleDescription = model.role(of: element).map { "role \($0)" } ?? "an element without a role"
        let message = "\(ARIAValidity.list(used)) is not supported on \(roleDescription)"
        // With text content the label is merely redundant to some users; a person should judge.
        if !model.subtreeText(of: element).isEmpty {
            return .incomplete("\(message); screen readers may read the element's text instead, so check the text conveys the same.")
        }
        return .violation("\(message), so assistive technology ignores it.")
    }

    /// The attributes forbidden for the element's role; an element with no role at all may not be named.
    static func prohibitedAttributes(of element: Element, model: AccessibilityModel) -> [String] {
        // Descendants of a role with presentational children are presentational by inheritance,
        // which is not the author's presentation role: nothing is prohibited there.
        if ARIAValidity.hasPresentationalChildrenAncestor(element, model: model) { return [] }
        guard let role = model.role(of: element) else { return ["aria-label", "aria-labelledby"] }
        return ARIARoles.role(named: role)?.prohibitedAttributes ?? []
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="dialog" aria-label="Settings"></div>"#,
            #"<div aria-label="  "></div>"#,
            #"<div role="button"><span aria-label="Inner"></span></div>"#,
            #"<nav aria-label="Main"></nav>"#,
        ],
        violating: [
            RuleExample(#"<div aria-label="Empty box"></div>"#, at: #"[aria-label="Empty box"]"#),
            RuleExample(#"<span aria-labelledby="x"></span>"#, at: "span"),
            RuleExample(#"<div role="paragraph" aria-label="Note"></div>"#, at: #"[aria-label="Note"]"#),
        ],
        incomplete: [
            RuleExample(#"<div aria-label="Greeting">Hello</div>"#, at: #"[aria-label="Greeting"]"#),
        ],
        inapplicable: [
            "<div>No ARIA attributes</div>",
            #"<div hidden aria-label="Hidden"></div>"#,
        ]
    )
}
