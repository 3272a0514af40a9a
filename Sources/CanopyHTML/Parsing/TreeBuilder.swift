internal import CLibXML2

/// Copies a (repaired) libxml2 tree into `NodeStorage`, assigning HTML5 namespaces on the way.
enum TreeBuilder {
    /// `copiedNodes`: the count `TreeRepair.repair` returned, an upper bound of what is copied.
    static func build(from xmlDocument: htmlDocPtr, tags: TagTable, copiedNodes: Int) -> NodeStorage {
        // Sized from the repair walk's count: growing by doubling while libxml2's tree is still
        // alive left a page of a million elements holding the old and new arrays at once, with up
        // to half of them unused.
        var storage = NodeStorage(estimatedNodes: copiedNodes + 1)
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
                let rawName = tags.name(xmlNode.pointee.name)
                let namespace = namespaceOfElement(named: rawName, inherited: inherited, parent: parent, storage: storage)
                let name = namespace == .svg ? ForeignNames.svgElementName(rawName) : rawName
                let node = storage.append(
                    kind: .element, parent: parent, name: name, namespace: namespace,
                    line: Int32(xmlNode.pointee.line)
                )
                appendAttributes(of: xmlNode, namespace: namespace, tags: tags, to: &storage)
                if let firstChild = xmlNode.pointee.children {
                    parents.append(node)
                    namespaces.append(namespace)
                    current = firstChild
                    continue
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = xmlNode.pointee.content {
                    appendText(content, parent: parent, line: Int32(xmlNode.pointee.line), to: &storage)
                }
            case XML_COMMENT_NODE:
                storage.append(kind: .comment, parent: parent, text: bytes(of: xmlNode.pointee.content), line: Int32(xmlNode.pointee.line))
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
        assert(storage.count <= copiedNodes + 1, "the repair walk undercounted: \(storage.count) nodes, \(copiedNodes + 1) reserved")
        return storage
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

    private static func appendAttributes(of xmlNode: xmlNodePtr, namespace: Namespace, tags: TagTable, to storage: inout NodeStorage) {
        var property = xmlNode.pointee.properties
        while let attribute = property {
            let rawName = tags.name(attribute.pointee.name)
            let name = namespace == .svg ? ForeignNames.svgAttributeName(rawName) : rawName
            appendAttributeValue(attribute, name: name, to: &storage)
            property = attribute.pointee.next
        }
    }

    private static func appendAttributeValue(_ attribute: xmlAttrPtr, name: String, to storage: inout NodeStorage) {
        guard let first = attribute.pointee.children else {  // `<input disabled>`
            storage.appendAttribute(name: name, value: UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        if first.pointee.next == nil {
            storage.appendAttribute(name: name, value: bytes(of: first.pointee.content))
            return
        }
        // A value split over several nodes (entity references): let libxml2 join it.
        guard let joined = xmlNodeListGetString(attribute.pointee.doc, first, 1) else {
            storage.appendAttribute(name: name, value: UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        defer { canopy_xml_free(joined) }
        storage.appendAttribute(name: name, value: bytes(of: joined))
    }

    private static func bytes(of content: UnsafeMutablePointer<xmlChar>?) -> UnsafeBufferPointer<UInt8> {
        guard let content else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content)))
    }

    private static func appendText(_ content: UnsafeMutablePointer<xmlChar>, parent: Int32, line: Int32, to storage: inout NodeStorage) {
        let text = bytes(of: content)
        guard !text.isEmpty else { return }
        // Repairs can leave two text nodes side by side; a browser's tree has one. A parent's
        // last child is always the node appended last, so its bytes end the buffer.
        let last = storage.nodes[Int(parent)].lastChild
        if last >= 0, storage.nodes[Int(last)].kind == .text {
            storage.appendToLastText(text)
            return
        }
        storage.append(kind: .text, parent: parent, text: text, line: line)
    }
}
