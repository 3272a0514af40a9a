internal import CLibXML2

/// Runs libxml2's HTML parser over UTF-8 bytes with callbacks that feed a `SAXTreeBuilder`, and
/// finishes the tree: tables repaired, `<html>`/`<head>`/`<body>` present, nodes in document order.
enum LibXML2Events {
    /// `foreignRoot`: the name of an SVG or XML document's own root element, which then stays
    /// the root instead of being wrapped in the `<html>` and `<body>` an HTML parser implies.
    static func buildTree(from utf8: [UInt8], foreignRoot: String? = nil) -> NodeStorage {
        let builder = SAXTreeBuilder(inputBytes: utf8.count)
        if !utf8.isEmpty { run(builder, over: utf8) }
        return finish(builder, foreignRoot: foreignRoot)
    }

    private static func run(_ builder: SAXTreeBuilder, over utf8: [UInt8]) {
        guard let parser = htmlNewParserCtxt() else { fatalError("libxml2 could not allocate a parser") }
        defer { htmlFreeParserCtxt(parser) }
        // The context owns its handler block; only the callbacks Canopy needs are set, and the
        // parser's own tree builder is never called.
        parser.pointee.sax.pointee = makeHandler()
        // The callbacks receive the context itself (libxml2's default user data), which gives
        // them the input position and line; the builder travels in its private pointer.
        parser.pointee._private = Unmanaged.passUnretained(builder).toOpaque()
        withExtendedLifetime(builder) {
            utf8.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    if !readAsUTF8(chars, with: parser) {
                        // Returns no document: nothing here builds one.
                        _ = htmlCtxtReadMemory(parser, chars.baseAddress, Int32(chars.count), nil, "UTF-8", HTMLParser.libxml2Options)
                    }
                }
            }
        }
    }

    /// What `htmlCtxtReadMemory` does, but with the input declared UTF-8 instead of converted from
    /// UTF-8 to UTF-8: given an encoding by name, libxml2 2.9 runs the whole page through that
    /// encoding's converter into a second buffer, held with the first through the parse (12 MB
    /// for javadoc's 6 MB uses of `String`, a fifth of the heap at a crawl's peak). The bytes
    /// are UTF-8 already (`CharacterDecoder`), and `xmlSwitchEncoding` with UTF-8 only says so.
    /// False, having done nothing, for input whose first bytes libxml2 would take for another
    /// encoding (UTF-16 or UCS-4 patterns of NUL bytes): that goes the converting way, as before.
    private static func readAsUTF8(_ chars: UnsafeBufferPointer<CChar>, with parser: htmlParserCtxtPtr) -> Bool {
        guard let start = chars.baseAddress else { return false }
        if chars.count >= 4 {
            let detected = start.withMemoryRebound(to: UInt8.self, capacity: 4) { xmlDetectCharEncoding($0, 4) }
            guard detected == XML_CHAR_ENCODING_NONE || detected == XML_CHAR_ENCODING_UTF8 else { return false }
        }
        htmlCtxtReset(parser)
        guard let input = xmlParserInputBufferCreateMem(start, Int32(chars.count), XML_CHAR_ENCODING_NONE) else { return false }
        guard let stream = xmlNewIOInputStream(parser, input, XML_CHAR_ENCODING_NONE) else {
            xmlFreeParserInputBuffer(input)
            return false
        }
        inputPush(parser, stream)
        htmlCtxtUseOptions(parser, HTMLParser.libxml2Options)
        parser.pointee.html = 1
        xmlSwitchEncoding(parser, XML_CHAR_ENCODING_UTF8)
        htmlParseDocument(parser)
        return true
    }

    // Filled per parse (a few stores): a static value of this C type would be shared mutable state to Swift.
    private static func makeHandler() -> htmlSAXHandler {
        var handler = htmlSAXHandler()
        handler.initialized = 1
        handler.startElement = { context, name, attributes in
            guard let context, let name else { return }
            let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
            withBuilder(of: parser) { $0.startElement(name, attributes: attributes, parser: parser) }
        }
        handler.endElement = { context, _ in
            guard let context else { return }
            withBuilder(of: context.assumingMemoryBound(to: xmlParserCtxt.self)) { $0.endElement() }
        }
        handler.characters = { context, bytes, length in
            guard let context, let bytes else { return }
            let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
            withBuilder(of: parser) { $0.characters(bytes, count: Int(length), line: SAXTreeBuilder.line(of: parser)) }
        }
        handler.cdataBlock = { context, bytes, length in
            guard let context, let bytes else { return }
            withBuilder(of: context.assumingMemoryBound(to: xmlParserCtxt.self)) { $0.scriptData(bytes, count: Int(length)) }
        }
        handler.comment = { context, value in
            guard let context, let value else { return }
            let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
            withBuilder(of: parser) { $0.comment(value, line: SAXTreeBuilder.line(of: parser)) }
        }
        handler.processingInstruction = { context, target, _ in
            guard let context else { return }
            withBuilder(of: context.assumingMemoryBound(to: xmlParserCtxt.self)) { $0.documentLevelNodeWithoutElement() }
        }
        handler.internalSubset = { context, _, _, _ in
            guard let context else { return }
            withBuilder(of: context.assumingMemoryBound(to: xmlParserCtxt.self)) { $0.doctype() }
        }
        return handler
    }

    // MARK: Finishing the tree

    private static func finish(_ builder: SAXTreeBuilder, foreignRoot: String?) -> NodeStorage {
        var storage = builder.storage
        var renumber = builder.needsRenumbering
        ensureSkeleton(&storage, builder: builder, renumber: &renumber)
        if let foreignRoot { renumber = reroot(&storage, at: foreignRoot) || renumber }
        if !builder.tables.isEmpty {
            var repair = TableRepair(storage)
            for table in builder.tables { repair.repair(table) }
            storage = repair.storage
            renumber = renumber || repair.changed
        }
        return renumber ? storage.inDocumentOrder() : storage
    }

    /// Makes the first element named `name` the document's root, dropping the implied `<html>`
    /// around it (and everything else in it); false when there is no such element.
    private static func reroot(_ storage: inout NodeStorage, at name: String) -> Bool {
        let html = storage.childNodes(of: 0).first { storage.nodes[Int($0)].kind == .element }
        guard let html,
              let root = (0..<storage.count).first(where: { storage.nodes[$0].kind == .element && storage.names[$0].lowercased() == name })
        else { return false }
        let element = Int32(root)
        guard element != html else { return false }
        storage.unlink(element)
        storage.insert(element, before: html)
        storage.unlink(html)
        return true
    }

    /// Browsers always have `<html>` with `<head>` and `<body>`, and rules rely on them; libxml2
    /// builds no tree for empty input and leaves out `<head>` when a page has nothing for it.
    private static func ensureSkeleton(_ storage: inout NodeStorage, builder: SAXTreeBuilder, renumber: inout Bool) {
        var html = builder.root
        if html < 0 {
            html = storage.append(kind: .element, parent: 0, name: "html")
        } else if storage.names[Int(html)] != "html" {
            // Wrap the root in html > body, where the root was.
            let root = html
            html = storage.makeElement(name: "html", line: 0)
            storage.insert(html, before: root)
            let body = storage.makeElement(name: "body", line: 0)
            storage.appendChild(body, to: html)
            storage.unlink(root)
            storage.appendChild(root, to: body)
            renumber = true
        }
        let line = storage.nodes[Int(html)].line
        if builder.rootHasLateHead, builder.implicitHead >= 0 {
            storage.unlink(builder.implicitHead)
        }
        var children: [Int32] { storage.childNodes(of: html).filter { storage.nodes[Int($0)].kind == .element } }
        if !children.contains(where: { storage.names[Int($0)] == "head" }) {
            let first = storage.nodes[Int(html)].firstChild
            // Appended last, or first under an empty <html>, the head keeps document order
            // only if nothing was appended outside <html> since.
            if first >= 0 || !storage.appendingKeepsDocumentOrder(under: html) { renumber = true }
            let head = storage.makeElement(name: "head", line: line)
            if first >= 0 { storage.insert(head, before: first) } else { storage.appendChild(head, to: html) }
        }
        if !children.contains(where: { storage.names[Int($0)] == "body" || storage.names[Int($0)] == "frameset" }) {
            if !storage.appendingKeepsDocumentOrder(under: html) { renumber = true }
            let body = storage.makeElement(name: "body", line: line)
            storage.appendChild(body, to: html)
        }
    }
}

/// Calls `body` with the builder a parse's callbacks feed (a free function: C callbacks cannot
/// capture a type), borrowed: the parse holds it for as long as libxml2 calls back, and taking
/// it as a strong reference retained and released it for each tag and run of text (perf).
@inline(__always)
private func withBuilder(of parser: UnsafeMutablePointer<xmlParserCtxt>, _ body: (SAXTreeBuilder) -> Void) {
    Unmanaged<SAXTreeBuilder>.fromOpaque(parser.pointee._private)._withUnsafeGuaranteedRef(body)
}
