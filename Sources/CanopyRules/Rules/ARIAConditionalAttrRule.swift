import CanopyAccessibility
import CanopyHTML

/// Some ARIA attributes are allowed only in certain situations: tree attributes on a row belong to
/// treegrids, and aria-checked on a native checkbox or radio button must agree with its real checked state —
/// otherwise users hear a state that is not the element's.
public struct ARIAConditionalAttrRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-conditional-attr",
        impact: .serious,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that ARIA attributes are used only where the element's situation allows them",
        help: "ARIA attributes must be used as their role's conditions require",
        howToFix: "On a native checkbox remove aria-checked (or keep it equal to the checked state); on rows of a table or grid remove aria-level, aria-posinset, aria-setsize and aria-expanded, or make the container a treegrid.",
        enabledByDefault: true,
        rationale: "Some ARIA attributes are valid only in certain contexts (a checkbox's aria-checked next to a native checked state); elsewhere they contradict what the browser exposes."
    )

    public let selector = try! SelectorList("*")

    /// Attributes that only rows of a treegrid may use.
    static let treeRowAttributes = ["aria-posinset", "aria-setsize", "aria-expanded", "aria-level"]

    public func candidates(on page: PageContext) -> [Element]? { page.accessibility.elementsWithARIAAttributes }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        page.accessibility.hasARIAAttribute(element)  // any aria-* attribute, known for the page at once
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        switch model.role(of: element) {
        case "row": return evaluateRow(element, model: model)
        case "checkbox", "radio": return evaluateNativeCheckable(element)
        default: return .pass
        }
    }

    func evaluateRow(_ element: Element, model: AccessibilityModel) -> CheckOutcome {
        let misplaced = Self.treeRowAttributes.filter { element.hasAttribute($0) }
        guard !misplaced.isEmpty, let container = Self.tableContainer(of: element),
              let containerRole = model.role(of: container), containerRole != "treegrid"
        else { return .pass }
        return .violation("\(misplaced.joined(separator: ", ")) may only be used on rows of a treegrid, not of a \(containerRole).")
    }

    /// A native checkbox or radio button has its own checked state; an aria-checked that disagrees
    /// contradicts it. Values other than true (and mixed, for checkboxes) read as false; the
    /// indeterminate state is set from script, so a static checkbox is never mixed.
    func evaluateNativeCheckable(_ element: Element) -> CheckOutcome {
        guard element.isHTML, element.localName == "input",
              let type = element.attribute("type")?.ariaTrimmed.lowercased(), type == "checkbox" || type == "radio",
              let raw = ARIAValidity.nonBlankValue(element, "aria-checked")?.lowercased()
        else { return .pass }
        let stated = raw == "true" || (raw == "mixed" && type == "checkbox") ? raw : "false"
        let actual = element.hasAttribute("checked") ? "true" : "false"
        if stated == actual { return .pass }
        return .violation("aria-checked=\"\(raw)\" contradicts the \(type)'s actual state (\(actual == "true" ? "checked" : "not checked")).")
    }

    /// The nearest ancestor that owns rows: a table without a role, or an element whose role
    /// list names treegrid, table or grid.
    static func tableContainer(of element: Element) -> Element? {
        var current = element.parent
        while let ancestor = current {
            if ancestor.isHTML && ancestor.localName == "table" && !ancestor.hasAttribute("role") { return ancestor }
            let tokens = ARIAValidity.roleTokens(of: ancestor)
            if tokens.contains(where: { ["treegrid", "table", "grid"].contains($0) }) { return ancestor }
            current = ancestor.parent
        }
        return nil
    }

    public let examples = RuleExamples(
        passing: [
            #"<input type="checkbox" aria-checked="true" checked>"#,
            #"<input type="checkbox" aria-label="Agree">"#,
            #"<input type="radio" aria-checked="yes">"#,
            #"<div role="checkbox" aria-checked="mixed" tabindex="0">All</div>"#,
            #"<table role="treegrid"><tr role="row" aria-level="1" aria-expanded="true"><td role="gridcell">A</td></tr></table>"#,
        ],
        violating: [
            RuleExample(#"<input type="checkbox" aria-checked="true">"#, at: "input"),
            RuleExample(#"<input type="checkbox" aria-checked="mixed">"#, at: "input"),
            RuleExample(#"<input type="radio" aria-checked="true">"#, at: "input"),
            RuleExample(#"<table><tr aria-posinset="1"><td>A</td></tr></table>"#, at: "tr"),
            RuleExample(#"<div role="grid"><div role="row" aria-level="1"><div role="gridcell">A</div></div></div>"#, at: #"[role="row"]"#),
            RuleExample(#"<div role="table"><div role="row" aria-expanded="false"><div role="cell">A</div></div></div>"#, at: #"[role="row"]"#),
        ],
        inapplicable: [
            #"<input type="checkbox" checked>"#,
            #"<div hidden role="row" aria-level="1"></div>"#,
        ]
    )
}
