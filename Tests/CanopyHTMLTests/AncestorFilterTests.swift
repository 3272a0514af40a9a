import CanopyHTML
import Testing

@Suite("AncestorFilter: a quick 'cannot match' for selectors that need certain ancestors")
struct AncestorFilterTests {
    static let page = """
        <!doctype html><html><body class="Docs page"><div id="Main" class="layout wide"><nav class="sidebar"><ul><li><a href="/">Home</a></li></ul></nav>
        <article><section class="intro"><p>Text <em>here</em> and <code class="inline">code</code></p></section>
        <table class="summary"><tr><td><a href="#x">x</a></td></tr></table></article></div><svg><foreignObject><p>in svg</p></foreignObject></svg></body></html>
        """

    static let selectors = [
        ".sidebar a", "nav > ul a", "#Main a", "#main a", ".docs p", ".DOCS em", "body.page .intro code.inline", "article p em",
        "div.layout.wide table td a", "section + table a", "ul li + li a", ".summary a", "html body div article section p",
        ":is(nav, article) a", "nav :not(.x) a", "foreignObject p", "foreignobject p", "svg p", "div > p", ".nothing-here a",
        "li:first-child > a", "table.summary > tbody > tr > td > a",
    ]

    @Test("never says no where the selector matches (quirks-mode case folding included)")
    func soundOnEverySelectorAndElement() throws {
        let document = HTMLParser().parse(html: Self.page)
        let filters = AncestorFilter.filters(for: document)
        for text in Self.selectors {
            for selector in try StyleSelector.parseList(text) {
                for element in document.elements where selector.matches(element) {
                    #expect(filters[element.position].mayContain(selector.ancestorRequirements), "\(text) on \(element)")
                }
            }
        }
    }

    @Test("made on demand, an element's filter is the one the pass over the page makes, asked in any order")
    func onDemandAgreesWithThePass() {
        let document = HTMLParser().parse(html: Self.page)
        let filters = AncestorFilter.filters(for: document)
        for order in [Array(document.elements), Array(document.elements).reversed(), Array(document.elements).shuffled()] {
            let onDemand = AncestorFilter.OnDemand(document: document)
            for element in order { #expect(onDemand.filter(of: element) == filters[element.position], "\(element)") }
        }
    }

    @Test("rejects a selector whose ancestor class, id or element is absent")
    func rejectsMissingAncestors() throws {
        let document = HTMLParser().parse(html: Self.page)
        let filters = AncestorFilter.filters(for: document)
        let link = try #require(document.elements.first { $0.localName == "a" })
        for text in [".nothing-here a", "#elsewhere a", "blockquote a", "article a"] {
            let selector = try #require(try StyleSelector.parseList(text).first)
            #expect(!filters[link.position].mayContain(selector.ancestorRequirements), "\(text) should be ruled out for the sidebar link")
        }
        let kept = try #require(try StyleSelector.parseList(".sidebar a").first)
        #expect(filters[link.position].mayContain(kept.ancestorRequirements))
    }
}
