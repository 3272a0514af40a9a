/// HTML5's table model on top of the tree libxml2's parser gives: `table > tr` gets its implicit
/// `tbody`, `table > td` and `tbody > td` their implicit `tr` (and `tbody`), `col` its `colgroup`,
/// content that may not be in a table is moved in front of it, and a `<form>` opened in a table
/// keeps no children (HTML5 inserts it empty).
struct TableRepair {
    private static let cells: Set<String> = ["td", "th"]
    /// Allowed anywhere in table parts without being moved out.
    private static let tableNeutral: Set<String> = ["script", "style", "template"]

    private(set) var storage: NodeStorage
    /// Whether any node moved or was added.
    private(set) var changed = false

    init(_ storage: NodeStorage) { self.storage = storage }

    mutating func repair(_ table: Int32) {
        var implicitBody: Int32 = -1
        var implicitRow: Int32 = -1
        var implicitColumnGroup: Int32 = -1
        forEachElement(in: table, of: table) { repair, child, name in
            if name != "col" { implicitColumnGroup = -1 }
            switch name {
            case "caption", "colgroup":
                implicitBody = -1
                implicitRow = -1
            case "col":
                implicitBody = -1
                implicitRow = -1
                if implicitColumnGroup < 0 { implicitColumnGroup = repair.insertWrapper("colgroup", before: child) }
                repair.move(child, into: implicitColumnGroup)
            case "thead", "tbody", "tfoot":
                implicitBody = -1
                implicitRow = -1
                repair.repairRowGroup(child, table: table)
            case "tr":
                implicitRow = -1
                if implicitBody < 0 { implicitBody = repair.insertWrapper("tbody", before: child) }
                repair.move(child, into: implicitBody)
                repair.repairRow(child, table: table)
            case "td", "th":
                if implicitBody < 0 { implicitBody = repair.insertWrapper("tbody", before: child) }
                if implicitRow < 0 { implicitRow = repair.appendWrapper("tr", to: implicitBody, lineOf: child) }
                repair.move(child, into: implicitRow)
            default:
                return false
            }
            return true
        }
    }

    private mutating func repairRowGroup(_ group: Int32, table: Int32) {
        var implicitRow: Int32 = -1
        forEachElement(in: group, of: table) { repair, child, name in
            switch name {
            case "tr":
                implicitRow = -1
                repair.repairRow(child, table: table)
            case "td", "th":
                if implicitRow < 0 { implicitRow = repair.insertWrapper("tr", before: child) }
                repair.move(child, into: implicitRow)
            default:
                return false
            }
            return true
        }
    }

    private mutating func repairRow(_ row: Int32, table: Int32) {
        forEachElement(in: row, of: table) { _, _, name in Self.cells.contains(name) }
    }

    /// Visits the element children of a table part. `place` puts a child where it belongs and
    /// says whether it did; what does not belong (and is not allowed anywhere in tables) is moved
    /// in front of the table, as is any text that is not whitespace.
    private mutating func forEachElement(
        in part: Int32, of table: Int32, place: (inout TableRepair, Int32, String) -> Bool
    ) {
        emptyForms(in: part)
        for child in storage.childNodes(of: part) {
            switch storage.nodes[Int(child)].kind {
            case .comment:
                continue
            case .text:
                if isWhitespaceText(child) { continue }
                foster(child, before: table)
            case .element:
                let name = storage.names[Int(child)]
                if name == "form" { continue }  // emptied above, and stays where it was
                if !place(&self, child, name), !Self.tableNeutral.contains(name) { foster(child, before: table) }
            case .document:
                break
            }
        }
    }

    /// `<table><form><tr>…` gives an empty form followed by the rows in a browser: the content of
    /// every form among `parent`'s children moves out, right after its form.
    private mutating func emptyForms(in parent: Int32) {
        for child in storage.childNodes(of: parent)
        where storage.nodes[Int(child)].kind == .element && storage.names[Int(child)] == "form" {
            var anchor = child
            for inner in storage.childNodes(of: child) {
                storage.unlink(inner)
                storage.insert(inner, after: anchor)
                anchor = inner
                changed = true
            }
        }
    }

    private mutating func foster(_ node: Int32, before table: Int32) {
        storage.unlink(node)
        storage.insert(node, before: table)
        changed = true
    }

    private mutating func insertWrapper(_ name: String, before node: Int32) -> Int32 {
        let wrapper = storage.makeElement(name: name, line: storage.nodes[Int(node)].line)
        storage.insert(wrapper, before: node)
        changed = true
        return wrapper
    }

    private mutating func appendWrapper(_ name: String, to parent: Int32, lineOf node: Int32) -> Int32 {
        let wrapper = storage.makeElement(name: name, line: storage.nodes[Int(node)].line)
        storage.appendChild(wrapper, to: parent)
        changed = true
        return wrapper
    }

    private mutating func move(_ node: Int32, into parent: Int32) {
        storage.unlink(node)
        storage.appendChild(node, to: parent)
        changed = true
    }

    private func isWhitespaceText(_ node: Int32) -> Bool {
        let record = storage.nodes[Int(node)]
        let start = Int(record.textStart)
        return storage.textBytes[start..<start + Int(record.textLength)].allSatisfy {
            $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D
        }
    }
}
