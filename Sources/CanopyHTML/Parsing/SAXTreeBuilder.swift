internal import CLibXML2

/// Builds `NodeStorage` straight from the events of libxml2's HTML parser, so libxml2 never
/// builds a tree of its own.
///
/// libxml2's tree costs more than its tokenizer: on the javadoc corpus a parse with empty SAX
/// callbacks takes 0.46× the time of `htmlReadMemory` + `xmlFreeDoc`, the rest being one `malloc`
/// per node, attribute and string and the matching `free`. Here each node is a few array slots.
///
/// The tree is the one libxml2's own tree builder (SAX2.c) would have built, then repaired the way
/// a browser builds it:
/// - elements that HTML5 closes implicitly are closed as their successor arrives (see
///   `ImplicitClose`), which keeps node numbers in document order;
/// - `<template>` contents are left out;
/// - tables are repaired afterwards (`TableRepair`), and a document without `<html>`, `<head>`
///   or `<body>` gets them (`DocumentSkeleton`).
/// The rare repairs that move nodes against document order end with one renumbering pass.
final class SAXTreeBuilder {
    /// A constant: the storage is a class the builder fills, and read from a variable it was
    /// retained and released for each tag, attribute list and run of text (perf).
    let storage: NodeStorage
    let tags = TagTable()
    /// libxml2's open elements, mirrored one for one (its name stack).
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// Every `<table>`, in document order, for the repair at the end.
    private(set) var tables: [Int32] = []
    /// Set by any change that leaves node numbers out of document order.
    var needsRenumbering = false
    /// The document's first element child (libxml2's root), and the `<head>` this builder put
    /// in front of its first child when that child was not a `<head>`.
    private(set) var root: Int32 = -1
    private(set) var implicitHead: Int32 = -1
    private(set) var rootIsHTML = false
    private var rootHasElementChild = false
    /// Whether a real `<head>` arrived after `implicitHead` had been inserted.
    private(set) var rootHasLateHead = false
    /// What libxml2's document node holds first: its tree builder appends an element that
    /// arrives when no element is open to that first child if it is an element.
    private var documentFirstChild: DocumentChild = .none

    private enum DocumentChild { case none, element, other }

    /// libxml2's `xmlParserMaxDepth`: its tree builder stops at an element this many levels down.
    static let libxml2MaximumDepth = 256

    private struct Frame {
        let node: Int32
        /// False once an implicit close took the element out of the open elements: what libxml2
        /// still puts into it goes to the nearest frame below that is still open.
        var inTree: Bool
        /// The nearest frame at or below this one that is in the tree (-1: the document).
        var nearestInTree: Int
        /// Inside `<template>`: nothing is part of the tree.
        let discarding: Bool
        /// What is in scope inside this element, for implicit closes.
        let scope: OpenElements
        let flags: TagFlags
    }

    init(inputBytes: Int) {
        storage = NodeStorage(reservingFor: inputBytes)
        storage.append(kind: .document, parent: -1)
    }

    // MARK: Where content goes

    /// The node content goes into: the innermost open element still in the tree, or the document.
    private var insertionParent: Int32 {
        guard let top = frames.last else { return 0 }
        let index = top.nearestInTree
        return index >= 0 ? frames[index].node : 0
    }

    private var insertionScope: OpenElements {
        guard let top = frames.last, top.nearestInTree >= 0 else { return OpenElements() }
        return frames[top.nearestInTree].scope
    }

    private var isDiscarding: Bool { frames.last?.discarding ?? false }

    // MARK: Events

