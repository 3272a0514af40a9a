import CanopyHTML
import Testing

struct DocumentTests {
    let document = HTMLParser().parse(html: """
        <!DOCTYPE html>
        <html lang="en">
        <head><title> Tea &amp; cake </title></head>
        <body>
          <main id="main" class="page  wide">
            <h1>Menu</h1>
            <p id="intro">Fresh <b>tea</b> daily<!-- note --></p>
            <img id="logo" src="logo.png" alt="Tea &quot;Garden&quot;">
            <p id="empty"><!-- only a comment --></p>
            <input id="box" disabled>
          </main>
        </body>
        </html>
        """)

    @Test func treeNavigation() throws {
        let main = try #require(document.element(withID: "main"))
        #expect(main.parent?.localName == "body")
        #expect(main.children.map(\.localName) == ["h1", "p", "img", "p", "input"])
        #expect(main.firstElementChild?.localName == "h1")
        #expect(main.lastElementChild?.id == "box")
        let intro = try #require(document.element(withID: "intro"))
        #expect(intro.previousElementSibling?.localName == "h1")
        #expect(intro.nextElementSibling?.id == "logo")
        #expect(intro.ancestors.map(\.localName) == ["main", "body", "html"])
        #expect(intro.isDescendant(of: main))
        #expect(!main.isDescendant(of: intro))
        #expect(main.descendants.map(\.localName) == ["h1", "p", "b", "img", "p", "input"])
    }

    @Test func documentOrderPositions() {
        let positions = document.elements.map(\.position)
        #expect(positions == Array(0..<document.elementCount))
        #expect(document.elements.first?.localName == "html")
    }

    @Test func attributesAndText() throws {
        let main = try #require(document.element(withID: "main"))
        #expect(main.classNames == ["page", "wide"])
        #expect(document.element(withID: "logo")?.attribute("alt") == "Tea \"Garden\"")
        // libxml2 gives a bare boolean attribute its own name as value; presence is what counts.
        #expect(document.element(withID: "box")?.hasAttribute("disabled") == true)
        #expect(document.element(withID: "box")?.attribute("missing") == nil)
        #expect(document.element(withID: "intro")?.textContent == "Fresh tea daily")
        #expect(document.title == " Tea & cake ")
        #expect(document.element(withID: "empty")?.hasNoContent == true)
        #expect(document.element(withID: "intro")?.hasNoContent == false)
    }

    @Test func lineNumbers() {
        #expect(document.element(withID: "main")?.line == 5)
        #expect(document.element(withID: "logo")?.line == 8)
    }

    @Test func duplicateIDsAreAllIndexed() {
        let page = HTMLParser().parse(html: "<p id=a>1</p><p id=a>2</p>")
        #expect(page.elements(withID: "a").count == 2)
        #expect(page.element(withID: "a")?.textContent == "1")
    }

    @Test func outerHTMLEscapesAndSnippetsAreShort() throws {
        let logo = try #require(document.element(withID: "logo"))
        #expect(logo.outerHTML == #"<img id="logo" src="logo.png" alt="Tea &quot;Garden&quot;">"#)
        let intro = try #require(document.element(withID: "intro"))
        #expect(intro.outerHTML == #"<p id="intro">Fresh <b>tea</b> daily<!-- note --></p>"#)
        let long = HTMLParser().parse(html: "<div id=d class=x>" + String(repeating: "<span>word</span>", count: 100) + "</div>")
        let snippet = try #require(long.element(withID: "d")).snippet(maxLength: 300)
        #expect(snippet == #"<div id="d" class="x">"#)
        let huge = HTMLParser().parse(html: "<div id=h title='" + String(repeating: "x", count: 1000) + "'></div>")
        let cut = try #require(huge.element(withID: "h")).snippet(maxLength: 80)
        #expect(cut.count == 80)
        #expect(cut.hasSuffix("…"))
    }

    @Test func elementCountByIDAgreesWithTheList() {
        let page = HTMLParser().parse(html: "<p id=one>a</p><p id=twice>b</p><i id=twice>c</i><b id=\"\">d</b>")
        for id in ["one", "twice", "absent", ""] {
            #expect(page.elementCount(withID: id) == page.elements(withID: id).count, "\(id)")
        }
        #expect(page.elementCount(withID: "twice") == 2)
    }
}
