import CanopyHTML
import Testing

/// Tree construction differences between libxml2 2.9 and HTML5 that the manifest does not cover.
struct TreeRepairTests {
    /// The body's subtree as `tag(child child)`, text left out, for compact expectations.
    func shape(_ html: String) -> String {
        let document = HTMLParser().parse(html: html)
        func render(_ element: Element) -> String {
            let children = element.children.map(render)
            return children.isEmpty ? element.localName : element.localName + "(" + children.joined(separator: " ") + ")"
        }
        return document.body.map { $0.children.map(render).joined(separator: " ") } ?? ""
    }

    @Test func paragraphClosesBeforeHTML5BlockElements() {
        #expect(shape("<p>a<section>b</section>") == "p section")
        #expect(shape("<p>a<nav>b</nav><main>c</main>") == "p nav main")
        #expect(shape("<p><span>a<article>b</article></span>") == "p(span) article")
        #expect(shape("<p>a<figure>f</figure>") == "p figure")
        // Inline content stays inside the paragraph.
        #expect(shape("<p>a<span>b</span><em>c</em></p>") == "p(span em)")
        // A button is a scope boundary for <p>.
        #expect(shape("<p><button><div>x</div></button></p>") == "p(button(div))")
    }

    @Test func nestedButtonsAndLinksAreSplit() {
        #expect(shape("<button>a<button>b</button></button>") == "button button")
        #expect(shape("<button><span><button>x</button></span></button>") == "button(span) button")
        #expect(shape("<a href=1>x<a href=2>y</a></a>") == "a a")
        #expect(shape("<a href=x><div><a href=y>in</a></div></a>") == "a(div) a")
    }

    @Test func headingDirectlyInsideHeadingIsClosed() {
        #expect(shape("<h1>a<h2>b</h2></h1>") == "h1 h2")
        #expect(shape("<h1><span><h2>b</h2></span></h1>") == "h1(span(h2))")
    }

    @Test func listItemsCloseOpenItemsAcrossDivs() {
        #expect(shape("<ul><li>a<div><li>b</div></ul>") == "ul(li(div) li)")
        #expect(shape("<ul><li>a<ul><li>b</li></ul></li></ul>") == "ul(li(ul(li)))")
        #expect(shape("<dl><dt>a<dd>b<dt>c</dl>") == "dl(dt dd dt)")
    }

    @Test func templateContentIsNotInTheTree() {
        let document = HTMLParser().parse(html: "<template id=t><img id=inner src=x></template><img id=outer src=y>")
        #expect(document.element(withID: "inner") == nil)
        #expect(document.element(withID: "outer") != nil)
        #expect(document.element(withID: "t")?.children.isEmpty == true)
    }

    @Test func tablesGetImplicitBodiesAndRows() {
        #expect(shape("<table><tr><td>1</td></tr><tr><td>2</td></tr></table>") == "table(tbody(tr(td) tr(td)))")
        #expect(shape("<table><td>1</td><td>2</td></table>") == "table(tbody(tr(td td)))")
        #expect(shape("<table><caption>c</caption><tr><td>1</td></table>") == "table(caption tbody(tr(td)))")
        #expect(shape("<table><thead><th>h</th></thead><td>1</td></table>") == "table(thead(tr(th)) tbody(tr(td)))")
        #expect(shape("<table><col><col><tr><td>1</table>") == "table(colgroup(col col) tbody(tr(td)))")
        #expect(shape("<table><tbody><tr><td>1</td></tr></tbody><tr><td>2</td></tr></table>") == "table(tbody(tr(td)) tbody(tr(td)))")
    }

    @Test func strayTableContentIsFosterParented() {
        #expect(shape("<table><div>x</div><tr><td>1</table>") == "div table(tbody(tr(td)))")
        #expect(shape("<table><tr><div>d</div><td>1</table>") == "div table(tbody(tr(td)))")
        let document = HTMLParser().parse(html: "<table>text<tr><td>1</td></tr></table>")
        #expect(document.body?.childNodes.first?.text == "text")
    }

    @Test func formInsideTableIsEmptied() {
        #expect(shape("<table><form><tr><td><input></td></tr></form></table>") == "table(form tbody(tr(td(input))))")
    }

    @Test func selfClosingSyntaxOnlyClosesVoidAndForeignElements() {
        #expect(shape("<div><span/>after<b>x</b></div>") == "div(span(b))")
        #expect(shape("<div/><p>x</p>") == "div(p)")
        #expect(shape("<img src=x/><p>y</p>") == "img p")
        #expect(shape("<a href=/path/>x</a><p>y</p>") == "a p")
        #expect(shape("<svg><path d='M0'/><circle r=1 /></svg><p>z</p>") == "svg(path circle) p")
        // `/>` inside attribute values, comments and scripts is not markup.
        #expect(shape("<div title='a/>'><!-- <span/> --><script>x = '<span/>'</script></div>") == "div(script)")
    }

