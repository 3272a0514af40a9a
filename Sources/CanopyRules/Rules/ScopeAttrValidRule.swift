import CanopyAccessibility
import CanopyHTML

/// `scope` tells screen readers which cells a header cell labels. It belongs on `<th>` only and
/// takes one of four values; anything else is ignored, and the cells lose their header.
public struct ScopeAttrValidRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "scope-attr-valid",
        impact: .moderate,
        tags: ["cat.tables", "best-practice"],
        description: "Checks that the scope attribute is on <th> only and has a valid value",
        help: "The scope attribute must be used correctly",
        howToFix: "Use scope only on <th> cells, with row, col, rowgroup or colgroup; for a <td> that is really a header, make it a <th>.",
        enabledByDefault: false,
        rationale: "A scope attribute on a data cell or with a bad value confuses table navigation; opt-in as in axe-core."
    )

    public let selector = try! SelectorList("td[scope], th[scope]")

    private static let values: Set<String> = ["row", "col", "rowgroup", "colgroup"]

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let scope = element.attribute("scope") ?? ""
        var problems: [String] = []
        // HTML 4 allowed scope on <td>; Canopy reads pages as HTML5, which does not (the
        // doctype is not kept by the parser, and HTML 4 pages are rare today).
        if element.localName == "td" { problems.append("scope is only allowed on <th>, not on <td>") }
        if !Self.values.contains(scope.lowercased()) {
            problems.append("scope=\"\(scope)\" is not row, col, rowgroup or colgroup")
        }
        if problems.isEmpty { return .pass }
        return .violation(problems.joined(separator: "; ") + ".")
    }

    public let examples = RuleExamples(
        passing: [
            #"<table><tr><th scope="col">Tea</th><th scope="col">Price</th></tr><tr><th scope="row">Sencha</th><td>4</td></tr></table>"#,
            #"<table><thead><tr><th scope="COLGROUP" colspan="2">Teas</th></tr></thead></table>"#,
        ],
        violating: [
            RuleExample(#"<table><tr><th scope="column">Tea</th></tr></table>"#, at: "th"),
            RuleExample(#"<table><tr><td scope="row">Sencha</td><td>4</td></tr></table>"#, at: "tr > td:nth-child(1)"),
            RuleExample(#"<table><tr><th scope=" row">Sencha</th></tr></table>"#, at: "th"),
            RuleExample(#"<table><tr><td scope="">Sencha</td></tr></table>"#, at: "td"),
        ],
        inapplicable: [
            #"<table><tr><th>Tea</th></tr><tr><td>Sencha</td></tr></table>"#,
            #"<table hidden><tr><th scope="column">Tea</th></tr></table>"#,
        ]
    )
}
