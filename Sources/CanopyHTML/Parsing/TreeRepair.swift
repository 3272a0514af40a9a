internal import CLibXML2

/// Repairs the places where libxml2 2.9's HTML parser builds another tree than HTML5 tree
/// construction, so that rules see what a browser (and so axe-core) sees:
///
/// - tables: rows get their implicit `<tbody>`, cells their implicit `<tr>`, stray content is
///   moved in front of the table (foster parenting), and a `<form>` inside table parts is emptied;
/// - `<template>` contents are not part of the tree;
/// - elements that HTML5 closes implicitly: an open `<p>` before block content (`<section>`,
///   `<nav>`, `<main>`, ... which libxml2 2.9 does not know), a `<button>` inside a `<button>`,
///   an `<a>` inside an `<a>`, a heading directly inside a heading, `<li>`/`<dd>`/`<dt>` inside
///   their own kind.
///
/// Repairs move libxml2 nodes in place before the tree is copied, which costs a walk of the tree
/// and nothing for pages that need no repair. The walk also counts what `TreeBuilder` will copy,
/// so the copy is sized without a second walk.
enum TreeRepair {
    /// Returns an upper bound of the elements, texts and comments of the repaired tree (exact
    /// unless texts merged when table repairs moved them).
    static func repair(_ xmlDocument: htmlDocPtr, tags: TagTable) -> Int {
        ensureDocumentSkeleton(xmlDocument)
        var copiedNodes = 0
        var tables: [xmlNodePtr] = []
        // The open elements above the current node, each with what is "in scope" inside it, so
        // that deciding whether an element closes an ancestor costs no walk up the tree.
        var frames: [Frame] = [Frame(node: nil, scope: OpenElements())]
        var current = xmlDocument.pointee.children
        while let node = current {
            switch node.pointee.type {
            case XML_ELEMENT_NODE, XML_TEXT_NODE, XML_CDATA_SECTION_NODE, XML_COMMENT_NODE: copiedNodes += 1
            default: break
            }
            if node.pointee.type == XML_ELEMENT_NODE, let name = node.pointee.name {
                let flags = tags.flags(name)
                if flags.contains(.template) {
                    removeChildren(of: node)
                } else {
                    if let outer = implicitlyClosedAncestor(of: node, flags: flags, scope: frames[frames.count - 1].scope, tags: tags) {
                        moveAfter(node, outOf: outer)
                        if let index = frames.lastIndex(where: { $0.node == outer }) { frames.removeSubrange(index...) }
                    }
                    if flags.contains(.table) { tables.append(node) }
                    if let child = node.pointee.children {
                        frames.append(Frame(node: node, scope: frames[frames.count - 1].scope.entering(flags)))
                        current = child
                        continue
                    }
                }
            }
            // Next sibling, or climb out of finished elements.
            var cursor = node
            current = nil
            while true {
                if let next = cursor.pointee.next {
                    current = next
                    break
                }
                guard frames.count > 1, let parent = cursor.pointee.parent else { break }
                frames.removeLast()
                cursor = parent
            }
        }
        for table in tables { copiedNodes += TableRepair.repair(table) }
        return copiedNodes
    }

    private struct Frame {
        let node: xmlNodePtr?
        let scope: OpenElements
    }

    /// Which implicitly closable elements are open, as HTML5's "in scope" checks see them.
    private struct OpenElements {
        var paragraphInButtonScope = false
        var buttonInScope = false
        var anchorInScope = false
        var listItem = false
        var definitionItem = false

        func entering(_ flags: TagFlags) -> OpenElements {
            let boundary = flags.contains(.scopeBoundary)
            let stopsItemSearch = flags.contains(.special) && !flags.contains(.addressDivOrP)
            return OpenElements(
                paragraphInButtonScope: flags.contains(.paragraph)
                    || (!boundary && !flags.contains(.button) && paragraphInButtonScope),
                buttonInScope: flags.contains(.button) || (!boundary && buttonInScope),
                anchorInScope: flags.contains(.anchor) || (!boundary && anchorInScope),
                listItem: flags.contains(.listItem) || (!stopsItemSearch && listItem),
                definitionItem: flags.contains(.definitionItem) || (!stopsItemSearch && definitionItem)
            )
        }
    }

