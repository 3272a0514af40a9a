import CanopyAccessibility
import CanopyHTML

/// A header cell that heads no data cell is usually a layout slip or a misused `<th>`; screen
/// reader users then hear headers that describe nothing.
public struct THHasDataCellsRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "th-has-data-cells",
        impact: .serious,
        tags: [
            "cat.tables", "wcag2a", "wcag131", "section508", "section508.22.g", "TTv5", "TT14.b", "EN-301-549",
            "EN-9.1.3.1", "RGAAv4", "RGAA-5.7.1",
        ],
        description: "Checks that every header cell of a data table heads at least one data cell",
        help: "Header cells in data tables should describe data cells",
        howToFix: "Make header cells that head nothing ordinary <td> cells, or add the data cells they describe (or name them in the data cells' headers attribute).",
        enabledByDefault: false,
        rationale: "A header that heads no data cell misleads table navigation; opt-in because layout often decides it."
    )

    public let selector = try! SelectorList("table")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        DataTableHeuristics.isDataTable(element, model: page.accessibility)
    }

    /// As in axe, a header without data cells is never a sure failure (the table may be
    /// unfinished or filled by script), so it is reported for review.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let cells = TableStructure.rows(of: element).flatMap(TableStructure.cells)
        // Headers that a cell names in headers or aria-labelledby describe that cell.
        var referencedIDs: Set<Substring> = []
        for cell in cells {
            for attribute in ["headers", "aria-labelledby"] {
                referencedIDs.formUnion((cell.attribute(attribute) ?? "").split(whereSeparator: \.isWhitespace))
            }
        }
        let headers = cells.filter { cell in
            guard !NamingChecks.isBlank(cell.textContent) else { return false }
            let role = model.role(of: cell, options: .axeDefault)
            return cell.localName == "th" || role == "rowheader" || role == "columnheader"
        }
        guard !headers.isEmpty else { return .pass }
        let grid = HeaderCellGrid(table: element)
        let lonely = grid.headersWithoutDataCells(
            headers.filter { header in header.id.map { !referencedIDs.contains(Substring($0)) } ?? true },
            scope: { model.tableHeaderScope(of: $0) }
        )
        guard !lonely.isEmpty else { return .pass }
        let names = lonely.prefix(3).map { "\"\(model.visibleText(of: $0))\"" }.joined(separator: ", ")
        return .incomplete(
            "\(lonely.count) header cell(s) (\(names)) head no data cell; check whether they are really headers."
        )
    }

    public let examples = RuleExamples(
        passing: [
            "<table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table>",
            "<table><tr><th>Monday</th><td>Closed</td></tr><tr><th>Tuesday</th><td>9-5</td></tr></table>",
            #"<table><tr><td headers="h">Tea</td><th id="h">Drink</th></tr></table>"#,
            #"<table><tr><th colspan="2">Price</th></tr><tr><td>3</td><td>4</td></tr></table>"#,
        ],
        violating: [],
        incomplete: [
            RuleExample("<table><tr><th>Name</th><th>Price</th></tr></table>", at: "table"),
            RuleExample("<table><tr><td>Tea</td><th>Drink</th></tr></table>", at: "table"),
        ],
        inapplicable: [
            #"<table role="presentation"><tr><th>Layout</th></tr></table>"#,
            "<table><tr><td>One</td><td>Two</td></tr></table>",
        ]
    )
}
