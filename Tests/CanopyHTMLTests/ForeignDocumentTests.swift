import CanopyHTML
import Testing

/// SVG and XML documents are not HTML pages: their own first element stays the root, with no
/// `<html>`, `<head>` or `<body>` made up around it, whether the type says so or, for a file,
/// the extension.
struct ForeignDocumentTests {
    static let svg = #"<?xml version="1.0"?><!-- a logo --><svg xmlns="http://www.w3.org/2000/svg" lang="en"><title>Logo</title><text>Acme</text></svg>"#

    @Test func svgByContentTypeKeepsItsRoot() throws {
        let document = HTMLParser().parse(bytes: Array(Self.svg.utf8), contentType: "image/svg+xml")
        let root = try #require(document.documentElement)
        #expect(root.localName == "svg")
        #expect(root.namespace == .svg)
        #expect(document.body == nil && document.head == nil)
        #expect(document.elements.map(\.localName) == ["svg", "title", "text"])
    }

    @Test func xmlByExtensionKeepsItsRoot() throws {
        let document = HTMLParser().parse(bytes: Array("<math lang=\"en\">x + 1</math>".utf8), url: "file:///tmp/formula.xml")
        #expect(document.documentElement?.localName == "math")
        #expect(document.body == nil)
    }

    @Test func theSameMarkupAsHTMLIsWrappedAsBrowsersDo() throws {
        let document = HTMLParser().parse(bytes: Array(Self.svg.utf8), contentType: "text/html")
        #expect(document.documentElement?.localName == "html")
        #expect(document.body?.firstElementChild?.localName == "svg")
    }

    @Test func anXHTMLDocumentServedAsXMLStaysHTML() throws {
        let xhtml = #"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>T</title></head><body><p>x</p></body></html>"#
        let document = HTMLParser().parse(bytes: Array(xhtml.utf8), contentType: "application/xml")
        #expect(document.documentElement?.localName == "html")
        #expect(document.body?.firstElementChild?.localName == "p")
    }
}
