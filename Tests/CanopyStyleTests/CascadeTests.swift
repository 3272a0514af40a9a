import CanopyHTML
import CanopyStyle
import Testing

/// Sheets served from memory, as a crawl's loader serves them from its cache.
struct MemoryStyleSheets: StyleSheetLoading {
    var sheets: [String: String]

    func load(_ href: String, relativeTo base: String?) -> StyleSheetLoad {
        guard let text = sheets[href] else { return .failed(url: href, reason: "HTTP 404") }
        return .loaded(url: href, sheet: ParsedStyleSheet(parsing: text))
    }

    func resolve(_ href: String, relativeTo base: String?) -> String { href }
}

func styles(_ html: String, viewport: Viewport = .desktop, sheets: [String: String] = [:]) -> ComputedStyles {
    let document = HTMLParser().parse(html: html)
    let index = StyleRuleIndex(
        references: StyleSheetReference.references(in: document), pageURL: nil, viewport: viewport,
        loader: MemoryStyleSheets(sheets: sheets)
    )
    return ComputedStyles(document: document, index: index, viewport: viewport)
}

extension ComputedStyles {
    func value(_ property: CSSProperty, of selector: String) throws -> String {
        let element = try #require(document.querySelector(try SelectorList(selector)))
        return value(property, of: element)
    }
}

@Suite("Cascade")
struct CascadeTests {
    /// What hides an element, kept per style node, is what its three computed values say, for
    /// every keyword that hides and every way of setting it (sheet, style attribute, inheritance,
    /// `!important`, letter case), also when elements sharing a node are asked in another order.
    @Test func concealmentIsWhatTheComputedValuesSay() throws {
        let page = styles("""
        <style>.n { display: NONE } .c { content-visibility: hidden } .h { visibility: hidden } .k { visibility: Collapse }
        .v { visibility: visible !important } .a { content-visibility: auto }</style>
        <div class=h><p>inherits hidden</p><p class=v>shown again</p></div><p class=k>collapsed</p><p class=n>gone</p>
        <section class=c><p class=a>auto</p></section><p style="display:none">inline</p><p style="visibility:hidden" class=v>important wins</p>
        <span>plain</span><div class="n c k">all three</div>
        """)
        let elements = Array(page.document.elements)
        for element in elements.reversed() + elements {
            let concealment = page.concealment(of: element)
            #expect(concealment.contains(.displayNone) == (page.lowercasedValue(.display, of: element) == "none"), "\(element)")
            #expect(concealment.contains(.contentSkipped) == (page.lowercasedValue(.contentVisibility, of: element) == "hidden"), "\(element)")
            let visibility = page.lowercasedValue(.visibility, of: element)
            #expect(concealment.contains(.visibilityHidden) == (visibility == "hidden" || visibility == "collapse"), "\(element)")
        }
        #expect(elements.filter { page.concealment(of: $0).contains(.visibilityHidden) }.count == 4)
        #expect(elements.filter { page.concealment(of: $0).contains(.displayNone) }.count == 3)
        #expect(elements.filter { page.concealment(of: $0).contains(.contentSkipped) }.count == 2)
    }

    @Test("specificity beats order, order breaks ties, !important beats specificity")
    func priority() throws {
        let page = styles("""
        <style>
        #a { color: red }  p { color: blue }
        p.x { color: green } p.y { color: olive }
        p { color: black !important } .z { color: navy }
        </style>
        <p id=a>a</p><p class="x y">b</p><p class=z>c</p>
        """)
        #expect(try page.value(.color, of: "#a") == "black")
        #expect(try page.value(.color, of: ".x") == "black")
        let plain = styles("<style>#a { color: red } p { color: blue } p.x { color: green } p.y { color: olive }</style><p id=a>a</p><p class='x y'>b</p>")
        #expect(try plain.value(.color, of: "#a") == "red")
        #expect(try plain.value(.color, of: ".x") == "olive")
    }

    @Test("inline style beats rules; an important rule beats inline style; inline important beats all")
    func inline() throws {
        let page = styles("""
        <style>p { display: block } .i { display: none !important } .j { display: flex !important }</style>
        <p id=a style="display: grid">a</p><p id=b class=i style="display: grid">b</p>
        <p id=c class=j style="display: inline !important">c</p>
        """)
        #expect(try page.value(.display, of: "#a") == "grid")
        #expect(try page.value(.display, of: "#b") == "none")
        #expect(try page.value(.display, of: "#c") == "inline")
    }

