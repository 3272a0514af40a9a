internal import CLibXML2

/// Copies a (repaired) libxml2 tree into `NodeStorage`, assigning HTML5 namespaces on the way.
enum TreeBuilder {
    static func build(from xmlDocument: htmlDocPtr, estimatedNodes: Int) -> NodeStorage {
        var storage = NodeStorage(estimatedNodes: max(16, estimatedNodes))
        storage.append(kind: .document, parent: -1)

        // Iterative pre-order walk (pages nest far deeper than the call stack allows), with our own
        // parent numbers and namespaces kept on a stack alongside libxml2's pointers.
        var parents: [Int32] = [0]
        var namespaces: [Namespace] = [.html]
        var current = xmlDocument.pointee.children
        while let xmlNode = current {
            let parent = parents[parents.count - 1]
            let inherited = namespaces[namespaces.count - 1]
            switch xmlNode.pointee.type {
            case XML_ELEMENT_NODE:
                let rawName = String(cString: xmlNode.pointee.name)
                let namespace = namespaceOfElement(named: rawName, inherited: inherited, parent: parent, storage: storage)
                let name = namespace == .svg ? ForeignNames.svgElementName(rawName) : rawName
                let node = storage.append(
                    kind: .element, parent: parent, name: name, namespace: namespace,
                    line: Int32(xmlNode.pointee.line)
                )
                appendAttributes(of: xmlNode, namespace: namespace, to: &storage)
                if let firstChild = xmlNode.pointee.children {
                    parents.append(node)
                    namespaces.append(namespace)
                    current = firstChild
                    continue
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = xmlNode.pointee.content {
                    appendText(String(cString: content), parent: parent, line: Int32(xmlNode.pointee.line), to: &storage)
                }
            case XML_COMMENT_NODE:
                let text = xmlNode.pointee.content.map { String(cString: $0) } ?? ""
                storage.append(kind: .comment, parent: parent, text: text, line: Int32(xmlNode.pointee.line))
            default:
                break  // doctype, processing instructions: not part of what rules audit
            }
            // Move to the next sibling, climbing out of finished elements.
            var cursor = xmlNode
            current = nil
            while true {
                if let next = cursor.pointee.next {
                    current = next
                    break
                }
                guard parents.count > 1, let up = cursor.pointee.parent else { break }
                parents.removeLast()
                namespaces.removeLast()
                cursor = up
            }
        }
        ensureDocumentSkeleton(&storage)
        return storage
    }

    /// The storage of an empty page: what a browser builds for zero bytes.
    static func emptyDocumentStorage() -> NodeStorage {
        var storage = NodeStorage()
        storage.append(kind: .document, parent: -1)
        ensureDocumentSkeleton(&storage)
        return storage
    }

    /// libxml2 omits `<html>`, `<head>` or `<body>` for some inputs (e.g. a lone comment);
    /// browsers always have all three, and rules rely on them.
    private static func ensureDocumentSkeleton(_ storage: inout NodeStorage) {
        let hasHTML = storage.count > 1 && childElement(of: 0, named: "html", in: storage) != nil
        guard !hasHTML else { return }
        // Only reachable for degenerate input, where the tree is tiny: rebuild it under a fresh skeleton.
        var rebuilt = NodeStorage()
        rebuilt.append(kind: .document, parent: -1)
        let html = rebuilt.append(kind: .element, parent: 0, name: "html", line: 1)
        rebuilt.append(kind: .element, parent: html, name: "head", line: 1)
        let body = rebuilt.append(kind: .element, parent: html, name: "body", line: 1)
        var child = storage.firstChild[0]
        while child >= 0 {
            copySubtree(Int(child), from: storage, to: &rebuilt, parent: body)
            child = storage.nextSibling[Int(child)]
        }
        storage = rebuilt
    }

    private static func copySubtree(_ node: Int, from source: NodeStorage, to target: inout NodeStorage, parent: Int32) {
        var pending: [(node: Int, parent: Int32)] = [(node, parent)]
        while let (sourceNode, targetParent) = pending.popLast() {
            let copy = target.append(
                kind: source.kinds[sourceNode], parent: targetParent, name: source.names[sourceNode],
                namespace: source.namespaces[sourceNode], text: source.texts[sourceNode], line: source.lines[sourceNode]
            )
            for index in source.attributeRange(node: sourceNode) { target.appendAttribute(source.attributes[index]) }
            var children: [Int] = []
            var child = source.firstChild[sourceNode]
            while child >= 0 {
                children.append(Int(child))
                child = source.nextSibling[Int(child)]
            }
            // Reversed so that popping keeps document order.
            pending.append(contentsOf: children.reversed().map { ($0, copy) })
        }
    }

    private static func childElement(of node: Int32, named name: String, in storage: NodeStorage) -> Int32? {
        var child = storage.firstChild[Int(node)]
        while child >= 0 {
            if storage.kinds[Int(child)] == .element, storage.names[Int(child)] == name { return child }
            child = storage.nextSibling[Int(child)]
        }
        return nil
    }

    private static func namespaceOfElement(named name: String, inherited: Namespace, parent: Int32, storage: NodeStorage) -> Namespace {
        switch inherited {
        case .html:
            if name == "svg" { return .svg }
            if name == "math" { return .mathml }
            return .html
        case .svg:
            // HTML content inside SVG is only allowed through foreignObject (and desc/title).
            let parentName = storage.names[Int(parent)]
            if parentName == "foreignObject" || parentName == "desc" || parentName == "title" {
                return name == "svg" ? .svg : (name == "math" ? .mathml : .html)
            }
            return .svg
        case .mathml:
            // MathML text integration points hold HTML, except for MathML's own glyph elements.
            let parentName = storage.names[Int(parent)]
            if ["mi", "mo", "mn", "ms", "mtext"].contains(parentName), name != "mglyph", name != "malignmark" {
                return name == "svg" ? .svg : .html
            }
            if parentName == "annotation-xml", name == "svg" { return .svg }
            return .mathml
        }
    }

    private static func appendAttributes(of xmlNode: xmlNodePtr, namespace: Namespace, to storage: inout NodeStorage) {
        var property = xmlNode.pointee.properties
        while let attribute = property {
            let rawName = String(cString: attribute.pointee.name)
            let name = namespace == .svg ? ForeignNames.svgAttributeName(rawName) : rawName
            storage.appendAttribute(Attribute(name: name, value: attributeValue(attribute)))
            property = attribute.pointee.next
        }
    }

    private static func attributeValue(_ attribute: xmlAttrPtr) -> String {
        guard let first = attribute.pointee.children else { return "" }  // `<input disabled>`
        if first.pointee.next == nil, let content = first.pointee.content {
            return String(cString: content)
        }
        guard let joined = xmlNodeListGetString(attribute.pointee.doc, first, 1) else { return "" }
        defer { canopy_xml_free(joined) }
        return String(cString: joined)
    }

    private static func appendText(_ text: String, parent: Int32, line: Int32, to storage: inout NodeStorage) {
        guard !text.isEmpty else { return }
        // Repairs can leave two text nodes side by side; a browser's tree has one.
        let last = storage.lastChild[Int(parent)]
        if last >= 0, storage.kinds[Int(last)] == .text {
            storage.texts[Int(last)] += text
            return
        }
        storage.append(kind: .text, parent: parent, text: text, line: line)
    }
}
