import CanopyAccessibility
import CanopyHTML

/// Each item of an ARIA tree needs a name, or screen readers announce a nameless node.
public struct ARIATreeitemNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-treeitem-name",
        impact: .serious,
        tags: ["cat.aria", "best-practice"],
        description: "Checks that every element with role=\"treeitem\" has an accessible name",
        help: "ARIA tree items should have an accessible name",
        howToFix: "Put visible text inside the tree item, or give it an aria-label, aria-labelledby or title.",
        enabledByDefault: false,
        rationale: "A tree item without a name leaves a silent node in the tree; opt-in because axe-core keeps it as a best practice."
    )

    public let selector = try! SelectorList(#"[role="treeitem"]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    /// Visible text inside, aria-label, aria-labelledby or title.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if page.accessibility.hasVisibleText(element) || checks.hasARIALabelOrTitle(element) { return .pass }
        return .violation("The tree item has no visible text, no aria-label, no aria-labelledby that gives text, and no title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<ul role="tree"><li role="treeitem">Documents</li></ul>"#,
            #"<ul role="tree"><li role="treeitem" aria-label="Documents"><img src="folder.png" alt=""></li></ul>"#,
        ],
        violating: [
            RuleExample(#"<ul role="tree"><li role="treeitem"></li></ul>"#, at: "li"),
            RuleExample(#"<ul role="tree"><li role="treeitem"><span style="display:none">Documents</span></li></ul>"#, at: "li"),
        ],
        inapplicable: [
            #"<div role="tree"><a href="/docs" role="treeitem">Documents</a></div>"#,
            #"<ul role="tree"><li role="treeitem" hidden></li></ul>"#,
        ]
    )
}