    func startElement(_ rawName: UnsafePointer<xmlChar>, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, parser: xmlParserCtxtPtr) {
        let entry = tags.entry(Self.localName(rawName, parser: parser) ?? rawName)
        if isDiscarding || frames.count > Self.libxml2MaximumDepth {
            if !isDiscarding {
                // libxml2's tree builder halts the whole parse at this depth: the rest of the
                // page is not in its tree, so it is not in this one either.
                xmlStopParser(parser)
            }
            // libxml2 has the element on its name stack and will end it.
            frames.append(Frame(node: -1, inTree: false, nearestInTree: -1, discarding: true, scope: OpenElements(), flags: entry.flags))
            return
        }
        if entry.flags.contains(.paragraph), attributes == nil, let top = frames.last, Self.isImpliedParagraph(parser) {
            // HTML 4's omitted paragraph: libxml2 wraps text it meets before the body (text
            // after `<html>`, in `<head>`, or before any tag) in a `<p>` of its own, where
            // HTML5 puts the text straight into the body. The frame mirrors libxml2's element;
            // what libxml2 puts into it goes to the body.
            appendOutOfTreeFrame(node: -1, flags: entry.flags, above: top)
            return
        }
        if entry.flags.contains(.tablePart), let top = frames.last, startsHTMLElement(named: entry.name), !isInTable(from: top.nearestInTree) {
            // HTML5 ignores a table part's start tag outside a table (its content stays where it
            // is); libxml2 keeps the element. The frame mirrors libxml2's and takes nothing in.
            // (In SVG or MathML, a `tr` is a foreign element like any other, and stays.)
            appendOutOfTreeFrame(node: -1, flags: entry.flags, above: top)
            return
        }
        let line = Self.line(of: parser)

        var parent: Int32
        if frames.isEmpty {
            parent = elementParentWithNothingOpen()
        } else {
            if !entry.flags.contains(.template), let outer = implicitlyClosedFrame(for: entry.flags) {
                close(fromFrame: outer)
            }
            parent = insertionParent
            if storage.names[Int(parent)] == "head", !entry.flags.contains(.headContent), !entry.flags.contains(.template),
               storage.nodes[Int(parent)].parent == root {
                parent = bodyAfterHead(line: line)
            }
        }
        if entry.name == "body", parent == root, let body = bodyStartedEarly {
            // libxml2's own `<body>` for the body started when head content ended: one body.
            frames.append(Frame(
                node: body, inTree: true, nearestInTree: frames.count, discarding: false, scope: OpenElements().entering(entry.flags), flags: entry.flags
            ))
            // Its attributes are dropped: a browser would add those the body lacks, and a late
            // `<body>` after head content is rare enough not to carry a merge for it.
            return
        }
        if parent == root { noteElementChildOfRoot(isHead: entry.name == "head") }

        let namespace = Self.namespace(ofElementNamed: entry.name, inherited: storage.nodes[Int(parent)].namespace, parentName: storage.names[Int(parent)])
        let name = namespace == .svg ? ForeignNames.svgElementName(entry.name) : entry.name
        let node = storage.append(
            kind: .element, parent: parent, name: name, nameKey: namespace == .svg ? nil : entry.key, namespace: namespace, line: line
        )
        if parent == 0, root < 0 { root = node; rootIsHTML = name == "html" }
        appendAttributes(attributes, namespace: namespace)
        if entry.flags.contains(.table) { tables.append(node) }

        if entry.flags.contains(.void), namespace == .html, let top = frames.last {
            // libxml2 2.9 closes HTML 4's void elements at once, but keeps HTML5's (`wbr`,
            // `source`, `track`) open, and what follows went inside them: javadoc's member
            // signatures had their parameters and exceptions inside a `<wbr>`, with targets no
            // browser matches. The frame mirrors libxml2's open element and takes nothing in.
            appendOutOfTreeFrame(node: node, flags: entry.flags, above: top)
            return
        }
        let scope = (parent == 0 ? OpenElements() : insertionScope).entering(entry.flags)
        frames.append(Frame(
            node: node, inTree: true, nearestInTree: frames.count, discarding: entry.flags.contains(.template),
            scope: scope, flags: entry.flags
        ))
    }

    /// A frame for an element libxml2 has open and HTML5 does not (`node` -1 when the element is
    /// not in the tree at all): what libxml2 puts into it goes to the nearest frame below in the tree.
    private func appendOutOfTreeFrame(node: Int32, flags: TagFlags, above top: Frame) {
        frames.append(Frame(node: node, inTree: false, nearestInTree: top.nearestInTree, discarding: false, scope: top.scope, flags: flags))
    }

