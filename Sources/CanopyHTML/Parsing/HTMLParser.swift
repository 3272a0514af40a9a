internal import CLibXML2

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
        return parseUTF8(utf8, url: url, encoding: decoded.encoding)
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

    private func parseUTF8(_ utf8: [UInt8], url: String?, encoding: String) -> Document {
        Document(storage: LibXML2Events.buildTree(from: utf8), url: url, sourceEncoding: encoding)
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
