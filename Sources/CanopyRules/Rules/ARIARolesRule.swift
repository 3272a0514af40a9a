import CanopyAccessibility
import CanopyHTML

/// A `role` attribute must name a concrete WAI-ARIA role: an unknown role is ignored by browsers,
/// and abstract roles exist only to organise the taxonomy, so neither tells users what the element is.
public struct ARIARolesRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-roles",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that every role attribute uses a valid, concrete WAI-ARIA role",
        help: "ARIA roles must be valid values",
        howToFix: "Use a role that WAI-ARIA defines and that is not abstract (for example button rather than command), or remove the role attribute.",
        enabledByDefault: true,
        rationale: "An invalid or abstract role is ignored, so the element falls back to a meaning its author did not intend."
    )

    public let selector = try! SelectorList("[role]")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        ARIAValidity.hasNonEmptyRole(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let tokens = ARIAValidity.roleTokens(of: element)
        // Fallback lists are allowed: the value fails only when no token at all is a role.
        if tokens.allSatisfy({ ARIARoles.role(named: $0) == nil }) {
            return .violation("No token of role=\"\(tokens.joined(separator: " "))\" is a WAI-ARIA role.")
        }
        let abstract = tokens.filter { ARIARoles.role(named: $0)?.isAbstract == true }
        if !abstract.isEmpty {
            return .violation("The abstract role \(ARIAValidity.list(abstract)) must not be used in content.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="button" tabindex="0">Go</div>"#,
            #"<div role="button alert">Fallback list</div>"#,
            #"<div role="doc-endnote">Endnote</div>"#,
            #"<div role="foo navigation">Unknown token followed by a role</div>"#,
        ],
        violating: [
            RuleExample(#"<div role="lol">Unknown</div>"#, at: "div"),
            RuleExample(#"<div role="widget">Abstract</div>"#, at: "div"),
            RuleExample(#"<div role="button landmark">Abstract token in a list</div>"#, at: "div"),
        ],
        inapplicable: [
            #"<div role="">Empty</div>"#,
            #"<div role="  ">Blank</div>"#,
            #"<div hidden role="lol">Hidden</div>"#,
        ]
    )
}
