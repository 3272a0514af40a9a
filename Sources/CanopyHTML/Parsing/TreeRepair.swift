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
/// and nothing for pages that need no repair.
enum TreeRepair {
    static func repair(_ xmlDocument: htmlDocPtr) {
        var tables: [xmlNodePtr] = []
        var current = xmlDocument.pointee.children
        while let node = current {
            var descend = true
            if node.pointee.type == XML_ELEMENT_NODE {
                let name = elementName(node)
                if name == "template" {
                    removeChildren(of: node)
                    descend = false
                } else if let outer = implicitlyClosedAncestor(of: node, name: name) {
                    moveAfter(node, outOf: outer)
                } else if name == "table" {
                    tables.append(node)
                }
            }
            current = nextInPreOrder(node, descend: descend)
        }
        // Fostered content lands before its table, already visited; it holds no tables of its
        // own that were missed, because the walk above saw every table wherever it was.
        for table in tables { TableRepair.repair(table) }
    }

    // MARK: Implicitly closed elements

    private static let closesParagraph: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p",
        "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form",
        "table", "hr", "xmp", "plaintext",
    ]
    private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// Elements that end the search for an open element ("has an element in scope" in HTML5).
    private static let scopeBoundaries: Set<String> = [
        "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "svg", "math",
        "foreignobject",
    ]
    /// HTML5's "special" elements, which stop the search for an open `<li>`, `<dd>` or `<dt>`.
    private static let specialElements: Set<String> = [
        "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body",
        "br", "button", "caption", "center", "col", "colgroup", "dd", "details", "dir", "div", "dl", "dt",
        "embed", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
        "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li",
        "link", "listing", "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript",
        "object", "ol", "p", "param", "plaintext", "pre", "script", "search", "section", "select", "source",
        "style", "summary", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title",
        "tr", "track", "ul", "wbr", "xmp",
    ]

    /// The open element that HTML5 would have closed when `node`'s start tag was seen, if any.
    private static func implicitlyClosedAncestor(of node: xmlNodePtr, name: String) -> xmlNodePtr? {
        switch name {
        case "button":
            return ancestor(of: node, named: "button", boundaries: scopeBoundaries)
        case "a":
            return ancestor(of: node, named: "a", boundaries: scopeBoundaries)
        case "li", "dd", "dt":
            let targets: Set<String> = name == "li" ? ["li"] : ["dd", "dt"]
            var candidate = node.pointee.parent
            while let element = candidate, element.pointee.type == XML_ELEMENT_NODE {
                let ancestorName = elementName(element)
                if targets.contains(ancestorName) { return element }
                if specialElements.contains(ancestorName), !["address", "div", "p"].contains(ancestorName) { return nil }
                candidate = element.pointee.parent
            }
            return nil
        default:
            if headings.contains(name), let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE,
                headings.contains(elementName(parent))
            {
                return parent
            }
            if closesParagraph.contains(name) {
                return ancestor(of: node, named: "p", boundaries: scopeBoundaries.union(["button"]))
            }
            return nil
        }
    }

    private static func ancestor(of node: xmlNodePtr, named target: String, boundaries: Set<String>) -> xmlNodePtr? {
        var candidate = node.pointee.parent
        while let element = candidate, element.pointee.type == XML_ELEMENT_NODE {
            let name = elementName(element)
            if name == target { return element }
            if boundaries.contains(name) { return nil }
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

    static func nextInPreOrder(_ node: xmlNodePtr, descend: Bool) -> xmlNodePtr? {
        if descend, let child = node.pointee.children, node.pointee.type == XML_ELEMENT_NODE { return child }
        var cursor: xmlNodePtr? = node
        while let current = cursor {
            if let next = current.pointee.next { return next }
            cursor = current.pointee.parent
            if cursor?.pointee.type != XML_ELEMENT_NODE { return nil }
        }
        return nil
    }
}
