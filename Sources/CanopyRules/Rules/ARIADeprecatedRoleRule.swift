import CanopyAccessibility
import CanopyHTML

/// Deprecated roles (`directory`, `doc-biblioentry`, `doc-endnote`) are on their way out of
/// WAI-ARIA and DPUB-ARIA, so assistive technology may stop supporting them.
public struct ARIADeprecatedRoleRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-deprecated-role",
        impact: .minor,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that elements do not use roles that WAI-ARIA has deprecated",
        help: "Deprecated ARIA roles must not be used",
        howToFix: "Replace the deprecated role with its successor (list instead of directory, listitem instead of doc-biblioentry or doc-endnote).",
        enabledByDefault: true,
        rationale: "Deprecated roles are dropped by newer assistive technology, so the element loses the meaning its author gave it."
    )

    public let selector = try! SelectorList("[role]")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        ARIAValidity.hasNonEmptyRole(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        // The role in effect: the first token that names a concrete role (DPUB included).
        guard let role = page.accessibility.explicitRole(of: element, options: .standard),
              ARIARoles.role(named: role)?.deprecated == true
        else { return .pass }
        return .violation("The role \(role) is deprecated.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<ul role="list"><li>One</li></ul>"#,
            #"<div role="lol">Unknown roles are another rule's business</div>"#,
            #"<div role="button directory">Only the first valid token counts</div>"#,
        ],
        violating: [
            RuleExample(#"<div role="directory">Links</div>"#, at: "div"),
            RuleExample(#"<div role="doc-endnote">Note</div>"#, at: "div"),
            RuleExample(#"<div role="foo doc-biblioentry">Entry</div>"#, at: "div"),
        ],
        inapplicable: [
            #"<div role="">Empty</div>"#,
            #"<div>No role</div>"#,
            #"<div hidden role="directory"></div>"#,
        ]
    )
}
