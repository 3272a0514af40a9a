import CanopyAccessibility
import CanopyHTML

/// The `headers` attribute tells screen readers which header cells describe a data cell; it
/// only works when it names header cells of the same table.
public struct TDHeadersAttrRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "td-headers-attr",
        impact: .serious,
        tags: [
            "cat.tables", "wcag2a", "wcag131", "section508", "section508.22.g", "TTv5", "TT14.b", "EN-301-549",
            "EN-9.1.3.1", "RGAAv4", "RGAA-5.7.4",
        ],
        description: "Checks that every cell's headers attribute names only header cells of the same table",
        help: "headers attributes must refer to header cells of the same table",
        howToFix: "List in headers only the ids of <th> cells (or cells with role columnheader/rowheader) of the same table, never the cell's own id, and remove empty headers attributes.",
        enabledByDefault: true,
        rationale: "A headers attribute pointing outside the table gives a cell the wrong header."
    )

    public let selector = try! SelectorList("table")

    /// Tables that keep table semantics (table, grid or treegrid role).
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let role = page.accessibility.role(of: element, options: .axeDefault) else { return false }
        return role == "table" || role == "grid" || role == "treegrid"
    }

    /// Problems by how serious they are: a reference outside the table, then a reference to a
    /// cell that is no header, then a self-reference; an empty `headers` only needs review.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let cells = TableStructure.rows(of: element).flatMap(TableStructure.cells)
        var roleByID: [String: String?] = [:]
        for cell in cells {
            if let id = cell.id, !id.isEmpty { roleByID[id] = model.role(of: cell, options: .axeDefault) }
        }
        var outsideTable = false, notHeader = false, selfReference = false, emptyHeaders = false
        for cell in cells {
            guard let headers = cell.attribute("headers"), !model.isHiddenFromAssistiveTechnology(cell) else { continue }
            let ids = headers.split(whereSeparator: \.isWhitespace).map(String.init)
            if ids.isEmpty {
                emptyHeaders = true
                continue
            }
            for id in ids {
                if let cellID = cell.id, !cellID.isEmpty, id == cellID {
                    selfReference = true
                } else if let role = roleByID[id], let role {
                    if role != "columnheader" && role != "rowheader" { notHeader = true }
                } else {
                    outsideTable = true
                }
            }
        }
        if outsideTable {
            return .violation("A headers attribute names an id that is not a cell of this table.")
        }
        if notHeader {
            return .violation("A headers attribute names a cell of this table that is not a row or column header.")
        }
        if selfReference {
            return .violation("A cell lists its own id in its headers attribute.")
        }
        if emptyHeaders {
            return .incomplete("A cell has an empty headers attribute; check whether it should name its header cells.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<table><tr><th id="name">Name</th></tr><tr><td headers="name">Sencha</td></tr></table>"#,
            #"<table><tr><th id="a">A</th><th id="b">B</th><td headers="a b">Both</td></tr></table>"#,
            #"<table><tr><td role="rowheader" id="r">Row</td><td headers="r">Value</td></tr></table>"#,
            "<table><tr><th>Name</th></tr><tr><td>Sencha</td></tr></table>",
        ],
        violating: [
            RuleExample(#"<table><tr><th id="h">Name</th><td headers="h missing">Sencha</td></tr></table>"#, at: "table"),
            RuleExample(#"<table><tr><td id="c" headers="c">Self</td></tr></table>"#, at: "table"),
            RuleExample(#"<table><tr><td id="d">Plain cell</td><td headers="d">Sencha</td></tr></table>"#, at: "table"),
            RuleExample(#"<p id="outside">Outside</p><table><tr><th>Name</th><td headers="outside">Sencha</td></tr></table>"#, at: "table"),
        ],
        incomplete: [
            RuleExample(#"<table><tr><th id="h">Name</th><td headers=" ">Sencha</td></tr></table>"#, at: "table"),
        ],
        inapplicable: [
            #"<table role="presentation"><tr><td id="c" headers="c">Layout</td></tr></table>"#,
            "<p>No tables</p>",
        ]
    )
}
