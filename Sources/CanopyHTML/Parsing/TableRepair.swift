internal import CLibXML2

/// HTML5's table model on top of libxml2's tree: `table > tr` gets its implicit `tbody`,
/// `table > td` and `tbody > td` their implicit `tr` (and `tbody`), `col` its `colgroup`, content
/// that may not be in a table is moved in front of it, and a `<form>` opened in a table keeps
/// no children (HTML5 inserts it empty).
enum TableRepair {
    private static let rowGroups: Set<String> = ["thead", "tbody", "tfoot"]
    private static let cells: Set<String> = ["td", "th"]
    /// Allowed anywhere in table parts without being moved out.
    private static let tableNeutral: Set<String> = ["script", "style", "template"]

    /// Returns how many elements (implicit `tbody`, `tr`, `colgroup`) the repair added.
    static func repair(_ table: xmlNodePtr) -> Int {
        var added = 0
        var implicitBody: xmlNodePtr?
        var implicitRow: xmlNodePtr?
        var implicitColumnGroup: xmlNodePtr?
        forEachElement(in: table, of: table) { child, name in
            if name != "col" { implicitColumnGroup = nil }
            switch name {
            case "caption", "colgroup":
                implicitBody = nil
                implicitRow = nil
            case "col":
                implicitBody = nil
                implicitRow = nil
                let group = implicitColumnGroup ?? insertWrapper("colgroup", before: child, counting: &added)
                implicitColumnGroup = group
                move(child, into: group)
            case "thead", "tbody", "tfoot":
                implicitBody = nil
                implicitRow = nil
                added += repairRowGroup(child, table: table)
            case "tr":
                implicitRow = nil
                let body = implicitBody ?? insertWrapper("tbody", before: child, counting: &added)
                implicitBody = body
                move(child, into: body)
                repairRow(child, table: table)
            case "td", "th":
                let body = implicitBody ?? insertWrapper("tbody", before: child, counting: &added)
                implicitBody = body
                let row = implicitRow ?? appendWrapper("tr", to: body, lineOf: child, counting: &added)
                implicitRow = row
                move(child, into: row)
            default:
                return false
            }
            return true
        }
        return added
    }

    private static func repairRowGroup(_ group: xmlNodePtr, table: xmlNodePtr) -> Int {
        var added = 0
        var implicitRow: xmlNodePtr?
        forEachElement(in: group, of: table) { child, name in
            switch name {
            case "tr":
                implicitRow = nil
                repairRow(child, table: table)
            case "td", "th":
                let row = implicitRow ?? insertWrapper("tr", before: child, counting: &added)
                implicitRow = row
                move(child, into: row)
            default:
                return false
            }
            return true
        }
        return added
    }

    private static func repairRow(_ row: xmlNodePtr, table: xmlNodePtr) {
        forEachElement(in: row, of: table) { _, name in cells.contains(name) }
    }

    /// Visits the element children of a table part. `place` puts a child where it belongs and
    /// says whether it did; what does not belong (and is not allowed anywhere in tables) is moved
    /// in front of the table, as is any text that is not whitespace.
    private static func forEachElement(
        in part: xmlNodePtr, of table: xmlNodePtr, place: (xmlNodePtr, String) -> Bool
    ) {
        emptyForms(in: part)
        for child in children(of: part) {
            if isWhitespaceText(child) || child.pointee.type == XML_COMMENT_NODE { continue }
            guard child.pointee.type == XML_ELEMENT_NODE else {
                foster(child, before: table)
                continue
            }
            let name = TreeRepair.elementName(child)
            if name == "form" { continue }  // emptied above, and stays where it was
            if !place(child, name), !tableNeutral.contains(name) { foster(child, before: table) }
        }
    }

    /// `<table><form><tr>…` gives an empty form followed by the rows in a browser: the content of
    /// every form among `parent`'s children moves out, right after its form.
    private static func emptyForms(in parent: xmlNodePtr) {
        var child = parent.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, TreeRepair.elementName(current) == "form" {
                var anchor = current
                while let inner = current.pointee.children {
                    xmlUnlinkNode(inner)
                    anchor = xmlAddNextSibling(anchor, inner) ?? anchor
                }
            }
            child = current.pointee.next
        }
    }

    private static func foster(_ node: xmlNodePtr, before table: xmlNodePtr) {
        xmlUnlinkNode(node)
        _ = xmlAddPrevSibling(table, node)
    }

    private static func insertWrapper(_ name: String, before node: xmlNodePtr, counting added: inout Int) -> xmlNodePtr {
        added += 1
        let wrapper = xmlNewDocNode(node.pointee.doc, nil, name, nil)!
        wrapper.pointee.line = node.pointee.line
        _ = xmlAddPrevSibling(node, wrapper)
        return wrapper
    }

    private static func appendWrapper(_ name: String, to parent: xmlNodePtr, lineOf node: xmlNodePtr, counting added: inout Int) -> xmlNodePtr {
        added += 1
        let wrapper = xmlNewDocNode(parent.pointee.doc, nil, name, nil)!
        wrapper.pointee.line = node.pointee.line
        _ = xmlAddChild(parent, wrapper)
        return wrapper
    }

    private static func move(_ node: xmlNodePtr, into parent: xmlNodePtr) {
        xmlUnlinkNode(node)
        _ = xmlAddChild(parent, node)
    }

    private static func children(of node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            result.append(current)
            child = current.pointee.next
        }
        return result
    }

    private static func isWhitespaceText(_ node: xmlNodePtr) -> Bool {
        guard node.pointee.type == XML_TEXT_NODE else { return false }
        guard let content = node.pointee.content else { return true }
        var pointer = content
        while pointer.pointee != 0 {
            switch pointer.pointee {
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D: pointer += 1
            default: return false
            }
        }
        return true
    }
}