    @Test("void elements libxml2 2.9 does not know (wbr, source, track) take no content: what follows is their sibling")
    func html5VoidElementsTakeNoContent() {
        #expect(shape("<p>a<wbr><span>b</span><wbr><a href=x>c</a></p>") == "p(wbr span wbr a)")
        #expect(shape("<video><source src=a><track src=b><p>no video</p></video>") == "video(source track p)")
        #expect(shape("<ul><li>one<wbr><li>two</ul>") == "ul(li(wbr) li)")
        // HTML 4's, which libxml2 closes itself, as before; and not in SVG, where a name is just a name.
        #expect(shape("<p>a<br><img src=x><span>b</span></p>") == "p(br img span)")
        #expect(shape("<svg><track><circle r=1 /></track></svg>") == "svg(track(circle))")
    }

    @Test("text before the body goes into the body, not into a paragraph libxml2 implies for it")
    func textBeforeTheBodyIsNotWrappedInAParagraph() {
        #expect(shape("See [<a href=x>ACT rules</a>]") == "a")
        #expect(shape("<html lang=en>`<video><source src=a></video><p>Text</p></html>") == "video(source) p")
        #expect(shape("<style>.link { color: blue }</style>I love <span class=link>ACT</span>.") == "span")
        #expect(shape("&amp; then <b>bold</b>") == "b")
        // Paragraphs the page writes stay, with or without attributes, also where text precedes them.
        #expect(shape("<p>One</p><p class=x>Two</p><p/>") == "p p p")
        #expect(shape("Intro<p>One</p>") == "p")
        let document = HTMLParser().parse(html: "Hello <b>world</b>")
        #expect(document.body?.textContent == "Hello world")
    }

    @Test("table parts outside a table are dropped as HTML5 drops their tags, their content kept; inside one they stay")
    func tablePartsOutsideATableAreIgnored() {
        #expect(shape("<div><tr><th>Column A</th></tr></div>") == "div")
        #expect(HTMLParser().parse(html: "<div><tr><th>Column A</th></tr></div>").body?.textContent == "Column A")
        #expect(shape("<section><thead><tr><td><b>x</b></td></tr></thead></section>") == "section(b)")
        #expect(shape("<table><tr><td>a</td></tr></table>") == "table(tbody(tr(td)))")
        // In SVG a `tr` is an SVG element, kept; in a MathML text element HTML rules apply.
        #expect(shape("<svg><tr><circle r=1 /></tr></svg><math><mi><td>x</td></mi></math>") == "svg(tr(circle)) math(mi)")
        #expect(shape("<table><tr><td><div><span>a</span></div></td></tr></table>") == "table(tbody(tr(td(div(span)))))")
        #expect(shape("<table><caption>c</caption><colgroup><col></colgroup><thead><tr><th>h</th></tr></thead></table>")
            == "table(caption colgroup(col) thead(tr(th)))")
    }

    @Test func foreignElementsGetNamespacesAndCamelCase() {
        let document = HTMLParser().parse(html: "<svg viewBox='0 0 1 1'><foreignObject><p id=p>x</p></foreignObject><clipPath id='c'/></svg><math><mi>x</mi></math>")
        let svg = try! #require(document.body?.firstElementChild)
        #expect(svg.namespace == .svg)
        #expect(svg.attribute("viewBox") == "0 0 1 1")
        #expect(svg.firstElementChild?.localName == "foreignObject")
        #expect(document.element(withID: "p")?.namespace == .html)
        #expect(document.element(withID: "c")?.localName == "clipPath")
        #expect(document.body?.lastElementChild?.namespace == .mathml)
    }

    @Test func documentAlwaysHasHtmlHeadAndBody() {
        for html in ["", "<!-- only a comment -->", "plain text", "<title>t</title>"] {
            let document = HTMLParser().parse(html: html)
            #expect(document.documentElement?.localName == "html")
            #expect(document.head != nil, "no head for \(html)")
            #expect(document.body != nil, "no body for \(html)")
        }
    }

    @Test func deepNestingDoesNotCrash() {
        let depth = 100_000
        let html = String(repeating: "<div>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        let document = HTMLParser().parse(html: html)
        #expect(document.elementCount > 3)
        #expect(document.body?.textContent.contains("deep") == true || document.elementCount < depth)
        _ = document.body?.outerHTML
    }
}
