import CanopyAccessibility
import CanopyHTML

/// `<li>` must be inside a list, or screen readers do not announce it as part of one.
public struct ListItemRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "listitem",
        impact: .serious,
        tags: ["cat.structure", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.3.1"],
        description: "Checks that every <li> is a child of <ul>, <ol>, <menu> or an element with role=list",
        help: "List items must be inside a list",
        howToFix: "Put the <li> directly inside a <ul>, <ol> or <menu>, and do not give that list a role other than list.",
        enabledByDefault: true,
        rationale: "A list item outside a list loses its list semantics and count."
    )

    public let selector = try! SelectorList("li")

    /// Roles that are kinds of list in ARIA, whose children may be list items.
    static let listRoles: Set<String> = ["list", "directory", "feed"]

    /// An `<li>` with a `role` is something else, which other rules check.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        element.attribute("role")?.isEmpty ?? true
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard let parent = element.parent else {
            return .violation("The list item has no parent list.")
        }
        // A presentational parent list leaves the items as they are (axe-core counts this as a pass).
        if let role = page.accessibility.explicitRole(of: parent) {
            if role == "none" || role == "presentation" || Self.listRoles.contains(role) { return .pass }
            return .violation("The parent <\(parent.localName)> has role=\"\(role)\", so this item is not in a list.")
        }
        if parent.isHTML, ["ul", "ol", "menu"].contains(parent.localName) { return .pass }
        return .violation("The list item's parent is <\(parent.localName)>, not <ul>, <ol>, <menu> or role=list.")
    }

    public let examples = RuleExamples(
        passing: [
            "<ul><li>Tea</li></ul>",
            "<ol><li>Tea</li></ol>",
            "<menu><li><button>Copy</button></li></menu>",
            #"<div role="list"><li>Tea</li></div>"#,
            #"<ul role="presentation"><li>Tea</li></ul>"#,
            #"<ul role="none"><li>Tea</li></ul>"#,
        ],
        violating: [
            RuleExample("<li>Tea</li>", at: "li"),
            RuleExample("<div><li>Tea</li></div>", at: "li"),
            RuleExample(#"<ul role="menubar"><li>Tea</li></ul>"#, at: "li"),
            RuleExample(#"<ol role="tablist"><li>Tea</li></ol>"#, at: "li"),
        ],
        inapplicable: [
            #"<ul role="menu"><li role="menuitem">Tea</li></ul>"#,
            "<ul><li hidden>Tea</li></ul>",
            "<p>No list items</p>",
        ]
    )
}
