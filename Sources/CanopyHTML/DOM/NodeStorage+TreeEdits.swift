/// Moving nodes, for the few repairs that cannot be made while the tree is built (tables, a
/// missing `<html>`). Moves leave node numbers out of document order; `inDocumentOrder()` then
/// renumbers the whole tree once.
extension NodeStorage {
    /// An element with no attributes that is not in the tree yet.
    func makeElement(name: String, line: Int32) -> Int32 {
        append(kind: .element, parent: -1, name: name, line: line)
    }

    func unlink(_ node: Int32) {
        let record = nodes[Int(node)]
        if record.previousSibling >= 0 {
            nodes[Int(record.previousSibling)].nextSibling = record.nextSibling
        } else if record.parent >= 0 {
            nodes[Int(record.parent)].firstChild = record.nextSibling
        }
        if record.nextSibling >= 0 {
            nodes[Int(record.nextSibling)].previousSibling = record.previousSibling
        } else if record.parent >= 0 {
            nodes[Int(record.parent)].lastChild = record.previousSibling
        }
        nodes[Int(node)].parent = -1
        nodes[Int(node)].previousSibling = -1
        nodes[Int(node)].nextSibling = -1
    }

    /// Puts an unlinked node right before `reference`, under the same parent.
    func insert(_ node: Int32, before reference: Int32) {
        let parent = nodes[Int(reference)].parent
        let previous = nodes[Int(reference)].previousSibling
        nodes[Int(node)].parent = parent
        nodes[Int(node)].previousSibling = previous
        nodes[Int(node)].nextSibling = reference
        nodes[Int(reference)].previousSibling = node
        if previous >= 0 { nodes[Int(previous)].nextSibling = node } else { nodes[Int(parent)].firstChild = node }
    }

    /// Puts an unlinked node right after `reference`, under the same parent.
    func insert(_ node: Int32, after reference: Int32) {
        let next = nodes[Int(reference)].nextSibling
        if next >= 0 {
            insert(node, before: next)
        } else {
            appendChild(node, to: nodes[Int(reference)].parent)
        }
    }

    /// Makes an unlinked node the last child of `parent`.
    func appendChild(_ node: Int32, to parent: Int32) {
        let previous = nodes[Int(parent)].lastChild
        nodes[Int(node)].parent = parent
        nodes[Int(node)].previousSibling = previous
        nodes[Int(node)].nextSibling = -1
        if previous >= 0 { nodes[Int(previous)].nextSibling = node } else { nodes[Int(parent)].firstChild = node }
        nodes[Int(parent)].lastChild = node
    }

    /// The children of `node`, first to last, taken before a repair moves any of them.
    func childNodes(of node: Int32) -> [Int32] {
        var result: [Int32] = []
        var child = nodes[Int(node)].firstChild
        while child >= 0 {
            result.append(child)
            child = nodes[Int(child)].nextSibling
        }
        return result
    }

    /// Whether appending a node under `parent` keeps node numbers in document order: the last
    /// node appended must be inside `parent`'s subtree (or be `parent`).
    func appendingKeepsDocumentOrder(under parent: Int32) -> Bool {
        var current = Int32(count - 1)
        while current >= 0 {
            if current == parent { return true }
            current = nodes[Int(current)].parent
        }
        return false
    }

    /// The same tree numbered in document order from the document node, as every reader of a
    /// `Document` expects. On the way, namespaces are assigned again from the final parents
    /// (a moved subtree may have changed them), texts left side by side by moves are merged,
    /// and the id list is rebuilt in document order. Nodes not reachable from the document node
    /// are dropped.
    func inDocumentOrder() -> NodeStorage {
        let result = NodeStorage(nodeCount: count, attributeCount: attributeNames.count)
        result.textBytes = textBytes
        result.append(kind: .document, parent: -1)
        // (old node, new parent) pairs; children are pushed in reverse so they pop in order.
        var pending: [(node: Int32, parent: Int32)] = childNodes(of: 0).reversed().map { ($0, 0) }
        while let (old, parent) = pending.popLast() {
            let record = nodes[Int(old)]
            switch record.kind {
            case .element:
                let lowercased = record.namespace == .svg ? names[Int(old)].lowercased() : names[Int(old)]
                let namespace = SAXTreeBuilder.namespace(
                    ofElementNamed: lowercased, inherited: result.nodes[Int(parent)].namespace,
                    parentName: result.names[Int(parent)]
                )
                let name = namespace == .svg ? ForeignNames.svgElementName(lowercased) : lowercased
                let node = result.append(kind: .element, parent: parent, name: name, namespace: namespace, line: record.line)
                for attribute in attributeRange(node: Int(old)) {
                    let rawName = record.namespace == .svg ? attributeNames[attribute].lowercased() : attributeNames[attribute]
                    let attributeName = namespace == .svg ? ForeignNames.svgAttributeName(rawName) : rawName
                    result.appendAttribute(
                        name: attributeName, valueStart: attributeValueStart[attribute],
                        valueLength: attributeValueLength[attribute]
                    )
                }
                for child in childNodes(of: old).reversed() { pending.append((child, node)) }
            case .text:
                let last = result.nodes[Int(parent)].lastChild
                if last >= 0, result.nodes[Int(last)].kind == .text {
                    result.extendText(of: last, with: record)
                } else {
                    result.appendRecord(kind: .text, parent: parent, copying: record)
                }
            case .comment:
                result.appendRecord(kind: .comment, parent: parent, copying: record)
            case .document:
                break
            }
        }
        return result
    }

    /// Appends a text or comment node whose bytes are already in `textBytes`.
    private func appendRecord(kind: NodeKind, parent: Int32, copying record: NodeRecord) {
        let node = append(kind: kind, parent: parent, line: record.line)
        nodes[Int(node)].textStart = record.textStart
        nodes[Int(node)].textLength = record.textLength
    }

    /// Joins a text to the text node `node`; their bytes are copied to the end of `textBytes`
    /// when they do not already follow each other.
    private func extendText(of node: Int32, with record: NodeRecord) {
        let start = Int(nodes[Int(node)].textStart), length = Int(nodes[Int(node)].textLength)
        if start + length == Int(record.textStart) {
            nodes[Int(node)].textLength += record.textLength
            return
        }
        let joinedStart = textBytes.count
        textBytes.append(contentsOf: textBytes[start..<start + length])
        let added = Int(record.textStart)
        textBytes.append(contentsOf: textBytes[added..<added + Int(record.textLength)])
        nodes[Int(node)].textStart = Int32(joinedStart)
        nodes[Int(node)].textLength = Int32(textBytes.count - joinedStart)
    }
}