    /// Whether an element named `name` that starts now is an HTML element, not an SVG or MathML one.
    private func startsHTMLElement(named name: String) -> Bool {
        let parent = Int(insertionParent)
        return Self.namespace(ofElementNamed: name, inherited: storage.nodes[parent].namespace, parentName: storage.names[parent]) == .html
    }

    /// Whether an open `<table>` holds the frame at `index` or is that frame (libxml2's tree,
    /// before `TableRepair` moves what may not be in a table out of it). An HTML table part
    /// inside foreign content (`foreignObject`, a MathML text element) is not in a table, even
    /// with one around the foreign element.
    private func isInTable(from index: Int) -> Bool {
        var index = index
        while index >= 0 {
            let node = frames[index].node
            if node >= 0, storage.nodes[Int(node)].namespace != .html { return false }
            if frames[index].flags.contains(.table) { return true }
            index = index > 0 ? frames[index - 1].nearestInTree : -1
        }
        return false
    }

    /// Whether the `<p>` libxml2 starts is one it implied for text, not one the page wrote: a
    /// start tag is reported with the input at the `>` (or `/>`) that ends it, an implied
    /// paragraph past the text that caused it, at the next `<` or `&` or the end of the input.
    /// (A `<p` cut off by the end of the input counts as implied, and a browser drops it too.)
    private static func isImpliedParagraph(_ parser: xmlParserCtxtPtr) -> Bool {
        guard let input = parser.pointee.input, let cursor = input.pointee.cur else { return false }
        return !(cursor[0] == UInt8(ascii: ">") || (cursor[0] == UInt8(ascii: "/") && cursor[1] == UInt8(ascii: ">")))
    }

    func endElement() {
        if !frames.isEmpty { frames.removeLast() }
    }

    func characters(_ bytes: UnsafePointer<xmlChar>, count: Int, line: Int32) {
        // libxml2's tree builder drops text that arrives with no element open.
        guard !frames.isEmpty, !isDiscarding, count > 0 else { return }
        appendText(UnsafeBufferPointer(start: bytes, count: count), line: line)
    }

    /// `<script>` and `<style>` contents: libxml2 keeps them as CDATA nodes, which have no line.
    func scriptData(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        guard !frames.isEmpty, !isDiscarding, count > 0 else { return }
        appendText(UnsafeBufferPointer(start: bytes, count: count), line: 0)
    }

