import CanopyAccessibility
import CanopyHTML
import Foundation

/// A table's cells laid out on the HTML table grid (row and column spans fill slots), with the
/// header lookups axe-core's table rules make on it.
struct HeaderCellGrid {
    private let layout: TableLayout
    /// Index in the layout's cells by element position.
    private var indexes: [Int: Int] = [:]

    init(table: Element) {
        layout = TableLayout(table: table, spans: .axe)
        for (index, cell) in layout.cells.enumerated() { indexes[cell.position] = index }
    }

    private var cells: [Element] { layout.cells }
    private var slots: [[Int32]] { layout.slots }
    private var origins: [(row: Int, column: Int)] { layout.origins }

    /// The slots a cell covers as seen from its origin: its last row down its first column and
    /// its last column along its first row (overlapping spans can push a cell's lower slots
    /// further right, as in axe's grid).
    private func extents() -> [(lastRow: Int, lastColumn: Int)] {
        origins.enumerated().map { index, origin in
            var lastRow = origin.row, lastColumn = origin.column
            while layout.slot(row: lastRow + 1, column: origin.column) == index { lastRow += 1 }
            while layout.slot(row: origin.row, column: lastColumn + 1) == index { lastColumn += 1 }
            return (lastRow, lastColumn)
        }
    }

    /// The headers among `headers` that head no cell, as axe's `th-has-data-cells` finds them: a
    /// column (or auto) header heads a cell down its column before the first hole that is not a
    /// column or auto header itself, a row (or auto) header one along its row that is not a row
    /// or auto header, when axe's header lookup says it describes that cell. Headers no cell's
    /// `headers` attribute names (the rule has set aside the named ones) describe a cell exactly
    /// when the cell has no `headers` list of existing ids and its extent reaches the header's
    /// row and column. Walking each header's column costs rows × headers (a 60 KB column of
    /// `<th>` took minutes), so each column and row is swept once from its end, keeping the
    /// furthest extent of the cells met so far; a header then asks its first slot past it.
    func headersWithoutDataCells(_ headers: [Element], scope: (Element) -> TableHeaderScope) -> [Element] {
        let extents = extents()
        let scopes = cells.map(scope)
        let hasHeadersList = cells.map { cell in
            guard let references = cell.attribute("headers") else { return false }
            return references.split(whereSeparator: \.isWhitespace).contains { cell.document.element(withID: String($0)) != nil }
        }
        // furthestRowBelow[r][c]: the largest last row of the countable cells in column c from
        // row r down to the first hole (-1 when none); furthestColumnRight[r][c] the same along row r.
        var furthestRowBelow: [[Int]] = slots.map { Array(repeating: -1, count: $0.count) }
        var furthestColumnRight = furthestRowBelow
        for row in slots.indices.reversed() {
            for column in slots[row].indices.reversed() {
                guard let index = layout.slot(row: row, column: column) else { continue }
                let countable = !hasHeadersList[index]
                let below = row + 1 < slots.count && column < slots[row + 1].count ? furthestRowBelow[row + 1][column] : -1
                let downward = countable && ![.column, .auto].contains(scopes[index]) && extents[index].lastColumn >= column
                furthestRowBelow[row][column] = max(below, downward ? extents[index].lastRow : -1)
                let right = column + 1 < slots[row].count ? furthestColumnRight[row][column + 1] : -1
                let rightward = countable && ![.row, .auto].contains(scopes[index]) && extents[index].lastRow >= row
                furthestColumnRight[row][column] = max(right, rightward ? extents[index].lastColumn : -1)
            }
        }
        return headers.filter { header in
            guard let index = indexes[header.position] else { return true }
            let origin = origins[index]
            let headerScope = scopes[index]
            if [.column, .auto].contains(headerScope), origin.row + 1 < slots.count,
                origin.column < slots[origin.row + 1].count,
                furthestRowBelow[origin.row + 1][origin.column] >= origin.row
            {
                return false
            }
            if [.row, .auto].contains(headerScope), origin.column + 1 < slots[origin.row].count,
                furthestColumnRight[origin.row][origin.column + 1] >= origin.column
            {
                return false
            }
            return true
        }
    }
}

/// axe-core's data table heuristics (`isDataTable`), with what needs layout read from markup.
enum DataTableHeuristics {
    /// Whether the table holds data rather than layout. The markup decides most tables; for the
    /// rest, axe measures cell borders, row colours and the table's width. Static HTML gives these
    /// only through the `border`, `bgcolor` and `width` attributes; otherwise cells are taken to be
    /// borderless, rows one colour, and the table narrower than the viewport.
    static func isDataTable(_ table: Element, model: AccessibilityModel) -> Bool {
        let role = (table.attribute("role") ?? "").lowercased()
        if (role == "none" || role == "presentation") && !model.isFocusable(table) { return false }
        if table.attribute("contenteditable") == "true"
            || table.ancestors.contains(where: { $0.attribute("contenteditable") == "true" })
        {
            return true
        }
        if ["grid", "treegrid", "table"].contains(role) { return true }
        if ARIARoles.role(named: role)?.type == "landmark" { return true }
        if table.attribute("datatable") == "0" { return false }
        if !(table.attribute("summary") ?? "").isEmpty { return true }
        let children = table.children.filter(\.isHTML)
        if children.contains(where: { ["caption", "thead", "tfoot", "colgroup"].contains($0.localName) }) { return true }

        let rows = TableStructure.rows(of: table)
        var cellCount = 0
        for row in rows {
            for cell in TableStructure.cells(of: row) {
                if cell.localName == "th" { return true }
                if ["scope", "headers", "abbr"].contains(where: { !(cell.attribute($0) ?? "").isEmpty }) { return true }
                if ["columnheader", "rowheader"].contains((cell.attribute("role") ?? "").lowercased()) { return true }
                if let only = cell.children.first, only.nextElementSibling == nil, only.isHTML, only.localName == "abbr" { return true }
                cellCount += 1
            }
        }
        if table.descendants.contains(where: { $0.isHTML && $0.localName == "table" }) { return false }
        if rows.count < 2 { return false }
        let sampleCells = TableStructure.cells(of: rows[(rows.count + 1) / 2])
        if sampleCells.count == 1, (sampleCells[0].attribute("colspan").flatMap { Int($0) } ?? 1) <= 1 { return false }
        if sampleCells.count >= 5 { return true }
        // The `border` attribute gives every cell a border.
        if let border = table.attribute("border"), border.isEmpty || (Int(border) ?? 1) > 0 { return true }
        if Set(rows.map { $0.attribute("bgcolor")?.lowercased() ?? "" }).count > 1 { return true }
        if rows.count >= 20 { return true }
        if table.attribute("width")?.trimmingCharacters(in: .whitespaces) == "100%" { return false }
        if cellCount < 10 { return false }
        let embedded: Set<String> = ["object", "embed", "iframe", "applet"]
        return !table.descendants.contains { $0.isHTML && embedded.contains($0.localName) }
    }
}
