import CanopyAccessibility
import CanopyHTML

/// Roles that only make sense inside a container (listitem in a list, tab in a tablist, row in a
/// table) lose their meaning elsewhere: screen readers cannot announce the position or the set.
public struct ARIARequiredParentRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-required-parent",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.3.1"],
        description: "Checks that elements whose role needs a container are inside an element with one of the container roles",
        help: "ARIA roles that need a parent must be contained by it",
        howToFix: "Place the element inside an element with the required role (for example role=\"listitem\" inside role=\"list\"), directly or through elements without a role, or connect them with aria-owns.",
        enabledByDefault: true,
        rationale: "A role outside the container it belongs to (a tab outside a tablist) loses its place and position information."
    )

    public let selector = try! SelectorList("[role]")

    /// Roles whose items may nest inside a group inside an item of their own kind (tree > treeitem > group > treeitem).
    static let ownGroupRoles: Set<String> = ["listitem", "treeitem"]

    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let role = page.accessibility.explicitRole(of: element, options: .standard) else { return false }
        return !(ARIARoles.role(named: role)?.requiredContext.isEmpty ?? true)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        guard let role = model.explicitRole(of: element, options: .standard),
              let context = ARIARoles.role(named: role)?.requiredContext
        else { return .pass }
        var missing: [String]? = missingContext(startingAt: element.parent, for: role, needing: context, model: model)
        // aria-owns re-parents the element (or one of its ancestors) in the accessibility tree.
        for owner in owners(of: element, on: page) {
            guard let stillMissing = missing else { break }
            missing = missingContext(startingAt: owner, for: role, needing: stillMissing, model: model)
        }
        guard let missing else { return .pass }
        return .violation("Role \(role) must be contained by an element with role \(missing.joined(separator: " or ")).")
    }

    /// Walks up from `start`: roleless elements are transparent, a group is allowed where the
    /// context includes group; the first other role decides. Nil when the context is found.
    func missingContext(startingAt start: Element?, for role: String, needing context: [String], model: AccessibilityModel) -> [String]? {
        var needed = context
        // Decided once: nested groups (tree > group > group > treeitem) stay transparent.
        let allowsGroup = context.contains("group")
        var current = start
        while let ancestor = current {
            guard let ancestorRole = ARIAValidity.structuralRole(of: ancestor, model: model) else {
                current = ancestor.parent
                continue
            }
            if ancestorRole == "group" && allowsGroup {
                if Self.ownGroupRoles.contains(role) && !needed.contains(role) { needed.append(role) }
                needed.removeAll { $0 == "group" }
                current = ancestor.parent
            } else if needed.contains(ancestorRole) {
                return nil
            } else {
                return needed
            }
        }
        return needed
    }

    /// Elements whose aria-owns names the element or one of its ancestors, nearest first.
    func owners(of element: Element, in document: Document) -> [Element] {
        owners(of: element, ownerByID: Self.ownerByID(in: document.querySelectorAll(Self.ownsSelector)))
    }

    /// The same, with the page's owners listed once per page instead of searched for each ancestor.
    func owners(of element: Element, on page: PageContext) -> [Element] {
        let ownerByID = page.memo("aria-required-parent.owners") {
            Self.ownerByID(in: page.elements(matching: Self.ownsSelector))
        }
        return owners(of: element, ownerByID: ownerByID)
    }

    private func owners(of element: Element, ownerByID: [Substring: Element]) -> [Element] {
        guard !ownerByID.isEmpty else { return [] }
        var owners: [Element] = []
        var current: Element? = element
        while let node = current {
            if let id = node.attribute("id"), !id.isEmpty, let owner = ownerByID[Substring(id)] {
                owners.append(owner)
            }
            current = node.parent
        }
        return owners
    }

    /// For each id that an `aria-owns` names, the first element in document order naming it.
    private static func ownerByID(in owners: [Element]) -> [Substring: Element] {
        var ownerByID: [Substring: Element] = [:]
        for owner in owners {
            for id in (owner.attribute("aria-owns") ?? "").split(whereSeparator: \.isHTMLWhitespace) where ownerByID[id] == nil {
                ownerByID[id] = owner
            }
        }
        return ownerByID
    }

    static let ownsSelector = try! SelectorList("[aria-owns]")

    public let examples = RuleExamples(
        passing: [
            #"<div role="list"><div role="listitem">One</div></div>"#,
            #"<div role="tablist"><div><span role="tab">One</span></div></div>"#,
            #"<div role="list" aria-owns="item"></div><div role="listitem" id="item">Owned</div>"#,
            #"<div role="tree"><div role="treeitem">A<div role="group"><div role="treeitem">A1</div></div></div></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="listitem">Alone</div>"#, at: "div"),
            RuleExample(#"<div role="menu"><div role="listitem">Wrong container</div></div>"#, at: #"[role="listitem"]"#),
            RuleExample(#"<div role="group"><div role="treeitem">No tree</div></div>"#, at: #"[role="treeitem"]"#),
        ],
        inapplicable: [
            #"<div role="list">No context needed</div>"#,
            #"<ul><li>Native items are checked by the listitem rule</li></ul>"#,
            #"<div hidden role="listitem"></div>"#,
        ]
    )
}
