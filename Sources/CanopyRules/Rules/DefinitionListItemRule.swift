import CanopyAccessibility
import CanopyHTML

/// `<dt>` and `<dd>` must be inside a `<dl>` (directly or in a `<div>` group), or screen readers
/// lose the term–description relationship.
public struct DefinitionListItemRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "dlitem",
        impact: .serious,
        tags: ["cat.structure", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.3.3"],
        description: "Checks that every <dt> and <dd> is inside a <dl>, directly or within a <div> group",
        help: "Terms and descriptions must be inside a description list",
        howToFix: "Put <dt> and <dd> directly inside a <dl> (or a role-less <div> inside it), and do not give that <dl> another role.",
        enabledByDefault: true,
        rationale: "A term or definition outside a <dl> loses its pairing with its counterpart."
    )

    public let selector = try! SelectorList("dd, dt")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        element.attribute("role")?.isEmpty ?? true
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        guard var parent = element.parent else { return .violation("The element is not inside a <dl>.") }
        var parentRole = model.explicitRole(of: parent)
        // HTML allows one <div> level between <dl> and its groups, if the div has no semantics.
        if parent.isHTML, parent.localName == "div", parentRole == nil || parentRole == "none" || parentRole == "presentation",
            let grandparent = parent.parent
        {
            parent = grandparent
            parentRole = model.explicitRole(of: grandparent)
        }
        guard parent.isHTML, parent.localName == "dl" else {
            return .violation("The <\(element.localName)> is inside <\(parent.localName)>\(parentRole.map { " with role=\"\($0)\"" } ?? ""), not a <dl>.")
        }
        if let parentRole, !["none", "presentation", "list"].contains(parentRole) {
            return .violation("The enclosing <dl> has role=\"\(parentRole)\", so it is no longer a description list.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            "<dl><dt>Tea</dt><dd>A hot drink</dd></dl>",
            "<dl><div><dt>Tea</dt><dd>A hot drink</dd></div></dl>",
            #"<dl><div role="presentation"><dt>Tea</dt><dd>Hot</dd></div></dl>"#,
            #"<dl role="list"><dt>Tea</dt></dl>"#,
        ],
        violating: [
            RuleExample("<dd>A hot drink</dd>", at: "dd"),
            RuleExample("<dt>Tea</dt>", at: "dt"),
            RuleExample("<div><dt>Tea</dt></div>", at: "dt"),
            RuleExample(#"<dl><div role="main"><dt>Tea</dt><dd>Hot</dd></div></dl>"#, at: "dt", "dd"),
            RuleExample(#"<dl role="menubar"><dt>Tea</dt><dd>Hot</dd></dl>"#, at: "dt", "dd"),
            RuleExample("<dl><div><div><dt>Tea</dt></div></div></dl>", at: "dt"),
        ],
        inapplicable: [
            #"<dl><dt role="term">Tea</dt><dd role="definition">Hot</dd></dl>"#,
            "<dl hidden><dt>Tea</dt></dl>",
            "<p>No terms</p>",
        ]
    )
}
