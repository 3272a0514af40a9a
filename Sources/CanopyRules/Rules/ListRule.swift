import CanopyAccessibility
import CanopyHTML

/// `<ul>` and `<ol>` may hold only list items (and script-supporting elements), so that screen
/// readers announce the list and its length correctly.
public struct ListRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "list",
        impact: .serious,
        tags: ["cat.structure", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.3.1"],
        description: "Checks that <ul> and <ol> contain only <li> elements (or elements with role=listitem) as direct children",
        help: "Lists may contain only list items",
        howToFix: "Wrap each child of the list in an <li>, move other content out of the list, and do not give <li> children a role other than listitem.",
        enabledByDefault: true,
        rationale: "Other content directly inside a list breaks the item count screen readers announce."
    )

    public let selector = try! SelectorList("ul, ol")

    /// A list with any `role` has been given other semantics, which other rules check.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        element.attribute("role")?.isEmpty ?? true
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        var wrongElements: [String] = []
        var itemsWithOtherRoles: [String] = []
        for child in element.childNodes {
            switch child.kind {
            case .text:
                if !child.text.allSatisfy(\.isWhitespace) {
                    return .violation("The list holds text directly; only <li> elements may be its children.")
                }
            case .element:
                guard let child = child.element, !model.isHiddenFromAssistiveTechnology(child) else { continue }
                let isItemElement = child.isHTML && child.localName == "li"
                let role = model.role(of: child)
                if role == "listitem" { continue }
                if isItemElement {
                    itemsWithOtherRoles.append(role ?? "no role")
                } else {
                    wrongElements.append("<\(child.localName)>")
                }
            default:
                continue
            }
        }
        if !wrongElements.isEmpty {
            return .violation("The list has children that are not list items: \(Self.summary(wrongElements)).")
        }
        if !itemsWithOtherRoles.isEmpty {
            return .violation("Some <li> children have a role that is not listitem (\(Self.summary(itemsWithOtherRoles))), so they are not list items.")
        }
        return .pass
    }

    /// Distinct names, in order of appearance.
    static func summary(_ names: [String]) -> String {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    public let examples = RuleExamples(
        passing: [
            "<ul><li>Tea</li><li>Coffee</li></ul>",
            "<ol><li>Boil water</li><li>Pour</li></ol>",
            "<ul></ul>",
            "<ul><script></script><template><p>Later</p></template><li>Tea</li></ul>",
            #"<ul><li>Tea</li><div role="listitem">Coffee</div></ul>"#,
            "<ul><li>Tea</li><div hidden>Not rendered</div></ul>",
            #"<ul><li>Tea</li><p aria-hidden="true">Ignored by screen readers</p></ul>"#,
            "<ul>\n  <!-- a comment -->\n  <li>Tea</li>\n</ul>",
        ],
        violating: [
            RuleExample("<ul><div>Tea</div></ul>", at: "ul"),
            RuleExample("<ol><li>Tea</li><p>Coffee</p></ol>", at: "ol"),
            RuleExample("<ul>Loose text<li>Tea</li></ul>", at: "ul"),
            RuleExample(#"<ul><li role="menuitem">Tea</li><li role="menuitem">Coffee</li></ul>"#, at: "ul"),
            RuleExample(#"<ol><li>Tea</li><li role="menuitem">Coffee</li></ol>"#, at: "ol"),
            RuleExample(#"<ul><li role="presentation">Tea</li></ul>"#, at: "ul"),
        ],
        inapplicable: [
            #"<ul role="menu"><li role="menuitem">Tea</li></ul>"#,
            #"<ol role="tablist"><li role="tab">One</li></ol>"#,
            "<ul hidden><div>Tea</div></ul>",
            "<p>No lists</p>",
        ]
    )
}