    func comment(_ value: UnsafePointer<xmlChar>, line: Int32) {
        guard !isDiscarding else { return }
        let text = UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value)))
        let parent = insertionParent
        if parent == 0, documentFirstChild == .none { documentFirstChild = .other }
        storage.append(kind: .comment, parent: parent, text: text, line: line)
    }

    /// Processing instructions and the doctype are not kept, but libxml2's tree holds them, which
    /// decides where it puts an element that starts when no element is open.
    func documentLevelNodeWithoutElement() {
        if frames.isEmpty, documentFirstChild == .none { documentFirstChild = .other }
    }

    /// libxml2 puts the doctype first in the document, wherever it appears.
    func doctype() {
        documentFirstChild = .other
    }

    // MARK: Text

    private func appendText(_ text: UnsafeBufferPointer<UInt8>, line: Int32) {
        let parent = insertionParent
        // A browser's tree has one text node where libxml2 coalesces, and where repairs leave
        // two side by side. The parent's last child is the node appended last unless a
        // document-level quirk appended elsewhere since; then the renumbering pass merges.
        let last = storage.nodes[Int(parent)].lastChild
        if last >= 0, storage.nodes[Int(last)].kind == .text {
            if Int(last) == storage.count - 1 {
                storage.appendToLastText(text)
                return
            }
            needsRenumbering = true
        }
        storage.append(kind: .text, parent: parent, text: text, line: line)
    }

    // MARK: Elements

    private func appendAttributes(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, namespace: Namespace) {
        guard let attributes else { return }
        var index = 0
        while let rawName = attributes[index] {
            let rawValue = attributes[index + 1]
            index += 2
            let entry = tags.entry(rawName)
            let name = namespace == .svg ? ForeignNames.svgAttributeName(entry.name) : entry.name
            let key = namespace == .svg ? nil : entry.key
            if let rawValue {
                storage.appendAttribute(name: name, key: key, value: UnsafeBufferPointer(start: rawValue, count: Int(xmlStrlen(rawValue))))
            } else if htmlIsBooleanAttr(rawName) != 0 {
                // libxml2 gives `<input disabled>` its own name as value.
                storage.appendAttribute(name: name, key: key, value: UnsafeBufferPointer(start: rawName, count: Int(xmlStrlen(rawName))))
            } else {
                storage.appendAttribute(name: name, key: key, value: UnsafeBufferPointer(start: nil, count: 0))
            }
        }
    }

    /// Where libxml2's tree builder puts an element that starts when no element is open: into
    /// the document's first child if that is an element (after `</html>`, say), else the document.
    private func elementParentWithNothingOpen() -> Int32 {
        switch documentFirstChild {
        case .none:
            documentFirstChild = .element
            return 0
        case .other:
            return 0
        case .element:
            let first = storage.nodes[0].firstChild
            // Appending inside that element keeps document order only if everything appended
            // since is inside it too.
            if !isAncestorOrSelf(first, of: Int32(storage.count - 1)) { needsRenumbering = true }
            return first
        }
    }

    private func isAncestorOrSelf(_ ancestor: Int32, of node: Int32) -> Bool {
        var current = node
        while current >= 0 {
            if current == ancestor { return true }
            current = storage.nodes[Int(current)].parent
        }
        return false
    }

    /// Browsers give `<html>` a `<head>` first, and libxml2 leaves it out when a page has nothing
    /// for it: when the root's first element child is not a `<head>`, one is put before the root's
    /// first child. (Text and comments before that element, such as the line break after
    /// `<html>`, wait for it; putting the head before them costs a renumbering.)
    private func noteElementChildOfRoot(isHead: Bool) {
        guard rootIsHTML else { return }
        if rootHasElementChild {
            if isHead, implicitHead >= 0 {
                rootHasLateHead = true
                needsRenumbering = true
            }
            return
        }
        rootHasElementChild = true
        if isHead { return }
        let line = storage.nodes[Int(root)].line
        let first = storage.nodes[Int(root)].firstChild
        if first < 0 {
            implicitHead = storage.append(kind: .element, parent: root, name: "head", line: line)
        } else {
            implicitHead = storage.makeElement(name: "head", line: line)
            storage.insert(implicitHead, before: first)
            needsRenumbering = true
        }
    }

    /// The `<body>` started by an element that HTML5 does not keep in `<head>` (`<main>`, `<nav>`,
    /// a custom element: names libxml2's HTML 4 tables do not know close nothing), where libxml2
    /// left the head open: what it still puts into the head goes into this body, as a browser's does.
    private var bodyStartedEarly: Int32?

    private func bodyAfterHead(line: Int32) -> Int32 {
        let body: Int32
        if let started = bodyStartedEarly {
            body = started
        } else {
            noteElementChildOfRoot(isHead: false)
            body = storage.append(kind: .element, parent: root, name: "body", line: line)
            bodyStartedEarly = body
        }
        // The head's frame, and the frames libxml2 opened inside it, now insert into the body.
        for index in frames.indices.reversed() {
            let node = frames[index].node
            guard node >= 0, storage.names[Int(node)] == "head" else { continue }
            let flags = TagFlags(name: "body")
            frames[index] = Frame(node: body, inTree: true, nearestInTree: index, discarding: false, scope: OpenElements().entering(flags), flags: flags)
            break
        }
        return body
    }

    /// Closes frame `index` and every frame above it for the tree, as HTML5 pops those elements.
    private func close(fromFrame index: Int) {
        let below = index > 0 ? frames[index - 1].nearestInTree : -1
        for frame in index..<frames.count {
            frames[frame].inTree = false
            frames[frame].nearestInTree = below
        }
    }

    /// The frame of the open element that HTML5 closes when an element with `flags` starts, if
    /// any: an open `<p>` before block content, a `<button>` in a `<button>`, an `<a>` in an `<a>`,
    /// a `<li>`/`<dd>`/`<dt>` in its own kind, a heading directly in a heading.
    private func implicitlyClosedFrame(for flags: TagFlags) -> Int? {
        guard let top = frames.last, top.nearestInTree >= 0 else { return nil }
        let parent = top.nearestInTree
        let scope = frames[parent].scope
        if flags.contains(.button), scope.buttonInScope { return nearestOpenFrame(from: parent) { $0.contains(.button) } }
        if flags.contains(.anchor), scope.anchorInScope { return nearestOpenFrame(from: parent) { $0.contains(.anchor) } }
        if flags.contains(.listItem), scope.listItem { return nearestOpenFrame(from: parent) { $0.contains(.listItem) } }
        if flags.contains(.definitionItem), scope.definitionItem {
            return nearestOpenFrame(from: parent) { $0.contains(.definitionItem) }
        }
        if flags.contains(.heading), frames[parent].flags.contains(.heading) { return parent }
        if flags.contains(.closesParagraph), scope.paragraphInButtonScope {
            return nearestOpenFrame(from: parent) { $0.contains(.paragraph) }
        }
        return nil
    }

    /// The innermost frame in the tree, from `index` down, whose flags satisfy `isTarget` (the
    /// scope says there is one).
    private func nearestOpenFrame(from index: Int, where isTarget: (TagFlags) -> Bool) -> Int? {
        var index = index
        while index >= 0 {
            if isTarget(frames[index].flags) { return index }
            index = index > 0 ? frames[index - 1].nearestInTree : -1
        }
        return nil
    }

    // MARK: Namespaces

    static func namespace(ofElementNamed name: String, inherited: Namespace, parentName: String) -> Namespace {
        switch inherited {
        case .html:
            if name == "svg" { return .svg }
            if name == "math" { return .mathml }
            return .html
        case .svg:
            // HTML content inside SVG is only allowed through foreignObject (and desc/title).
            if parentName == "foreignObject" || parentName == "desc" || parentName == "title" {
                return name == "svg" ? .svg : (name == "math" ? .mathml : .html)
            }
            return .svg
        case .mathml:
            // MathML text integration points hold HTML, except for MathML's own glyph elements.
            if ["mi", "mo", "mn", "ms", "mtext"].contains(parentName), name != "mglyph", name != "malignmark" {
                return name == "svg" ? .svg : .html
            }
            if parentName == "annotation-xml", name == "svg" { return .svg }
            return .mathml
        }
    }

    /// libxml2's tree builder names an element `x:y` by its local part `y` (HTML has no
    /// namespace prefixes, so the prefix is dropped); its own splitter decides the odd cases.
    /// Returns nil for the usual name without a colon. The local name is interned in the tag table.
    private static func localName(_ name: UnsafePointer<xmlChar>, parser: xmlParserCtxtPtr) -> UnsafePointer<xmlChar>? {
        guard xmlStrchr(name, UInt8(ascii: ":")) != nil else { return nil }
        var prefix: UnsafeMutablePointer<xmlChar>?
        guard let local = xmlSplitQName(parser, name, &prefix) else { return nil }
        if let prefix { canopy_xml_free(prefix) }
        // The tag table keeps its own copy of the bytes; libxml2's copy can go at once.
        let interned = xmlDictLookup(parser.pointee.dict, local, -1)
        canopy_xml_free(local)
        return interned
    }

    static func line(of parser: xmlParserCtxtPtr) -> Int32 {
        guard let input = parser.pointee.input else { return 0 }
        // libxml2 keeps lines in an unsigned short unless asked for big lines.
        return min(input.pointee.line, 65_535)
    }
}
