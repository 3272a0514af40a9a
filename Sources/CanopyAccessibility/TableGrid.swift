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

    /// Slots laid out at most per table. Spans multiply (colspan up to 1000 × rowspan up to
    /// 65534, and like axe-core's grid a rowspan may reach past the last row), so a few bytes of
    /// hostile markup asked for gigabytes (Tests/FuzzCorpus/parse/table-span-oom.html: 1 GB,
    /// 50 s). Every step counts: slots written, occupied slots skipped and holes padded (the
    /// fuzzer's timeouts, table-span-*.html). Real tables stay far below this; past it the grid
    /// is left partial.
    static let maximumSlots = 1 << 20

    init(table: Element) {
        let rows = Self.rows(of: table)
        // Slots hold what the scopes need of their cell: 1 for a `th`, 0 for another cell, -1
        // for a hole. Elements there cost reference counting on each of up to a million slots.
        var slots: [[Int8]] = []
        var budget = Self.maximumSlots
        layout: for (rowIndex, row) in rows.enumerated() {
            if slots.count <= rowIndex { slots.append([]) }
            var column = 0
            for cell in row.children where cell.isHTML && (cell.localName == "td" || cell.localName == "th") {
                let columnSpan = min(max(cell.attribute("colspan").flatMap(JavaScriptNumbers.parseInt) ?? 1, 1), 1000)
                let rowSpanValue = cell.attribute("rowspan").flatMap(JavaScriptNumbers.parseInt) ?? 1
                // rowspan=0 spans the rest of the table, as browsers do.
                let rowSpan = rowSpanValue == 0 ? rows.count : min(max(rowSpanValue, 1), 65534)
                let kind: Int8 = cell.localName == "th" ? 1 : 0
                for _ in 0..<columnSpan {
                    for offset in 0..<rowSpan {
                        budget -= 1
                        if budget < 0 { break layout }
                        let target = rowIndex + offset
                        while slots.count <= target { slots.append([]) }
                        while column < slots[target].count, slots[target][column] >= 0 { column += 1; budget -= 1 }
                        while slots[target].count <= column { slots[target].append(-1); budget -= 1 }
                        slots[target][column] = kind
                        if origins[cell.position] == nil { origins[cell.position] = (target, column) }
                    }
                    column += 1
                }
            }
        }
        // Which rows and columns are all headers, once: asked per cell, it cost rows × columns
        // per header, minutes for hostile spans (Tests/FuzzCorpus/parse/table-span-skip-timeout.html).
        rowIsAllHeaders = slots.map { !$0.contains(0) }
        var headersInColumn: [Int] = []
        for row in slots {
            while headersInColumn.count < row.count { headersInColumn.append(0) }
            for (column, slot) in row.enumerated() where slot == 1 { headersInColumn[column] += 1 }
        }
        columnIsAllHeaders = headersInColumn.map { $0 == slots.count }
    }

    /// The table's rows in table-model order: header-group rows, body rows, then footer rows.
    private static func rows(of table: Element) -> [Element] {
        var head: [Element] = []
        var body: [Element] = []
        var foot: [Element] = []
        for child in table.children where child.isHTML {
            switch child.localName {
            case "tr": body.append(child)
            case "thead": head += child.children.filter { $0.isHTML && $0.localName == "tr" }
            case "tbody": body += child.children.filter { $0.isHTML && $0.localName == "tr" }
            case "tfoot": foot += child.children.filter { $0.isHTML && $0.localName == "tr" }
            default: break
            }
        }
        return head + body + foot
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
