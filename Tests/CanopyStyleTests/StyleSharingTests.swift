import CanopyHTML
import CanopyStyle
import Testing

/// Elements share one matched style when nothing a selector reads tells them apart. These pages
/// are built so that wrong sharing would show: each element's values, asked of a cascade where
/// every element before it was asked first (and so could have lent it a style), must equal those
/// of a fresh cascade asked about that element alone.
@Suite("Style sharing")
struct StyleSharingTests {
    static let properties: [CSSProperty] = [.color, .backgroundColor, .display, .fontSize, .fontWeight, .textDecorationLine, .visibility]

    static let pages: [(name: String, html: String)] = [
        ("position among siblings", """
        <style>li:first-child { color: red } li:last-child { color: blue } li:nth-child(2n) { font-weight: bold }
        li:only-child { display: none }</style>
        <ul><li>a</li><li>b</li><li>c</li><li>d</li></ul><ol><li>only</li></ol>
        """),
        ("sibling combinators", """
        <style>p + p { color: red } h2 ~ p { background-color: yellow } input:checked + label { color: green }</style>
        <div><p>a</p><p>b</p><h2>h</h2><p>c</p></div>
        <input type=checkbox checked><label>on</label><input type=checkbox><label>off</label>
        """),
        ("ids, classes and attributes some selector names", """
        <style>#main span { color: red } .warn span { color: orange } a[href$=".pdf"] { color: green }
        a[href^="https:" i] { text-decoration-line: none } [data-x] { font-size: 30px } [lang|=en] b { font-weight: 100 }</style>
        <div id=main><span>1</span></div><div id=other><span>2</span></div>
        <div class="x warn"><span>3</span></div><div class=x><span>4</span></div>
        <a href=a.pdf>pdf</a><a href=a.html>html</a><a href=HTTPS://x>secure</a><a>no href</a>
        <p data-x>x</p><p>no x</p><p lang=en-GB><b>b</b></p><p lang=fr><b>b</b></p>
        """),
        ("class lists split only on HTML whitespace", """
        <style>.a span { color: red }</style>
        <div class="a\u{0B}b"><span>vertical tab: one class</span></div><div class="a b"><span>two classes</span></div>
        """),
        ("style attributes and inheritance through them", """
        <div style="color: red"><span>a</span></div><div style="color: blue"><span>b</span></div><div><span>c</span></div>
        """),
        ("children and emptiness", """
        <style>div:empty { background-color: red } section:has(> img) { color: purple } p:not(:first-child) { color: gray }</style>
        <div></div><div>text</div><section><img alt=""></section><section><p>x</p><p>y</p></section>
        """),
        ("disabled fields and fieldsets", """
        <style>:disabled { color: gray } :enabled { color: black } option:checked { font-weight: bold }</style>
        <fieldset disabled><legend><input></legend><input></fieldset><input disabled><input>
        <select><option>a</option><option selected>b</option></select>
        """),
        ("links and custom properties", """
        <style>:root { --accent: teal } .card { --accent: navy } a:any-link { color: var(--accent) }</style>
        <a href=x>1</a><div class=card><a href=y>2</a><a>3</a></div>
        """),
    ]

    @Test("each element's values are those it has alone", arguments: pages.map(\.name))
    func sharedEqualsAlone(name: String) throws {
        let html = try #require(Self.pages.first { $0.name == name }).html
        let shared = styles(html)
        let count = shared.document.elementCount
        for position in 0..<count {
            let element = shared.document.element(atPosition: position)
            let alone = styles(html)
            let same = alone.document.element(atPosition: position)
            for property in Self.properties {
                #expect(
                    shared.value(property, of: element) == alone.value(property, of: same),
                    "\(property) of <\(element.localName)> at \(position)"
                )
            }
        }
    }

    @Test("what sharing must keep apart stays apart")
    func expectedValues() throws {
        let page = styles(Self.pages[0].html + Self.pages[2].html)
        #expect(try page.value(.color, of: "ul li:first-child") == "red")
        #expect(try page.value(.color, of: "ul li:nth-child(2)") != "red")
        #expect(try page.value(.fontWeight, of: "ul li:nth-child(2)") == "bold")
        #expect(try page.value(.display, of: "ol li") == "none")
        #expect(try page.value(.color, of: "#main span") == "red")
        #expect(try page.value(.color, of: "#other span") != "red")
        #expect(try page.value(.color, of: "[href='a.pdf']") == "green")
        #expect(try page.value(.color, of: "[href='a.html']") != "green")
        #expect(try page.value(.fontWeight, of: "[lang=en-GB] b") == "100")
        #expect(try page.value(.fontWeight, of: "[lang=fr] b") != "100")
    }
}
