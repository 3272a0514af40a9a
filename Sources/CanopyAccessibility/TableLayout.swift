import CanopyHTML

/// A table's rows and cells as the DOM gives them (`table.rows`, `row.cells`), without layout.
public enum TableStructure {
    /// The table's own rows: `<tr>` children of the table and of its `<thead>`, `<tbody>` and
    /// `<tfoot>`; rows of nested tables are not included. Header-group rows come first and
    /// footer rows last, as in the DOM's `rows` collection.
    public static func rows(of table: Element) -> [Element] {
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
    public static func cells(of row: Element) -> [Element] {
        row.children.filter { $0.isHTML && ($0.localName == "td" || $0.localName == "th") }
    }

    private static func isRow(_ element: Element) -> Bool { element.isHTML && element.localName == "tr" }
}

/// A table laid out on the HTML table grid: each cell's row and column spans fill slots. The one
/// layout both the header scopes (`TableGrid`, as browsers read spans) and axe-core's
/// th-has-data-cells (as axe reads them) are computed on.
public struct TableLayout {
    /// How span attributes are read: the two readers differ on odd values, and each rule must
    /// keep the reading its reference implementation has.
    public enum SpanReading: Sendable {
        /// The HTML parser's: `parseInt`, rowspan=0 spans the rest of the table, and a rowspan may
        /// reach past the last row (the grid grows).
        case browser
        /// axe-core's grid: leading digits only, and no span reaches past the last row.
        case axe
    }

    /// The table's cells, in layout order; slots refer to them by index.
    public private(set) var cells: [Element] = []
    /// `slots[row][column]`: the index in `cells` of the cell covering that slot; -1 for holes.
    /// Indexes rather than elements: hostile spans fill up to a million slots, and each element
    /// written or compared there cost reference counting.
    public private(set) var slots: [[Int32]] = []
    /// Each cell's top-left slot, by index in `cells`.
    public private(set) var origins: [(row: Int, column: Int)] = []

    /// Slots laid out at most per table. Spans multiply (colspan up to 1000 × rowspan up to
    /// 65534), so a few bytes of hostile markup asked for gigabytes
    /// (Tests/FuzzCorpus/parse/table-span-oom.html: 1 GB, 50 s). Every step counts: slots
    /// written, occupied slots skipped and holes padded (the fuzzer's timeouts,
    /// table-span-*.html). Real tables stay far below this; past it the layout is left partial.
    public static let maximumSlots = 1 << 20

    public init(table: Element, spans: SpanReading) {
        let rows = TableStructure.rows(of: table)
        slots = Array(repeating: [], count: rows.count)
        var budget = Self.maximumSlots
        layout: for (rowIndex, row) in rows.enumerated() {
            var column = 0
            for cell in TableStructure.cells(of: row) {
                let (columnSpan, rowSpan) = Self.spans(of: cell, reading: spans, rowIndex: rowIndex, rowCount: rows.count)
                let index = Int32(cells.count)
                cells.append(cell)
                origins.append((-1, -1))
                for _ in 0..<columnSpan {
                    for offset in 0..<rowSpan {
                        budget -= 1
                        if budget < 0 { break layout }
                        let target = rowIndex + offset
                        while slots.count <= target { slots.append([]) }
                        while column < slots[target].count, slots[target][column] >= 0 { column += 1; budget -= 1 }
                        while slots[target].count <= column { slots[target].append(-1); budget -= 1 }
                        slots[target][column] = index
                        if origins[Int(index)].row < 0 { origins[Int(index)] = (target, column) }
                    }
                    column += 1
                }
            }
        }
        // A cell cut off by the budget before its first slot is not on the grid.
        if let last = origins.last, last.row < 0 {
            cells.removeLast()
            origins.removeLast()
        }
    }

    private static func spans(of cell: Element, reading: SpanReading, rowIndex: Int, rowCount: Int) -> (columns: Int, rows: Int) {
        switch reading {
        case .browser:
            let columns = min(max(cell.attribute("colspan").flatMap(JavaScriptNumbers.parseInt) ?? 1, 1), 1000)
            let rowValue = cell.attribute("rowspan").flatMap(JavaScriptNumbers.parseInt) ?? 1
            return (columns, rowValue == 0 ? rowCount : min(max(rowValue, 1), 65534))
        case .axe:
            let columns = axeSpan(cell.attribute("colspan"), limit: 1000) ?? 1
            // rowspan=0 reaches the end of the table, and no span goes beyond it.
            let rows = min(axeSpan(cell.attribute("rowspan"), limit: 65534) ?? rowCount, rowCount - rowIndex)
            return (columns, max(rows, 1))
        }
    }

    /// A span attribute as axe's grid reads it: 1 when absent or invalid, nil for an explicit 0.
    private static func axeSpan(_ value: String?, limit: Int) -> Int? {
        guard let value else { return 1 }
        // Spaces and tabs around the number, not line breaks (Foundation's `.whitespaces`).
        func isSpace(_ character: Character) -> Bool {
            character == "\t" || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
        }
        var trimmed = Substring(value)
        while let first = trimmed.first, isSpace(first) { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, isSpace(last) { trimmed = trimmed.dropLast() }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits.prefix(6)) else { return 1 }
        return number == 0 ? nil : min(number, limit)
    }

    /// The cell index covering a slot, nil for a hole or outside the grid.
    public func slot(row: Int, column: Int) -> Int? {
        guard row >= 0, row < slots.count, column >= 0, column < slots[row].count, slots[row][column] >= 0 else { return nil }
        return Int(slots[row][column])
    }
}