    /// The open element that HTML5 would have closed when `node`'s start tag was seen, if any.
    private static func implicitlyClosedAncestor(
        of node: xmlNodePtr, flags: TagFlags, scope: OpenElements, tags: TagTable
    ) -> xmlNodePtr? {
        if flags.contains(.button), scope.buttonInScope {
            return ancestor(of: node, tags: tags) { $0.contains(.button) }
        }
        if flags.contains(.anchor), scope.anchorInScope {
            return ancestor(of: node, tags: tags) { $0.contains(.anchor) }
        }
        if flags.contains(.listItem), scope.listItem {
            return ancestor(of: node, tags: tags) { $0.contains(.listItem) }
        }
        if flags.contains(.definitionItem), scope.definitionItem {
            return ancestor(of: node, tags: tags) { $0.contains(.definitionItem) }
        }
        if flags.contains(.heading), let parent = node.pointee.parent, tags.flags(of: parent).contains(.heading) {
            return parent
        }
        if flags.contains(.closesParagraph), scope.paragraphInButtonScope {
            return ancestor(of: node, tags: tags) { $0.contains(.paragraph) }
        }
        return nil
    }

    /// The nearest element ancestor whose flags satisfy `isTarget` (the scope says there is one).
    private static func ancestor(of node: xmlNodePtr, tags: TagTable, where isTarget: (TagFlags) -> Bool) -> xmlNodePtr? {
        var candidate = node.pointee.parent
        while let element = candidate, element.pointee.type == XML_ELEMENT_NODE {
            if isTarget(tags.flags(of: element)) { return element }
            candidate = element.pointee.parent
        }
        return nil
    }

    /// Closes every element from `node`'s parent up to `outer`: `node` and whatever followed it
    /// inside them become `outer`'s next siblings, as when HTML5 pops those elements.
    static func moveAfter(_ node: xmlNodePtr, outOf outer: xmlNodePtr) {
        while let parent = node.pointee.parent {
            var anchor = parent
            var moving: xmlNodePtr? = node
            while let current = moving {
                moving = current.pointee.next
                xmlUnlinkNode(current)
                anchor = xmlAddNextSibling(anchor, current) ?? anchor
            }
            if parent == outer { return }
        }
    }

    // MARK: html, head and body

    /// libxml2 leaves out `<head>` when a page has nothing for it, and builds no tree at all for
    /// empty input; browsers always have `<html>` with `<head>` and `<body>`, and rules rely on them.
    private static func ensureDocumentSkeleton(_ xmlDocument: htmlDocPtr) {
        let documentNode = UnsafeMutableRawPointer(xmlDocument).assumingMemoryBound(to: xmlNode.self)
        var html = xmlDocGetRootElement(xmlDocument)
        if html == nil || elementName(html!) != "html" {
            let created = xmlNewDocNode(xmlDocument, nil, "html", nil)!
            if let root = html {
                _ = xmlAddPrevSibling(root, created)
                let body = xmlNewDocNode(xmlDocument, nil, "body", nil)!
                _ = xmlAddChild(created, body)
                xmlUnlinkNode(root)
                _ = xmlAddChild(body, root)
            } else {
                _ = xmlAddChild(documentNode, created)
            }
            html = created
        }
        guard let html else { return }
        let elements = elementChildren(of: html)
        if !elements.contains(where: { elementName($0) == "head" }) {
            let head = xmlNewDocNode(xmlDocument, nil, "head", nil)!
            head.pointee.line = html.pointee.line
            if let first = html.pointee.children { _ = xmlAddPrevSibling(first, head) } else { _ = xmlAddChild(html, head) }
        }
        if !elements.contains(where: { ["body", "frameset"].contains(elementName($0)) }) {
            let body = xmlNewDocNode(xmlDocument, nil, "body", nil)!
            body.pointee.line = html.pointee.line
            _ = xmlAddChild(html, body)
        }
    }

    private static func elementChildren(of node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    // MARK: Helpers shared with table repair

    static func elementName(_ node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name)
    }

    static func removeChildren(of node: xmlNodePtr) {
        while let child = node.pointee.children {
            xmlUnlinkNode(child)
            xmlFreeNode(child)
        }
    }
}