    @Test("media queries are evaluated for the viewport")
    func media() throws {
        let html = """
        <style>
        .menu { display: none }
        @media (min-width: 800px) { .menu { display: block } }
        @media screen and (max-width: 799.98px) { .burger { display: block } }
        @media print { .menu { color: red } }
        @media (400px <= width < 800px) { .menu { color: green } }
        </style><nav class=menu></nav><div class=burger></div>
        """
        let desktop = styles(html)
        #expect(try desktop.value(.display, of: ".menu") == "block")
        #expect(try desktop.value(.display, of: ".burger") == "inline")
        #expect(try desktop.value(.color, of: ".menu") == "canvastext")
        let phone = styles(html, viewport: Viewport(width: 600, height: 900))
        #expect(try phone.value(.display, of: ".menu") == "none")
        #expect(try phone.value(.display, of: ".burger") == "block")
        #expect(try phone.value(.color, of: ".menu") == "green")
    }

    @Test("layers: later layers win, unlayered wins, important reverses")
    func layers() throws {
        let page = styles("""
        <style>
        @layer base, theme;
        @layer theme { #a { color: red } p { display: none !important } }
        @layer base { #a { color: blue } p { display: block !important } }
        p { color: green }
        </style><p id=a>x</p><div id=b></div>
        """)
        #expect(try page.value(.color, of: "#a") == "green")
        #expect(try page.value(.display, of: "#a") == "block")
        let layered = styles("<style>@layer a { #x { color: red } } @layer b { div { color: blue } }</style><div id=x></div>")
        #expect(try layered.value(.color, of: "#x") == "blue")
    }

    @Test("inheritance, inherit/initial/unset, currentcolor")
    func inheritance() throws {
        let page = styles("""
        <style>
        body { color: rebeccapurple; display: flex; visibility: hidden }
        .i { display: inherit } .n { color: initial } .u { visibility: unset } .v { visibility: visible }
        .c { color: currentcolor }
        </style><body><p id=p><span class=i></span><span class=n></span><span class=u></span><span class=v></span><b class=c></b></p></body>
        """)
        #expect(try page.value(.color, of: "#p") == "rebeccapurple")
        #expect(try page.value(.display, of: "#p") == "block" || page.value(.display, of: "#p") == "inline")
        #expect(try page.value(.display, of: ".i") == page.value(.display, of: "#p"))
        #expect(try page.value(.color, of: ".n") == "canvastext")
        #expect(try page.value(.visibility, of: ".u") == "hidden")
        #expect(try page.value(.visibility, of: ".v") == "visible")
        #expect(try page.value(.color, of: ".c") == "rebeccapurple")
    }

    @Test("custom properties with fallbacks, in shorthands, and cycles")
    func variables() throws {
        let page = styles("""
        <style>
        :root { --fg: #123456; --bg: var(--missing, white); --loop: var(--loop) }
        .a { color: var(--fg) } .b { background: var(--bg) } .c { color: var(--nope, teal) }
        .d { color: red; color: var(--loop) } .e { --fg: orange } 
        </style><p class=a>a</p><p class=b>b</p><p class=c>c</p><p class=d>d</p><div class=e><p class=a id=inner>e</p></div>
        """)
        #expect(try page.value(.color, of: ".a") == "#123456")
        #expect(try page.value(.backgroundColor, of: ".b") == "white")
        #expect(try page.value(.color, of: ".c") == "teal")
        // Invalid at computed-value time: behaves as unset (inherited), not as the earlier red.
        #expect(try page.value(.color, of: ".d") == "canvastext")
        #expect(try page.value(.color, of: "#inner") == "orange")
    }

    @Test("a broken rule is dropped, not the sheet")
    func recovery() throws {
        let page = styles("""
        <style>
        p { color: red; } p:unknown-thing { color: blue } p { display: none; color; font-weight: } 
        @media screen and (width >= ) { p { color: blue } } p {} .ok { color: green; ;; font-style: italic }
        p { color: "unterminated
        ; font-size: 12px }
        </style><p class=ok>x</p><p class=after>y</p>
        """)
        #expect(try page.value(.color, of: ".ok") == "green")
        #expect(try page.value(.display, of: ".ok") == "none")
        #expect(try page.value(.fontStyle, of: ".ok") == "italic")
        #expect(try page.value(.fontSize, of: ".ok") == "12px")
    }

