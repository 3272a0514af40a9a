import CanopyHTML

/// The `display` a browser's default stylesheet gives HTML elements, for the rules that ask
/// whether a box starts a new line (a link inside running text, a paragraph's line breaks).
/// Kept apart from `UserAgentStyles`: every element would otherwise match one more rule on every
/// page, while only these few rules read `display` beyond `none`.
enum DefaultDisplay {
    static func value(for element: Element) -> String {
        guard element.isHTML else { return "inline" }
        let name = element.localName
        if blockNames.contains(name) { return "block" }
        switch name {
        case "li": return "list-item"
        case "table": return "table"
        case "caption": return "table-caption"
        case "thead": return "table-header-group"
        case "tbody": return "table-row-group"
        case "tfoot": return "table-footer-group"
        case "tr": return "table-row"
        case "td", "th": return "table-cell"
        case "col": return "table-column"
        case "colgroup": return "table-column-group"
        case "button", "select", "input", "textarea", "meter", "progress", "img", "video", "audio", "iframe", "object", "embed",
             "canvas", "svg":
            return "inline-block"
        case "ruby": return "ruby"
        default: return "inline"
        }
    }

    private static let blockNames: Set<String> = [
        "html", "body", "address", "article", "aside", "blockquote", "center", "dd", "details", "dialog", "dir", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr",
        "legend", "listing", "main", "menu", "nav", "ol", "optgroup", "option", "p", "plaintext", "pre", "search", "section",
        "summary", "ul", "xmp",
    ]
}

extension ComputedStyles {
    /// The computed `display` (lowercased): the cascade's value, or the browser default for the
    /// element when no rule sets it.
    public func display(of element: Element) -> String {
        guard declares(.display, for: element) else { return DefaultDisplay.value(for: element) }
        let value = self.lowercasedValue(.display, of: element)
        if CSSWideKeyword(value) != nil { return DefaultDisplay.value(for: element) }
        return value
    }

    /// Whether the element's box starts on a line of its own: block, list-item, table, flex and
    /// grid boxes (and table parts), as axe-core counts them when it looks for running text.
    public func startsBlock(_ element: Element) -> Bool {
        displayKind(of: element) & DisplayKind.startsBlock != 0
    }

    /// What the two questions below make of a `display`, kept per style node: asked of every
    /// element of every line of running text, and a node's display never changes.
    private enum DisplayKind {
        static let startsBlock: UInt8 = 1
        static let inlineBlock: UInt8 = 2
    }

    private func displayKind(of element: Element) -> UInt8 {
        let node = Int(styleNodeNumber(of: element))
        if let known = table.displayKinds.known(node) { return known ?? 0 }
        let display = display(of: element)
        var kind: UInt8 = 0
        if Self.startsBlock(display) { kind |= DisplayKind.startsBlock }
        if ["inline-block", "inline-flex", "inline-grid", "inline-table"].contains(display) { kind |= DisplayKind.inlineBlock }
        table.displayKinds.store(kind, at: node)
        return kind
    }

    private static func startsBlock(_ display: String) -> Bool {
        if display.hasPrefix("table") { return true }
        switch firstKeyword(of: display) {
        case "block", "list-item", "table", "flex", "grid", "flow-root": return true
        default: return display.hasSuffix(" block") || display == "block flow"
        }
    }

    /// The first space-separated word of a `display` value (the whole value when it has none);
    /// on bytes for ASCII values, asked for each element of a line of text.
    private static func firstKeyword(of display: String) -> String {
        let bytes = display.utf8
        guard bytes.contains(0x20) else { return display }
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return display.split(separator: " ").first.map(String.init) ?? display }
        guard let start = bytes.firstIndex(where: { $0 != 0x20 }) else { return display }
        let end = bytes[start...].firstIndex(of: 0x20) ?? bytes.endIndex
        return String(display[start..<end])
    }

    /// Inline-level boxes that are laid out as blocks inside (inline-block, inline-flex, inline-grid).
    public func isInlineBlock(_ element: Element) -> Bool {
        displayKind(of: element) & DisplayKind.inlineBlock != 0
    }
}
