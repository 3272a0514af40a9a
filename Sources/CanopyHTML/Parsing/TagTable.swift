internal import CLibXML2

/// What tree repair needs to know about an element name, as bit flags.
struct TagFlags: OptionSet {
    let rawValue: UInt32

    static let closesParagraph = TagFlags(rawValue: 1 << 0)
    static let heading = TagFlags(rawValue: 1 << 1)
    /// Ends the search for an open element ("has an element in scope").
    static let scopeBoundary = TagFlags(rawValue: 1 << 2)
    /// HTML5's "special" category, which stops the search for an open `li`/`dd`/`dt`...
    static let special = TagFlags(rawValue: 1 << 3)
    /// ... except for these three.
    static let addressDivOrP = TagFlags(rawValue: 1 << 4)
    static let paragraph = TagFlags(rawValue: 1 << 5)
    static let button = TagFlags(rawValue: 1 << 6)
    static let anchor = TagFlags(rawValue: 1 << 7)
    static let listItem = TagFlags(rawValue: 1 << 8)
    static let definitionItem = TagFlags(rawValue: 1 << 9)
    static let template = TagFlags(rawValue: 1 << 10)
    static let table = TagFlags(rawValue: 1 << 11)

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(name: String) {
        var flags: TagFlags = []
        if Self.closesParagraphNames.contains(name) { flags.insert(.closesParagraph) }
        if Self.scopeBoundaryNames.contains(name) { flags.insert(.scopeBoundary) }
        if Self.specialNames.contains(name) { flags.insert(.special) }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6": flags.insert(.heading)
        case "p": flags.formUnion([.paragraph, .addressDivOrP])
        case "address", "div": flags.insert(.addressDivOrP)
        case "button": flags.insert(.button)
        case "a": flags.insert(.anchor)
        case "li": flags.insert(.listItem)
        case "dd", "dt": flags.insert(.definitionItem)
        case "template": flags.insert(.template)
        case "table": flags.insert(.table)
        default: break
        }
        self = flags
    }

    private static let closesParagraphNames: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p",
        "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form",
        "table", "hr", "xmp", "plaintext",
    ]
    private static let scopeBoundaryNames: Set<String> = [
        "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "svg", "math",
        "foreignobject",
    ]
    private static let specialNames: Set<String> = [
        "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body",
        "br", "button", "caption", "center", "col", "colgroup", "dd", "details", "dir", "div", "dl", "dt",
        "embed", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
        "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li",
        "link", "listing", "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript",
        "object", "ol", "p", "param", "plaintext", "pre", "script", "search", "section", "select", "source",
        "style", "summary", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title",
        "tr", "track", "ul", "wbr", "xmp",
    ]
}

/// Swift strings and flags for libxml2's element and attribute names, computed once per name.
///
/// libxml2 2.9's HTML parser copies every name into its node, so names are looked up by content:
/// a small open-addressing table keyed by a hash of the bytes, which turns nearly every lookup
/// into hashing a few bytes and one comparison instead of a string conversion and set lookups.
final class TagTable {
    private struct Entry {
        let bytes: [UInt8]
        let name: String
        let flags: TagFlags
    }

    private static let slotCount = 1024  // a power of two; pages use a few dozen distinct names
    @exclusivity(unchecked) private var slots = [Entry?](repeating: nil, count: slotCount)
    private var used = 0

    func name(_ pointer: UnsafePointer<xmlChar>) -> String { entry(pointer).name }

    func flags(_ pointer: UnsafePointer<xmlChar>) -> TagFlags { entry(pointer).flags }

    func flags(of node: xmlNodePtr) -> TagFlags {
        guard node.pointee.type == XML_ELEMENT_NODE, let name = node.pointee.name else { return [] }
        return flags(name)
    }

    private func entry(_ pointer: UnsafePointer<xmlChar>) -> Entry {
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        var length = 0
        while pointer[length] != 0 {
            hash = (hash ^ UInt32(pointer[length])) &* 16_777_619
            length += 1
        }
        var slot = Int(hash) & (Self.slotCount - 1)
        while let entry = slots[slot] {
            if entry.bytes.count == length, Self.equal(entry.bytes, pointer) { return entry }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: length))
        let name = String(decoding: bytes, as: UTF8.self)
        let entry = Entry(bytes: bytes, name: name, flags: TagFlags(name: name))
        // Keep the table sparse; a page with absurdly many distinct names just skips caching.
        if used < Self.slotCount / 2 {
            slots[slot] = entry
            used += 1
        }
        return entry
    }

    private static func equal(_ bytes: [UInt8], _ pointer: UnsafePointer<xmlChar>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] != pointer[index] { return false }
            return true
        }
    }
}