    @Test("dynamic pseudo-classes never match and pseudo-elements style their part only")
    func pseudo() throws {
        let page = styles("""
        <style>a:hover { color: red } a:not(:focus) { font-weight: bold } p::before { content: "x"; background-color: red }
        p:after { display: none }</style><a href=#>x</a><p>y</p>
        """)
        #expect(try page.value(.color, of: "a") == "#0000ee")
        #expect(try page.value(.fontWeight, of: "a") == "bold")
        #expect(try page.value(.display, of: "p") == "inline")
        let paragraph = try #require(page.document.querySelector(try SelectorList("p")))
        #expect(page.pseudoElementValue(.content, of: paragraph, pseudo: "before") == "\"x\"")
        #expect(page.pseudoElementValue(.display, of: paragraph, pseudo: "after") == "none")
    }

    @Test("linked sheets, imports with media and layers, failures recorded")
    func linked() throws {
        let page = styles(
            """
            <link rel=stylesheet href=main.css><link rel="alternate stylesheet" href=alt.css>
            <link rel=stylesheet href=print.css media=print><link rel=stylesheet href=gone.css>
            <p class=a>a</p><p class=b>b</p>
            """,
            sheets: [
                "main.css": "@import url(base.css) layer(base); @import 'narrow.css' (max-width: 600px); .a { color: green }",
                "base.css": ".a { color: red } .b { color: maroon } @import 'main.css';",
                "narrow.css": ".b { display: none }",
                "alt.css": ".a { display: none }",
                "print.css": ".a { display: none }",
            ]
        )
        #expect(try page.value(.color, of: ".a") == "green")
        #expect(try page.value(.color, of: ".b") == "maroon")
        #expect(try page.value(.display, of: ".b") == "inline")
        #expect(page.index.failures.map(\.url) == ["gone.css"])
    }

    @Test("nesting")
    func nesting() throws {
        let page = styles("""
        <style>.card { color: navy; & .title { color: teal } &:hover { color: red } .body & { display: none }
        @media (min-width: 100px) { display: grid } }</style>
        <div class=card><h2 class=title>t</h2></div><div class=body><div class=card id=inner></div></div>
        """)
        #expect(try page.value(.color, of: ".title") == "teal")
        #expect(try page.value(.color, of: ".card") == "navy")
        #expect(try page.value(.display, of: "#inner") == "none")
        #expect(try page.value(.display, of: ".card") == "grid")
    }

    @Test("shorthands expand to the longhands the rules read")
    func shorthands() throws {
        let page = styles("""
        <style>
        .a { background: url(x.png) no-repeat #fff; font: italic bold 12px/30px Georgia, serif; margin: 0 -10px }
        .b { border: 1px solid red; text-decoration: underline dotted blue; overflow: hidden auto }
        .c { background: linear-gradient(red, blue), #000; padding: 1px 2px 3px }
        </style><p class=a>a</p><p class=b>b</p><p class=c>c</p><ul><li>d</li></ul>
        """)
        #expect(try page.value(.backgroundColor, of: ".a") == "#fff")
        #expect(try page.value(.backgroundImage, of: ".a") == "url(x.png)")
        #expect(try page.value(.fontSize, of: ".a") == "12px")
        #expect(try page.value(.fontWeight, of: ".a") == "bold")
        #expect(try page.value(.marginLeft, of: ".a") == "-10px")
        #expect(try page.value(.borderBottomStyle, of: ".b") == "solid")
        #expect(try page.value(.textDecorationLine, of: ".b") == "underline")
        #expect(try page.value(.overflowY, of: ".b") == "auto")
        #expect(try page.value(.backgroundImage, of: ".c") == "linear-gradient(red, blue), none")
        #expect(try page.value(.backgroundColor, of: ".c") == "#000")
        #expect(try page.value(.paddingLeft, of: ".c") == "2px")
        #expect(try page.value(.paddingBottom, of: ".c") == "3px")
        // Lists keep the browser's indent, which a scrolling list's padding is made of.
        #expect(try page.value(.paddingLeft, of: "ul") == "40px")
    }

    @Test("@supports")
    func supports() throws {
        let page = styles("""
        <style>@supports (display: grid) and (not (-moz-appearance: none)) { p { color: green } }
        @supports (-moz-appearance: none) { p { display: none } } @supports selector(:has(a)) { p { font-style: italic } }</style><p>x</p>
        """)
        #expect(try page.value(.color, of: "p") == "green")
        #expect(try page.value(.display, of: "p") == "inline")
        #expect(try page.value(.fontStyle, of: "p") == "italic")
    }
}
