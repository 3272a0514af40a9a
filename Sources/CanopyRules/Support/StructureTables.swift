import CanopyHTML

/// The table DOM that axe's table checks read (`table.rows`, `row.cells`), without layout.
enum StructureTables {
    /// The table's own rows: `<tr>` children of the table and of its `<thead>`, `<tbody>` and
    /// `<tfoot>`; rows of nested tables are not included. Header-group rows come first and
    /// footer rows last, as in the DOM's `rows` collection.
    static func rows(of table: Element) -> [Element] {
        var head: [Element] = [], body: [Element] = [], foot: [Element] = []
        for child in table.children where child.isHTML {
            switch child.localName {
            case "tr": body.append(child)
            case "thead": head += child.children.filter(isRow)
            case "tbody": body += child.children.filter(isRow)
            case "tfoot": foot += child.children.filter(isRow)
            default: continue
            }
        }
        return head + body + foot
    }

    /// The `<td>` and `<th>` children of a row.
    static func cells(of row: Element) -> [Element] {
        row.children.filter { $0.isHTML && ($0.localName == "td" || $0.localName == "th") }
    }

    private static func isRow(_ element: Element) -> Bool { element.isHTML && element.localName == "tr" }
}
