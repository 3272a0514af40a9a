import CanopyHTML
import CanopyRules
import Testing

/// The page's cached queries give what the document's own queries give.
struct PageContextCacheTests {
    let html = """
        <header>Top</header><main><h1 aria-level=2>A</h1><section><h2>B</h2><div role=heading aria-level=1>C</div>
        <iframe title=x></iframe></section></main><footer role=contentinfo><h1>D</h1></footer>
        <ul><li>1</li></ul><ol><li>2</li></ol><svg><li/><LI/><foreignObject><p>in svg</p></foreignObject><feBlend/></svg>
        <math><mi>x</mi><li/></math><P>upper case in HTML</P>
        """
    let selectors = [
        "h1, h2, [role=heading]", "iframe, frame", #"main:not([role]), [role="main"]"#,
        #":is(h1, h2, h3):not([role])[aria-level="1"], [role=heading][aria-level="1"]"#, "*", "section h2",
        // Bare type selectors, whose candidates are taken without a test: foreign elements, case.
        "li", "ul, ol", "p", "LI", "foreignObject", "foreignobject", "feblend", "feBlend", "mi", "li, mi, p",
    ]

    @Test func pageQueriesMatchDocumentQueries() throws {
        let document = HTMLParser().parse(html: html)
        let page = PageContext(document: document)
        for text in selectors {
            let selector = try SelectorList(text)
            #expect(page.elements(matching: selector) == document.querySelectorAll(selector), "\(text)")
            #expect(page.elements(matching: selector) == document.querySelectorAll(selector), "\(text), cached")
            for element in document.elements {
                #expect(page.elements(matching: selector, inside: element) == element.querySelectorAll(selector), "\(text) in \(element)")
            }
        }
    }

    @Test func memoComputesOncePerKeyAndType() {
        let page = PageContext(document: HTMLParser().parse(html: html))
        var runs = 0
        for _ in 0..<3 { #expect(page.memo("count") { runs += 1; return 7 } == 7) }
        #expect(runs == 1)
        // Another key in between, then the first again: still not recomputed.
        #expect(page.memo("other") { "x" } == "x")
        #expect(page.memo("count") { runs += 1; return 0 } == 7)
        #expect(runs == 1)
    }
}
