import CanopyAccessibility
import CanopyHTML

/// Container roles (list, menu, tablist, grid...) must own the items their role promises, and
/// nothing else with semantics: otherwise screen readers announce an empty or broken structure.
public struct ARIARequiredChildrenRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-required-children",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.3.1"],
        description: "Checks that elements whose role needs specific children own at least one of them and no other roles",
        help: "ARIA roles that need children must contain them",
        howToFix: "Put elements with the required roles inside the container (for example role=\"listitem\" in role=\"list\"), move elements with other roles out, or set aria-busy=\"true\" while the content is loading.",
        enabledByDefault: true,
        rationale: "A composite role without the children it needs (a list with no items) is an empty or broken widget to assistive technology."
    )

    public let selector = try! SelectorList("[role]")

    /// Containers that are often filled by script after load: when empty, a person should check.
    static let reviewWhenEmpty: Set<String> = [
        "doc-bibliography", "doc-endnotes", "grid", "list", "listbox", "menu", "menubar",
        "table", "tablist", "tree", "treegrid", "rowgroup",
    ]

    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let role = page.accessibility.explicitRole(of: element, options: .standard) else { return false }
        return !(ARIARoles.role(named: role)?.requiredOwned.isEmpty ?? true)
    }

    struct OwnedItem {
        let element: Element
        let role: String?
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        guard let role = model.explicitRole(of: element, options: .standard),
              let required = ARIARoles.role(named: role)?.requiredOwned, !required.isEmpty
        else { return .pass }
        let owned = ownedItems(of: element, required: required, model: model)
        let unallowed = owned.filter { item in item.role.map { !required.contains($0) } ?? true }
        if !unallowed.isEmpty {
            let names = ARIAValidity.list(unallowed.map { item in item.role.map { "role \($0)" } ?? "<\(item.element.localName)> with ARIA attributes or focus" })
            return .violation("Role \(role) may only own \(required.joined(separator: ", ")), but it owns \(names).")
        }
        if owned.contains(where: { $0.role.map(required.contains) ?? false }) { return .pass }
        // A container that says it is still loading may be empty for now.
        if element.attribute("aria-busy") == "true" { return .pass }
        let message = "Role \(role) must own at least one element with role \(required.joined(separator: ", "))"
        if Self.reviewWhenEmpty.contains(role) {
            return .incomplete("\(message); it is empty, perhaps until a script fills it, so check the page in a browser.")
        }
        return .violation("\(message).")
    }

    /// The owned elements that carry semantics: roleless, non-focusable elements without global
    /// ARIA attributes are looked through, and so are groups the container allows.
    func ownedItems(of element: Element, required: [String], model: AccessibilityModel) -> [OwnedItem] {
        var items: [OwnedItem] = []
        var pending = model.ownedElements(of: element)
        var index = 0
        while index < pending.count {
            let candidate = pending[index]
            index += 1
            if model.isHiddenFromAssistiveTechnology(candidate) { continue }
            let role = ARIAValidity.structuralRole(of: candidate, model: model)
            let isSignificant = model.hasGlobalARIAAttribute(candidate) || model.isFocusable(candidate)
            if (role == nil && !isSignificant) || (role.map { ["group", "rowgroup"].contains($0) && required.contains($0) } ?? false) {
                pending += candidate.children
            } else {
                items.append(OwnedItem(element: candidate, role: role))
            }
        }
        return items
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="list"><div role="listitem">One</div></div>"#,
            #"<div role="list"><div><div role="listitem">Through a plain div</div></div></div>"#,
            #"<div role="list" aria-owns="item"></div><div role="listitem" id="item">Owned</div>"#,
            #"<div role="listbox" aria-label="Colours"><div role="group"><div role="option">Red</div></div></div>"#,
            #"<div role="list" aria-busy="true"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="list"><div role="menuitem">Wrong item</div></div>"#, at: #"[role="list"]"#),
            RuleExample(#"<div role="list"><div role="tabpanel"><div role="listitem">Nested too deep</div></div></div>"#, at: #"[role="list"]"#),
            RuleExample(#"<div role="list"><div tabindex="0"><div role="listitem">Focusable wrapper</div></div></div>"#, at: #"[role="list"]"#),
            RuleExample(#"<div role="row"><span>No cells</span></div>"#, at: "div"),
        ],
        incomplete: [
            RuleExample(#"<div role="list"></div>"#, at: "div"),
            RuleExample(#"<div role="menu"><span role="menuitem" hidden></span></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<div role="listitem">Needs no children</div>"#,
            "<ul><li>Native lists are the list rule's business</li></ul>",
            #"<div hidden role="list"></div>"#,
        ]
    )
}
