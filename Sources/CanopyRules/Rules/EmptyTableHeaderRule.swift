import CanopyAccessibility
import CanopyHTML

/// Screen readers announce a column or row header before each cell it heads; an empty header
/// leaves users without that context.
public struct EmptyTableHeaderRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "empty-table-header",
        impact: .minor,
        tags: ["cat.name-role-value", "best-practice"],
        description: "Checks that table header cells have visible text",
        help: "Table headers should have visible text",
        howToFix: "Write the header's text inside it, or make the cell an ordinary <td> if it heads nothing.",
        enabledByDefault: false,
        rationale: "A header cell with no text gives its column or row no name; opt-in because axe-core keeps it as a best practice."
    )

    public let selector = try! SelectorList(#"th:not([role]), [role="rowheader"], [role="columnheader"]"#)

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if page.accessibility.hasVisibleText(element) { return .pass }
        return .violation("The header cell shows no text.")
    }

    public let examples = RuleExamples(
        passing: [
            "<table><tr><th>Price</th></tr><tr><td>3</td></tr></table>",
            #"<table><tr><td role="rowheader">Monday</td><td>Closed</td></tr></table>"#,
        ],
        violating: [
            RuleExample("<table><tr><th></th><td>Tea</td></tr></table>", at: "th"),
            RuleExample(#"<table><tr><th aria-label="Actions"></th></tr></table>"#, at: #"[aria-label="Actions"]"#),
            RuleExample(#"<table><tr><td role="columnheader"><span style="display:none">Price</span></td></tr></table>"#, at: "td"),
        ],
        inapplicable: [
            #"<table><tr><th role="cell">Note</th></tr></table>"#,
            "<table><tr><td>Tea</td></tr></table>",
        ]
    )
}
