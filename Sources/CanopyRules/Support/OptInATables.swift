import CanopyAccessibility
import CanopyHTML
import Foundation

/// A table's cells laid out on the HTML table grid (row and column spans fill slots), with the
/// header lookups axe-core's table rules make on it.
struct OptInATableGrid {
    /// `slots[row][column]`: the cell covering that slot; nil for holes.
    private var slots: [[Element?]] = []
    /// Each cell's top-left slot, by element position.
    private var origins: [Int: (row: Int, column: Int)] = [:]

    init(table: Element) {
        let rows = StructureTables.rows(of: table)
        slots = Array(repeating: [], count: rows.count)
        // Spans multiply (colspan 1000 × rowspan to the end), so hostile markup could ask for
        // gigabytes (Tests/FuzzCorpus/parse/table-span-oom.html); past the same cap as
        // CanopyAccessibility's TableGrid the grid stays partial.
        var budget = 1 << 20
        layout: for (rowIndex, row) in rows.enumerated() {
            var column = 0
            for cell in StructureTables.cells(of: row) {
                let columnSpan = Self.span(cell.attribute("colspan"), limit: 1000) ?? 1
                // rowspan=0 reaches the end of the table, and no span goes beyond it.
                let rowSpan = min(Self.span(cell.attribute("rowspan"), limit: 65534) ?? rows.count, rows.count - rowIndex)
                for _ in 0..<columnSpan {
                    for offset in 0..<max(rowSpan, 1) {
                        budget -= 1
                        if budget < 0 { break layout }
                        let target = rowIndex + offset
                        while column < slots[target].count, slots[target][column] != nil { column += 1; budget -= 1 }
                        while slots[target].count <= column { slots[target].append(nil); budget -= 1 }
                        slots[target][column] = cell
                        if origins[cell.position] == nil { origins[cell.position] = (target, column) }
                    }
                    column += 1
                }
            }
        }
    }

    /// A span attribute as the DOM reads it: 1 when absent or invalid, nil for an explicit 0.
    private static func span(_ value: String?, limit: Int) -> Int? {
        guard let value else { return 1 }
        let digits = value.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits.prefix(6)) else { return 1 }
        return number == 0 ? nil : min(number, limit)
    }

    func origin(of cell: Element) -> (row: Int, column: Int)? { origins[cell.position] }

    private func cell(row: Int, column: Int) -> Element? {
        guard row >= 0, row < slots.count, column >= 0, column < slots[row].count else { return nil }
        return slots[row][column]
    }

    /// The cells after `start` going down its column (or right along its row), up to the first hole.
    func cells(after start: (row: Int, column: Int), downward: Bool) -> [Element] {
        var found: [Element] = []
        var row = start.row, column = start.column
        while true {
            if downward { row += 1 } else { column += 1 }
            guard let next = cell(row: row, column: column) else { return found }
            found.append(next)
        }
    }

    /// The slots a cell covers: its last row and last column.
    private func extent(of cell: Element, from origin: (row: Int, column: Int)) -> (lastRow: Int, lastColumn: Int) {
        var lastRow = origin.row, lastColumn = origin.column
        while self.cell(row: lastRow + 1, column: origin.column) == cell { lastRow += 1 }
        while self.cell(row: origin.row, column: lastColumn + 1) == cell { lastColumn += 1 }
        return (lastRow, lastColumn)
    }

    /// Whether `header` is one of the headers that describe `cell`, as axe reads them: the cells
    /// its `headers` attribute names (when any exists), else the row headers at or before it in
    /// its rows and the column headers at or above it in its columns. Answered from the two cells'
    /// extents, so that checking a header against a whole column stays cheap on long tables.
    func header(_ header: Element, describes cell: Element, scope: (Element) -> TableHeaderScope) -> Bool {
        if let references = cell.attribute("headers") {
            let named = references.split(whereSeparator: \.isWhitespace).compactMap { cell.document.element(withID: String($0)) }
            if !named.isEmpty { return named.contains(header) }
        }
        guard let cellOrigin = origin(of: cell), let headerOrigin = origin(of: header) else { return false }
        let cellEnd = extent(of: cell, from: cellOrigin), headerEnd = extent(of: header, from: headerOrigin)
        let headerScope = scope(header)
        let sharesRow = headerOrigin.row <= cellEnd.lastRow && headerEnd.lastRow >= cellOrigin.row
        if [.row, .auto].contains(headerScope), sharesRow, headerOrigin.column <= cellEnd.lastColumn { return true }
        let sharesColumn = headerOrigin.column <= cellEnd.lastColumn && headerEnd.lastColumn >= cellOrigin.column
        return [.column, .auto].contains(headerScope) && sharesColumn && headerOrigin.row <= cellEnd.lastRow
    }
}

/// axe-core's data table heuristics (`isDataTable`), with what needs layout read from markup.
enum OptInADataTables {
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

        let rows = StructureTables.rows(of: table)
        var cellCount = 0
        for row in rows {
            for cell in StructureTables.cells(of: row) {
                if cell.localName == "th" { return true }
                if ["scope", "headers", "abbr"].contains(where: { !(cell.attribute($0) ?? "").isEmpty }) { return true }
                if ["columnheader", "rowheader"].contains((cell.attribute("role") ?? "").lowercased()) { return true }
                if cell.children.count == 1, cell.children[0].isHTML, cell.children[0].localName == "abbr" { return true }
                cellCount += 1
            }
        }
        if table.descendants.contains(where: { $0.isHTML && $0.localName == "table" }) { return false }
        if rows.count < 2 { return false }
        let sampleCells = StructureTables.cells(of: rows[(rows.count + 1) / 2])
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
