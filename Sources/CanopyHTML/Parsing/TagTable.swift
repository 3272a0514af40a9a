internal import CLibXML2

/// What tree repair needs to know about an element name, as bit flags.
struct TagFlags: OptionSet, Sendable {
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
    /// What HTML5 lets stay in `<head>`; any other element there closes it and starts the body.
    static let headContent = TagFlags(rawValue: 1 << 12)
    /// An HTML void element: it never has content.
    static let void = TagFlags(rawValue: 1 << 13)
    /// A part of a table (`tr`, `td`, `tbody`, `caption`, …): HTML5 ignores its start tag outside one.
    static let tablePart = TagFlags(rawValue: 1 << 14)

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(name: String) {
        var flags: TagFlags = []
        if Self.closesParagraphNames.contains(name) { flags.insert(.closesParagraph) }
        if Self.scopeBoundaryNames.contains(name) { flags.insert(.scopeBoundary) }
        if Self.specialNames.contains(name) { flags.insert(.special) }
        if SelfClosingTagRewriter.voidElements.contains(name) { flags.insert(.void) }
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
        case "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr": flags.insert(.tablePart)
        case "base", "basefont", "bgsound", "link", "meta", "noframes", "noscript", "script", "style", "title":
            flags.insert(.headContent)
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

/// Swift strings, name keys and flags for libxml2's element and attribute names, computed once
/// per name and parse.
///
/// libxml2 hands names over as C strings interned in its parser's dictionary, so the same name
/// nearly always comes back as the same pointer: a lookup is one hash of the address. A name seen
/// at a new address is found by its bytes, in a second small table.
final class TagTable {
    struct Entry: Sendable {
        let name: String
        let key: UInt64
        let flags: TagFlags
    }

    private static let slotCount = 1024  // a power of two; pages use a few dozen distinct names
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var entryBytes: [[UInt8]] = []
    /// Entry number + 1 by content hash slot, and by address slot (0: empty).
    @exclusivity(unchecked) private var byContent = [Int32](repeating: 0, count: slotCount)
    @exclusivity(unchecked) private var byAddress = [(address: UInt, entry: Int32)](repeating: (0, 0), count: slotCount)

    /// A table that starts with the entries of the names most pages use, made once for the
    /// process: each parse made the same few dozen entries again (a string, a key and flags each,
    /// 3,000 instructions). The arrays are copied when first written, not when the table is made.
    init() {
        let seed = Self.seed
        entries = seed.entries
        entryBytes = seed.entryBytes
        byContent = seed.byContent
    }

    private init(seeding names: [String]) {
        for name in names {
            name.withCString { _ = entryIndex(byContentOf: UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
        }
    }

    private struct Seed: Sendable {
        let entries: [Entry]
        let entryBytes: [[UInt8]]
        let byContent: [Int32]
    }

    private static let seed: Seed = {
        let table = TagTable(seeding: commonNames)
        return Seed(entries: table.entries, entryBytes: table.entryBytes, byContent: table.byContent)
    }()

    /// HTML's element names and the attribute names most pages carry.
    private static let commonNames = [
        "html", "head", "body", "title", "meta", "link", "style", "script", "noscript", "base", "template",
        "header", "footer", "nav", "main", "aside", "section", "article", "search", "dialog", "address",
        "h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "p", "div", "span", "a", "em", "strong", "b", "i", "u", "s",
        "small", "mark", "abbr", "cite", "code", "kbd", "samp", "var", "sub", "sup", "q", "blockquote", "pre",
        "br", "hr", "wbr", "img", "picture", "source", "figure", "figcaption", "video", "audio", "track",
        "iframe", "embed", "object", "canvas", "svg", "math", "ul", "ol", "li", "dl", "dt", "dd", "menu",
        "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td", "form", "fieldset",
        "legend", "label", "input", "button", "select", "option", "optgroup", "textarea", "output", "progress",
        "meter", "details", "summary", "time", "data", "ins", "del", "map", "area",
        "id", "class", "href", "src", "alt", "name", "type", "value", "rel", "lang", "content", "charset",
        "http-equiv", "role", "tabindex", "target", "for", "width", "height", "action", "method", "hidden",
        "disabled", "checked", "placeholder", "aria-label", "aria-labelledby", "aria-describedby", "aria-hidden",
        "aria-expanded", "aria-controls", "media", "sizes", "srcset", "colspan", "rowspan", "scope", "headers",
        "dir", "xmlns", "viewbox",
    ]

    func entry(_ pointer: UnsafePointer<xmlChar>) -> Entry {
        let address = UInt(bitPattern: pointer)
        let addressSlot = Int(truncatingIfNeeded: ((address >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 54) & (Self.slotCount - 1)
        let cached = byAddress[addressSlot]
        if cached.address == address, cached.entry > 0 { return entries[Int(cached.entry) - 1] }
        let index = entryIndex(byContentOf: pointer)
        if index >= 0 { byAddress[addressSlot] = (address, Int32(index + 1)) }
        return index >= 0 ? entries[index] : Self.makeEntry(pointer).entry
    }

    /// The entry for a name's bytes, made on first sight; -1 when the table is full (a page with
    /// absurdly many distinct names just skips caching).
    private func entryIndex(byContentOf pointer: UnsafePointer<xmlChar>) -> Int {
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        var length = 0
        while pointer[length] != 0 {
            hash = (hash ^ UInt32(pointer[length])) &* 16_777_619
            length += 1
        }
        var slot = Int(hash) & (Self.slotCount - 1)
        while byContent[slot] > 0 {
            let index = Int(byContent[slot]) - 1
            if entryBytes[index].count == length, Self.equal(entryBytes[index], pointer) { return index }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        guard entries.count < Self.slotCount / 2 else { return -1 }
        let made = Self.makeEntry(pointer, length: length)
        entries.append(made.entry)
        entryBytes.append(made.bytes)
        byContent[slot] = Int32(entries.count)
        return entries.count - 1
    }

    private static func makeEntry(_ pointer: UnsafePointer<xmlChar>, length: Int? = nil) -> (entry: Entry, bytes: [UInt8]) {
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: length ?? Int(xmlStrlen(pointer))))
        let name = String(decoding: bytes, as: UTF8.self)
        return (Entry(name: name, key: NameKey.of(name), flags: TagFlags(name: name)), bytes)
    }

    private static func equal(_ bytes: [UInt8], _ pointer: UnsafePointer<xmlChar>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] != pointer[index] { return false }
            return true
        }
    }
}
