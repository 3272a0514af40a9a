import CanopyHTML
import CanopyStyle
import Testing

/// The pages of a crawl that share a rule index share style nodes: a page's cascade reuses what
/// earlier pages worked out. Each page's values must still be those it has alone, whatever page
/// came before, and two pages audited at once must not write to the same nodes.
@Suite("Style sharing across pages")
struct CrossPageStyleSharingTests {
    static let sheet = """
    <link rel=stylesheet href=site.css>
    """
    static let css = """
    :root { --accent: teal } nav a { color: var(--accent) } .note { background-color: #eee; color: #555 }
    li:first-child { font-weight: bold } p + p { color: red } [data-theme=dark] p { color: white; background-color: black }
    a[href$=".pdf"] { text-decoration-line: none } .card { --accent: navy; font-size: 20px } .card p { font-size: 1.5em }
    div:empty { display: none } section:has(> img) { visibility: hidden }
    """
    /// Pages that share the sheet and differ in what sits around alike elements.
    static let pages = [
        "<nav><a href=a>a</a><a href=b.pdf>b</a></nav><p class=note>one</p><p>two</p><ul><li>1</li><li>2</li></ul>",
        "<div data-theme=dark><p>dark</p><p>second</p></div><nav><a href=c.pdf>c</a></nav><div></div><div>x</div>",
        "<div class=card><p>big</p><nav><a href=d>d</a></nav></div><p style='color: green'>inline</p><section><img alt=''></section>",
        "<ul><li>only</li></ul><p>alone</p><p class=note>after</p><div class=card><p class=note>both</p></div><section><p>s</p></section>",
    ].map { sheet + "<body>" + $0 }

    static let properties: [CSSProperty] = [.color, .backgroundColor, .display, .visibility, .fontSize, .fontWeight, .textDecorationLine]

    static func environment() -> StyleEnvironment {
        StyleEnvironment(loader: MemoryStyleSheets(sheets: ["site.css": css]))
    }

    @Test("each page's values are those it has alone, in any order of pages", arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]])
    func sharedEqualsAlone(order: [Int]) throws {
        let environment = Self.environment()
        for page in order {
            let html = Self.pages[page]
            let shared = environment.styles(for: HTMLParser().parse(html: html))
            let alone = styles(html, sheets: ["site.css": Self.css])
            for position in 0..<shared.document.elementCount {
                let element = shared.document.element(atPosition: position)
                let same = alone.document.element(atPosition: position)
                for property in Self.properties {
                    #expect(
                        shared.value(property, of: element) == alone.value(property, of: same),
                        "page \(page): \(property) of <\(element.localName)> at \(position)"
                    )
                }
                #expect(shared.color(of: element) == alone.color(of: same))
                #expect(shared.fontSize(of: element) == alone.fontSize(of: same))
                #expect(shared.mayPaintBackground(element) == alone.mayPaintBackground(same))
            }
        }
    }

    /// The number of the node of `selector`'s element in a page built for the purpose.
    private func nodeNumber(_ styles: ComputedStyles, _ selector: String) throws -> Int {
        styles.styleNodeNumber(of: try #require(styles.document.querySelector(try SelectorList(selector))))
    }

    @Test("a later page reuses the nodes of an earlier one")
    func laterPageReuses() throws {
        let environment = Self.environment()
        var first: ComputedStyles? = environment.styles(for: HTMLParser().parse(html: Self.sheet + "<body><p class=note>x</p>"))
        let noteNode = try nodeNumber(first!, "p.note")
        first = nil  // released: its nodes go back to the environment
        // New elements are asked first, so a table of its own would number the note differently.
        let second = environment.styles(for: HTMLParser().parse(html: Self.sheet + "<body><nav><a>a</a></nav><ul><li>1</li></ul><p class=note>y</p>"))
        #expect(try nodeNumber(second, "nav a") > noteNode)
        #expect(try nodeNumber(second, "p.note") == noteNode)
    }

    @Test("pages audited at once do not share a table")
    func concurrentPagesApart() throws {
        let environment = Self.environment()
        let html = Self.sheet + "<body><p class=note>x</p>"
        let first = environment.styles(for: HTMLParser().parse(html: html))
        _ = try nodeNumber(first, "p.note")
        let second = environment.styles(for: HTMLParser().parse(html: Self.sheet + "<body><nav><a>a</a></nav><p class=note>y</p>"))
        // Numbered from the start (html, body, nav, a): its table is a new one, while the first
        // page still holds its own.
        #expect(try nodeNumber(second, "nav a") == 3)
        withExtendedLifetime(first) {}
    }

    @Test("a page with other sheets gets other nodes")
    func otherSheetsOtherNodes() throws {
        let environment = Self.environment()
        var first: ComputedStyles? = environment.styles(for: HTMLParser().parse(html: Self.sheet + "<body><p class=note>x</p>"))
        _ = try nodeNumber(first!, "p.note")
        first = nil
        let other = environment.styles(for: HTMLParser().parse(html: "<style>p { color: blue }</style><body><div><span>s</span></div><p class=note>y</p>"))
        #expect(try nodeNumber(other, "div span") == 3)
        #expect(try other.value(.color, of: "p.note") == "blue")
    }
}
