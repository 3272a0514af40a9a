import CanopyHTML
import Testing

/// The tree built from libxml2's parser events: node numbers in document order whatever the
/// repairs moved, and libxml2's own tree-building decisions kept where they decide the shape.
struct TreeBuildingTests {
    /// Pages whose repairs move nodes against the order they arrived in.
    static let reorderingPages = [
        "<table>x<tr><td>a</td></tr>y<form><tr><td>b</td></tr></form>text<div>d</div></table>",
        "<table><svg><rect/></svg><tr><td><svg><g/></svg></td></tr></table>",
        "<html><!--c--><p>no head</p></html>",
        "<html><body><p>one</body></html><!--after--><p>two",
        "<body></body><p>a<section>b</section>c",
        "<table><tr><td>1</td></tr></table>tail<table>lead<tr><td>2",
        "<p>a<table><tr><td>x<p>y<section>z</section></td></tr></table>",
    ]

    /// Elements by walking children recursively, which must be the document order the
    /// position-based API gives.
    private func walkedOrder(_ document: Document) -> [String] {
        var names: [String] = []
        func visit(_ element: Element) {
            names.append("\(element.localName)@\(element.position)")
            element.children.forEach(visit)
        }
        document.documentElement.map(visit)
        return names
    }

    @Test(arguments: reorderingPages)
    func positionsFollowTheTreeAfterRepairs(html: String) {
        let document = HTMLParser().parse(html: html)
        let walked = walkedOrder(document)
        let positional = document.elements.map { "\($0.localName)@\($0.position)" }
        #expect(walked == positional)
        for element in document.elements {
            // Descendant ranges come from numbering: every child must fall inside its parent's.
            for child in element.children { #expect(child.isDescendant(of: element)) }
        }
    }

    @Test func fosteredTextLandsBeforeTheTableAndMerges() {
        let document = HTMLParser().parse(html: "<p>a<table>b<tr><td>c</td></tr></table>")
        // libxml2 closes the <p> at <table>; "b" moves in front of the table, beside nothing.
        let table = document.elements(named: "table")[0]
        #expect(table.children.map(\.localName) == ["tbody"])
        #expect(document.body?.textContent == "abc")
    }

    @Test func lineBreakAfterHtmlDoesNotHideTheRealHead() {
        let document = HTMLParser().parse(html: "<!DOCTYPE html>\n<html lang=en>\n<head><title>t</title></head>\n<body><p>x</p></body></html>\n")
        #expect(document.documentElement?.children.map(\.localName) == ["head", "body"])
        #expect(document.head?.children.map(\.localName) == ["title"])
    }

    @Test func missingHeadGoesBeforeEverythingInHtml() {
        let document = HTMLParser().parse(html: "<html><!--note--><body><p>x</p></body></html>")
        #expect(document.documentElement?.children.map(\.localName) == ["head", "body"])
        #expect(document.documentElement?.childNodes.first?.element?.localName == "head")
    }

    @Test func prefixedElementNamesKeepTheirLocalPart() {
        // libxml2's tree builder drops an element's prefix (HTML has no namespaces) and keeps
        // prefixed attribute names whole.
        let document = HTMLParser().parse(html: "<x:meta x:tool=\"t\"><ns:item>q</ns:item></x:meta>")
        #expect(document.elements(named: "meta").first?.attribute("x:tool") == "t")
        #expect(document.elements(named: "item").count == 1)
    }

    @Test func booleanAttributesWithoutValueGetTheirName() {
        let document = HTMLParser().parse(html: "<input disabled value><option selected>")
        let input = document.elements(named: "input")[0]
        #expect(input.attribute("disabled") == "disabled")
        #expect(input.attribute("value") == "")
        #expect(document.elements(named: "option")[0].attribute("selected") == "selected")
    }

    @Test func nestingPastLibxml2DepthLimitEndsTheTree() {
        // libxml2 stops building its tree 256 elements down; Canopy's tree ends there too, so the
        // two parsers never disagree on what a page holds.
        let html = String(repeating: "<div>", count: 300) + "deep" + String(repeating: "</div>", count: 300) + "<p>after</p>"
        let document = HTMLParser().parse(html: html)
        #expect(document.elements(named: "div").count < 300)
        #expect(document.elements(named: "p").isEmpty)
        #expect(document.body?.textContent.contains("deep") == false)
    }

    @Test func scriptTextIsKeptWhole() {
        let source = "if (a < b && c > d) { x = '</p>'; }"
        let document = HTMLParser().parse(html: "<p>t</p><script>\(source)</script>")
        #expect(document.elements(named: "script")[0].textContent == source)
    }
}

/// Elements HTML5 does not keep in `<head>` end it and start the body, whether libxml2's HTML 4
/// tables know their names (`<div>`) or not (`<main>`, `<nav>`, custom elements), and what
/// follows them in libxml2's still-open head goes into that one body.
struct HeadEndingTests {
    @Test(arguments: ["div", "main", "nav", "section", "header", "footer", "article", "my-widget"])
    func anElementThatIsNotHeadContentStartsTheBody(name: String) throws {
        let document = HTMLParser().parse(
            html: "<!doctype html><html lang=\"en\"><title>T</title><meta charset=\"utf-8\"><\(name) id=\"first\"><h1>Page</h1></\(name)><script>s</script><p>text</p></html>"
        )
        let html = try #require(document.documentElement)
        #expect(html.children.map(\.localName) == ["head", "body"])
        #expect(document.head?.children.map(\.localName) == ["title", "meta"])
        #expect(document.body?.children.map(\.localName) == [name, "script", "p"])
        #expect(document.element(withID: "first")?.parent?.localName == "body")
        #expect(document.elements.filter { $0.localName == "body" }.count == 1)
    }

    @Test func anExplicitBodyAfterwardsIsTheSameBody() throws {
        let document = HTMLParser().parse(html: "<html><head><title>T</title><nav>n</nav></head><body><p>p</p></body></html>")
        #expect(document.elements.filter { $0.localName == "body" }.count == 1)
        #expect(document.body?.children.map(\.localName) == ["nav", "p"])
    }
}
