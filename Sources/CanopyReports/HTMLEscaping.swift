/// The one way crawled content (URLs, titles, snippets, selectors, messages, vendor names) gets
/// into an HTML report. Every such string goes through `escape` — in text and in double-quoted
/// attribute values alike — so a page that contains `<script>` or `" onmouseover=` shows it as
/// text and cannot add markup, attributes or scripts to the report.
public enum HTMLEscaping {
    /// `&`, `<`, `>`, `"` and `'` as character references; U+0000 as U+FFFD (what a browser
    /// would make of it anyway, and a NUL in a file confuses tools that read it).
    public static func escape(_ text: some StringProtocol) -> String {
        let utf8 = text.utf8
        // Most strings need nothing: skip the rebuild for them.
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0x00 }) else {
            return String(text)
        }
        // On bytes: every character escaped is ASCII, and no byte of a multi-byte UTF-8 sequence
        // is. Snippets are markup, so nearly all of them get here; appending their text a scalar
        // at a time was most of writing a report's drill-down (callgrind).
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 32)
        for byte in utf8 {
            switch byte {
            case 0x26: escaped.append(contentsOf: "&amp;".utf8)
            case 0x3C: escaped.append(contentsOf: "&lt;".utf8)
            case 0x3E: escaped.append(contentsOf: "&gt;".utf8)
            case 0x22: escaped.append(contentsOf: "&quot;".utf8)
            case 0x27: escaped.append(contentsOf: "&#39;".utf8)
            case 0x00: escaped.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// The URL when it may be a link's `href`: only absolute http and https URLs, so a crawled
    /// `javascript:` or `data:` URL is never clickable. The caller still escapes it.
    public static func linkableURL(_ url: String) -> String? {
        let lowered = url.prefix(8).lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        // Whitespace or control characters would let a browser read the URL differently than this check did.
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return nil }
        return url
    }
}
