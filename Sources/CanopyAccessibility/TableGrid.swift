import CanopyHTML

/// Whether a table cell heads its column, its row, both ("auto"), or nothing.
public enum TableHeaderScope: Sendable, Equatable {
    case column, row, auto, none
}

/// A table laid out as the HTML table model does, with row and column spans filling slots, so
/// that a header's scope can be read from whether its whole row or column is made of headers.
struct TableGrid {
    /// Where each cell's top-left slot is, by element position.
    private var origins: [Int: (row: Int, column: Int)] = [:]
    /// Per row: every slot is a `th` or a hole.
    private var rowIsAllHeaders: [Bool] = []
    /// Per column: every row has a `th` there.
    private var columnIsAllHeaders: [Bool] = []

    init(table: Element) {
        let layout = TableLayout(table: table, spans: .browser)
        let isHeader = layout.cells.map { $0.localName == "th" }
        for (index, cell) in layout.cells.enumerated() { origins[cell.position] = layout.origins[index] }
        // Which rows and columns are all headers, once: asked per cell, it cost rows × columns
        // per header, minutes for hostile spans (Tests/FuzzCorpus/parse/table-span-skip-timeout.html).
        rowIsAllHeaders = layout.slots.map { row in !row.contains { $0 >= 0 && !isHeader[Int($0)] } }
        var headersInColumn: [Int] = []
        for row in layout.slots {
            while headersInColumn.count < row.count { headersInColumn.append(0) }
            for (column, slot) in row.enumerated() where slot >= 0 && isHeader[Int(slot)] { headersInColumn[column] += 1 }
        }
        columnIsAllHeaders = headersInColumn.map { $0 == layout.slots.count }
    }

    /// A header's scope from its attributes alone; `.auto` for a `th` the markup says nothing about.
    static func scope(of cell: Element) -> TableHeaderScope {
        explicitScope(of: cell) ?? (cell.localName == "th" ? .auto : .none)
    }

    private static func explicitScope(of cell: Element) -> TableHeaderScope? {
        switch AccessibilityModel.explicitRole(of: cell, options: .axeDefault) {
        case "columnheader": return .column
        case "rowheader": return .row
        default: break
        }
        switch cell.attribute("scope") {  // compared as written, as axe does
        case "col": return .column
        case "row": return .row
        default: return nil
        }
    }

    /// A `th` heads its column when its whole row is headers, its row when its whole column is.
    func scope(of cell: Element) -> TableHeaderScope {
        if let scope = Self.explicitScope(of: cell) { return scope }
        guard cell.isHTML, cell.localName == "th" else { return .none }
        guard let origin = origins[cell.position] else { return .auto }
        if rowIsAllHeaders[origin.row] { return .column }
        if columnIsAllHeaders[origin.column] { return .row }
        return .auto
    }
}
