internal import CLibXML2
import Foundation

/// Turns page bytes into a `Document` with the tree a browser would build for auditing purposes.
///
/// Steps: decode to UTF-8 (header, BOM, `<meta charset>`, invalid bytes replaced); undo `/>` on
/// non-void elements; run libxml2's recovering HTML parser (no network) and build the flat tree
/// from its events, repaired where libxml2 2.9 differs from HTML5 tree construction.
public struct HTMLParser: Sendable {
    public init() {}

    /// Parses page bytes. `contentType` is the HTTP `Content-Type` header value, if any.
    public func parse(bytes: [UInt8], contentType: String? = nil, url: String? = nil) -> Document {
        LibXML2.initialize()
        let decoded = CharacterDecoder.decode(bytes, contentType: contentType)
        var utf8 = decoded.utf8
        SelfClosingTagRewriter.rewrite(&utf8)
        // An SVG or XML document (by its type, or its extension when it came without one) is not
        // an HTML page: its root stays its own first element, with no <html>, <head> or <body>
        // around it, so the rules about HTML pages find nothing to judge, as in a browser.
        let foreignRoot = Self.isXMLDocument(contentType: contentType, url: url) ? Self.firstElementName(utf8).flatMap { $0 == "html" ? nil : $0 } : nil
        return Document(storage: LibXML2Events.buildTree(from: utf8, foreignRoot: foreignRoot), url: url, sourceEncoding: decoded.encoding)
    }

    static func isXMLDocument(contentType: String?, url: String?) -> Bool {
        if let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(), !type.isEmpty {
            return type == "image/svg+xml" || type == "application/xml" || type == "text/xml"
        }
        let path = url.flatMap { URL(string: $0)?.path ?? $0 } ?? ""
        let lowered = path.lowercased()
        return lowered.hasSuffix(".svg") || lowered.hasSuffix(".xml")
    }

    /// The lowercased local name of the first element of the source, past any XML declaration,
    /// processing instructions, comments and doctype.
    static func firstElementName(_ utf8: [UInt8]) -> String? {
        var index = 0
        func starts(with text: String) -> Bool { utf8[index...].starts(with: text.utf8) }
        func skip(past end: String) {
            let terminator = Array(end.utf8)
            while index < utf8.count, !utf8[index...].starts(with: terminator) { index += 1 }
            index = min(utf8.count, index + terminator.count)
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                index += 1
            } else if starts(with: "<?") {
                skip(past: "?>")
            } else if starts(with: "<!--") {
                skip(past: "-->")
            } else if starts(with: "<!") {
                skip(past: ">")
            } else if byte == UInt8(ascii: "<") {
                var end = index + 1
                while end < utf8.count, ![0x20, 0x09, 0x0A, 0x0C, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(utf8[end]) { end += 1 }
                let name = String(decoding: utf8[(index + 1)..<end], as: UTF8.self).lowercased()
                return name.split(separator: ":").last.map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            } else {
                return nil
            }
        }
        return nil
    }

    /// Parses markup that is already a Swift string.
    public func parse(html: String, url: String? = nil) -> Document {
        parse(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8", url: url)
    }

    /// Recovering, silent, no network; the input is already UTF-8, so libxml2 must not switch
    /// encodings on a `<meta charset>`.
    static let libxml2Options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
    )

    /// libxml2's parse of UTF-8 bytes with Canopy's options, before any repair.
    static func readWithLibXML2(_ utf8: [UInt8]) -> htmlDocPtr? {
        utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, "UTF-8", libxml2Options)
            }
        }
    }

}

/// libxml2 needs one initialisation before parsing from several threads.
enum LibXML2 {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func initialize() { _ = initialized }
}
