import CanopyHTML
import CanopyTestSupport
import Foundation
import Testing

// MARK: Helpers shared by the selector and target selector tests

/// Parses a page for selector tests.
func selectorTestDocument(_ html: String) -> Document {
    HTMLParser().parse(html: html)
}

/// The `id`s of the elements `selector` matches in document order ("?" for elements without one).
func matchedIDs(_ document: Document, _ selector: String) throws -> [String] {
    try document.querySelectorAll(SelectorList(selector)).map { $0.id ?? "?" }
}

@Suite("Selector matching")
struct SelectorTests {
    // MARK: Type, universal, id, class

    static let basicPage = """
        <!doctype html>
        <html><head><title>t</title></head><body>
        <div id="d1" class="a b">
          <p id="p1" class="a">one</p>
          <P id="p2" CLASS="B">two</P>
          <span id="s1" class="  a\tc\nd  ">x</span>
        </div>
        <section id="Main"><p id="p3" class="A">three</p></section>
        </body></html>
        """

    @Test func typeSelectorsMatchHTMLElementsCaseInsensitively() throws {
        let document = selectorTestDocument(Self.basicPage)
        #expect(try matchedIDs(document, "p") == ["p1", "p2", "p3"])
        #expect(try matchedIDs(document, "P") == ["p1", "p2", "p3"])
        #expect(try matchedIDs(document, "SeCtIoN") == ["Main"])
        #expect(try matchedIDs(document, "article").isEmpty)
    }

    @Test func universalSelectorMatchesEveryElement() throws {
        let document = selectorTestDocument(Self.basicPage)
        #expect(try document.querySelectorAll(SelectorList("*")).count == document.elementCount)
        #expect(try matchedIDs(document, "div > *") == ["p1", "p2", "s1"])
        #expect(try matchedIDs(document, "*.a") == ["d1", "p1", "s1"])
    }

    @Test func idSelectorsAreCaseSensitive() throws {
        let document = selectorTestDocument(Self.basicPage)
        #expect(try matchedIDs(document, "#Main") == ["Main"])
        #expect(try matchedIDs(document, "#main").isEmpty)
        #expect(try matchedIDs(document, "p#p2") == ["p2"])
        #expect(try matchedIDs(document, "div#p2").isEmpty)
        #expect(try matchedIDs(document, "#p1#p1") == ["p1"])
        #expect(try matchedIDs(document, "#p1#p2").isEmpty)
    }

    @Test func classSelectorsAreCaseSensitiveAndSplitOnWhitespace() throws {
        let document = selectorTestDocument(Self.basicPage)
        #expect(try matchedIDs(document, ".a") == ["d1", "p1", "s1"])
        #expect(try matchedIDs(document, ".A") == ["p3"])
        #expect(try matchedIDs(document, ".B") == ["p2"])
        #expect(try matchedIDs(document, ".a.b") == ["d1"])
        #expect(try matchedIDs(document, ".c.d.a") == ["s1"])
        #expect(try matchedIDs(document, ".b.c").isEmpty)
        // Substrings of a class name are not class names.
        #expect(try matchedIDs(document, ".d1").isEmpty)
    }

    // MARK: Attributes

    static let attributePage = """
        <html><body>
        <a id="a1" href="https://example.com/docs/guide.pdf" hreflang="en-US" title="Main Docs" rel="NoFollow external">x</a>
        <a id="a2" href="/local" lang="en" title="main docs">y</a>
        <a id="a3" href="" lang="EN-gb" data-empty="">z</a>
        <input id="i1" type="CHECKBOX" Data-Mixed="Value">
        <input id="i2" type="text" value="a&quot;b">
        <div id="d1" data-words="one two  three" data-path="x:y"></div>
        <svg id="svg1" viewBox="0 0 10 10"><rect id="r1" type="Box" width="1"/></svg>
        </body></html>
        """

    @Test func attributePresenceAndOperators() throws {
        let document = selectorTestDocument(Self.attributePage)
        #expect(try matchedIDs(document, "[href]") == ["a1", "a2", "a3"])
        #expect(try matchedIDs(document, "[data-empty]") == ["a3"])
        #expect(try matchedIDs(document, "[href=\"/local\"]") == ["a2"])
        #expect(try matchedIDs(document, "[href='/local']") == ["a2"])
        #expect(try matchedIDs(document, "[href=\"\"]") == ["a3"])
        #expect(try matchedIDs(document, "[data-words~=two]") == ["d1"])
        #expect(try matchedIDs(document, "[data-words~=three]") == ["d1"])
        #expect(try matchedIDs(document, "[data-words~=tw]").isEmpty)
        #expect(try matchedIDs(document, "[data-words~=\"one two\"]").isEmpty)
        #expect(try matchedIDs(document, "[data-words~=\"\"]").isEmpty)
        #expect(try matchedIDs(document, "[hreflang|=en]") == ["a1"])
        #expect(try matchedIDs(document, "[hreflang|=en-US]") == ["a1"])
        #expect(try matchedIDs(document, "[hreflang|=e]").isEmpty)
        #expect(try matchedIDs(document, "[lang|=en]") == ["a2", "a3"])
        #expect(try matchedIDs(document, "[href^=https]") == ["a1"])
        #expect(try matchedIDs(document, "[href^=\"\"]").isEmpty)
        #expect(try matchedIDs(document, "[href$=\".pdf\"]") == ["a1"])
        #expect(try matchedIDs(document, "[href$=\"\"]").isEmpty)
        #expect(try matchedIDs(document, "[href*=docs]") == ["a1"])
        #expect(try matchedIDs(document, "[href*=\"\"]").isEmpty)
        #expect(try matchedIDs(document, "[value='a\"b']") == ["i2"])
        #expect(try matchedIDs(document, "a[ href = \"/local\" ]") == ["a2"])
    }

    @Test func attributeNamesMatchCaseInsensitivelyOnHTMLElementsOnly() throws {
        let document = selectorTestDocument(Self.attributePage)
        #expect(try matchedIDs(document, "[HREF]") == ["a1", "a2", "a3"])
        #expect(try matchedIDs(document, "[data-mixed]") == ["i1"])
        #expect(try matchedIDs(document, "[DATA-MIXED=Value]") == ["i1"])
        // SVG keeps camelCase attribute names and matches them as written.
        #expect(try matchedIDs(document, "[viewBox]") == ["svg1"])
        #expect(try matchedIDs(document, "[viewbox]").isEmpty)
    }

    @Test func attributeValuesFollowHTMLsCaseInsensitiveList() throws {
        let document = selectorTestDocument(Self.attributePage)
        // `type`, `lang`, `hreflang` and `rel` are on HTML's list: case-insensitive on HTML elements.
        #expect(try matchedIDs(document, "[type=checkbox]") == ["i1"])
        #expect(try matchedIDs(document, "[type=\"TEXT\"]") == ["i2"])
        #expect(try matchedIDs(document, "[lang=en-gb]") == ["a3"])
        #expect(try matchedIDs(document, "[hreflang^=EN]") == ["a1"])
        #expect(try matchedIDs(document, "[rel~=nofollow]") == ["a1"])
        // Other attributes are case-sensitive.
        #expect(try matchedIDs(document, "[title=\"main docs\"]") == ["a2"])
        #expect(try matchedIDs(document, "[data-mixed=value]").isEmpty)
        // ... and so is everything on non-HTML elements, even `type`.
        #expect(try matchedIDs(document, "[type=box]").isEmpty)
        #expect(try matchedIDs(document, "[type=Box]") == ["r1"])
    }

    @Test func attributeCaseFlags() throws {
        let document = selectorTestDocument(Self.attributePage)
        #expect(try matchedIDs(document, "[title=\"main docs\" i]") == ["a1", "a2"])
        #expect(try matchedIDs(document, "[title=\"MAIN DOCS\" I]") == ["a1", "a2"])
        #expect(try matchedIDs(document, "[title=\"main docs\"i]") == ["a1", "a2"])
        #expect(try matchedIDs(document, "[data-mixed=value i]") == ["i1"])
        #expect(try matchedIDs(document, "[type=box i]") == ["r1"])
        #expect(try matchedIDs(document, "[title*=DOCS i]") == ["a1", "a2"])
        // `s` makes even HTML's case-insensitive attributes case-sensitive.
        #expect(try matchedIDs(document, "[type=checkbox s]").isEmpty)
        #expect(try matchedIDs(document, "[type=CHECKBOX s]") == ["i1"])
        #expect(try matchedIDs(document, "[type=text S]") == ["i2"])
    }

    // MARK: Escapes

    @Test func escapesInIdentifiersAndStrings() throws {
        let document = selectorTestDocument("""
            <html><body>
            <div id="123" class="a:b 10% caf\u{E9}"></div>
            <div id="x.y" title="say &quot;hi&quot;" data-v="back\\slash"></div>
            <div id="@top" class="-"></div>
            <div id="-1x"></div>
            </body></html>
            """)
        #expect(try matchedIDs(document, "#\\31 23") == ["123"])
        #expect(try matchedIDs(document, "#\\000031 23") == ["123"])
        #expect(try matchedIDs(document, "#\\31\n23") == ["123"])
        #expect(try matchedIDs(document, ".a\\:b") == ["123"])
        #expect(try matchedIDs(document, ".\\31 0\\%") == ["123"])
        #expect(try matchedIDs(document, ".caf\\E9") == ["123"])
        #expect(try matchedIDs(document, ".caf\\e9 ") == ["123"])
        #expect(try matchedIDs(document, ".café") == ["123"])
        #expect(try matchedIDs(document, "#x\\.y") == ["x.y"])
        #expect(try matchedIDs(document, "[title=\"say \\\"hi\\\"\"]") == ["x.y"])
        #expect(try matchedIDs(document, "[title='say \"hi\"']") == ["x.y"])
        #expect(try matchedIDs(document, "[title=\"say \\22hi\\22\"]") == ["x.y"])
        #expect(try matchedIDs(document, "[data-v=\"back\\\\slash\"]") == ["x.y"])
        #expect(try matchedIDs(document, "[data-v=\"back\\\nslash\"]").isEmpty)  // line continuation adds nothing
        #expect(try matchedIDs(document, "#\\@top") == ["@top"])
        #expect(try matchedIDs(document, ".\\-") == ["@top"])
        #expect(try matchedIDs(document, "#-\\31 x") == ["-1x"])
    }

    // MARK: Combinators

    static let treePage = """
        <html><body>
        <div id="outer" class="box">
          <section id="sec">
            <p id="p1">a <span id="span1">b</span></p>
            <p id="p2"><em id="em1"><span id="span2">c</span></em></p>
          </section>
          <h2 id="h2a">x</h2>
          <p id="p3">d</p>
          <!-- comment between siblings -->
          text between siblings
          <p id="p4">e</p>
          <ul id="list"><li id="li1">1</li><li id="li2">2</li><li id="li3">3</li></ul>
        </div>
        </body></html>
        """

    @Test func descendantCombinator() throws {
        let document = selectorTestDocument(Self.treePage)
        #expect(try matchedIDs(document, "section span") == ["span1", "span2"])
        #expect(try matchedIDs(document, ".box span") == ["span1", "span2"])
        #expect(try matchedIDs(document, "div p span") == ["span1", "span2"])
        #expect(try matchedIDs(document, "p em span") == ["span2"])
        #expect(try matchedIDs(document, "ul span").isEmpty)
        #expect(try matchedIDs(document, "body   \n\t section") == ["sec"])
    }

    @Test func childCombinator() throws {
        let document = selectorTestDocument(Self.treePage)
        #expect(try matchedIDs(document, "p > span") == ["span1"])
        #expect(try matchedIDs(document, "p>span") == ["span1"])
        #expect(try matchedIDs(document, "p > em > span") == ["span2"])
        #expect(try matchedIDs(document, "section > p > span") == ["span1"])
        // Backtracking: the first `p` ancestor tried is not a child of the div, a later one would have to be.
        #expect(try matchedIDs(document, "div > section span") == ["span1", "span2"])
        #expect(try matchedIDs(document, "div > p span").isEmpty)
        #expect(try matchedIDs(document, "#outer > p") == ["p3", "p4"])
    }

    @Test func siblingCombinators() throws {
        let document = selectorTestDocument(Self.treePage)
        // Comments and text between elements do not break adjacency.
        #expect(try matchedIDs(document, "p + p") == ["p2", "p4"])
        #expect(try matchedIDs(document, "h2 + p") == ["p3"])
        #expect(try matchedIDs(document, "h2 ~ p") == ["p3", "p4"])
        #expect(try matchedIDs(document, "h2~p") == ["p3", "p4"])
        #expect(try matchedIDs(document, "section ~ *") == ["h2a", "p3", "p4", "list"])
        #expect(try matchedIDs(document, "li + li + li") == ["li3"])
        #expect(try matchedIDs(document, "#li1 ~ li") == ["li2", "li3"])
        #expect(try matchedIDs(document, "section ~ h2 + p") == ["p3"])
        #expect(try matchedIDs(document, "section ~ p + p") == ["p4"])
        #expect(try matchedIDs(document, "h2 + p ~ ul > li:first-child") == ["li1"])
        #expect(try matchedIDs(document, "p ~ h2").isEmpty)
        #expect(try matchedIDs(document, "section + p").isEmpty)
    }

    @Test func selectorListsMatchAnyInDocumentOrderWithoutDuplicates() throws {
        let document = selectorTestDocument(Self.treePage)
        #expect(try matchedIDs(document, "ul, h2, #p1") == ["p1", "h2a", "list"])
        #expect(try matchedIDs(document, "p, p, #p1") == ["p1", "p2", "p3", "p4"])
        #expect(try matchedIDs(document, " h2 , ul ") == ["h2a", "list"])
    }

    @Test func deepTreesDoNotBacktrackExponentially() throws {
        // 200 nested divs (libxml2 caps nesting at 256): `div div … section p` with many descendant
        // combinators and no match would take forever if every ancestor combination were tried.
        let depth = 200
        let html = "<html><body>" + String(repeating: "<div>", count: depth) + "<p id=\"leaf\">x</p>"
            + String(repeating: "</div>", count: depth) + "</body></html>"
        let document = selectorTestDocument(html)
        let selector = try SelectorList(String(repeating: "div ", count: 30) + "section p")
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(document.querySelectorAll(selector).isEmpty) }
        #expect(elapsed < .seconds(5))
        #expect(try matchedIDs(document, String(repeating: "div ", count: 30) + "p") == ["leaf"])
    }

    // MARK: Logical pseudo-classes

    @Test func notIsWhere() throws {
        let document = selectorTestDocument(Self.treePage)
        #expect(try matchedIDs(document, "p:not(#p1)") == ["p2", "p3", "p4"])
        #expect(try matchedIDs(document, "p:not(#p1, #p3)") == ["p2", "p4"])
        #expect(try matchedIDs(document, "p:not(section > p)") == ["p3", "p4"])
        #expect(try matchedIDs(document, "li:not(:first-child):not(:last-child)") == ["li2"])
        #expect(try matchedIDs(document, ":is(h2, ul) ") == ["h2a", "list"])
        #expect(try matchedIDs(document, ":where(h2, ul)") == ["h2a", "list"])
        #expect(try matchedIDs(document, ":is(section, ul) > :is(p, li):first-child") == ["p1", "li1"])
        #expect(try matchedIDs(document, "span:is(p > *)") == ["span1"])
        #expect(try matchedIDs(document, "span:is(section *)") == ["span1", "span2"])
        #expect(try matchedIDs(document, "p:not(:is(#p1, #p2))") == ["p3", "p4"])
        #expect(try matchedIDs(document, "p:NOT(#p1):Is(#p2)") == ["p2"])
        #expect(try matchedIDs(document, "#outer :not(p, span, em, li, section, h2)") == ["list"])
    }

    @Test func hasWithEveryRelativeForm() throws {
        let document = selectorTestDocument("""
            <html><body>
            <div id="d1"><img id="img1" alt=""></div>
            <div id="d2"><a href="#"><img id="img2" alt=""></a></div>
            <div id="d3"><p id="p3">text</p></div>
            <h2 id="h1">A</h2><p id="pa">a</p>
            <h2 id="h2">B</h2><div id="gap"></div><p id="pb">b</p>
            <h2 id="h3">C</h2>
            <ul id="u1"><li id="l1"><ul id="u2"><li id="l2"><span id="deep">x</span></li></ul></li></ul>
            <h3 id="h4">D</h3><section id="s4"><span id="s4span">y</span></section>
            </body></html>
            """)
        #expect(try matchedIDs(document, "div:has(img)") == ["d1", "d2"])
        #expect(try matchedIDs(document, "div:has(> img)") == ["d1"])
        #expect(try matchedIDs(document, "div:has(a > img)") == ["d2"])
        #expect(try matchedIDs(document, "div:has(> a img)") == ["d2"])
        #expect(try matchedIDs(document, "div:has(p, img)") == ["d1", "d2", "d3"])
        #expect(try matchedIDs(document, "div:not(:has(img))") == ["d3", "gap"])
        #expect(try matchedIDs(document, "h2:has(+ p)") == ["h1"])
        #expect(try matchedIDs(document, "h2:has(~ p)") == ["h1", "h2"])
        #expect(try matchedIDs(document, "h2:has(+ div + p)") == ["h2"])
        #expect(try matchedIDs(document, "h2:has(~ ul span)") == ["h1", "h2", "h3"])
        #expect(try matchedIDs(document, "h3:has(+ section > span)") == ["h4"])
        #expect(try matchedIDs(document, "h3:has(+ section > em)").isEmpty)
        #expect(try matchedIDs(document, "ul:has(> li > ul)") == ["u1"])
        #expect(try matchedIDs(document, "ul:has(> li span)") == ["u1", "u2"])
        #expect(try matchedIDs(document, "li:has(> span)") == ["l2"])
        #expect(try matchedIDs(document, "body > :has(#deep)") == ["u1"])
        // The relative selector is anchored: `ul li` must be inside the `:has()` element.
        #expect(try matchedIDs(document, "ul:has(ul li)") == ["u1"])
        #expect(try matchedIDs(document, "li:has(span):not(:has(ul))") == ["l2"])
    }

    // MARK: Structural pseudo-classes

    static let structurePage = """
        <html><body>
        <div id="only"><span id="lonely">x</span></div>
        <div id="mixed">
          text first
          <h2 id="h">h</h2>
          <p id="pa">a</p>
          <!-- comment -->
          <span id="sa">s</span>
          <p id="pb">b</p>
          <p id="pc">c</p>
          <span id="sb">t</span>
        </div>
        <div id="empty"></div>
        <div id="comment-only"><!-- nothing --></div>
        <div id="space"> </div>
        </body></html>
        """

    @Test func childPositionPseudoClasses() throws {
        let document = selectorTestDocument(Self.structurePage)
        #expect(try matchedIDs(document, "#mixed > :first-child") == ["h"])
        #expect(try matchedIDs(document, "#mixed > :last-child") == ["sb"])
        #expect(try matchedIDs(document, "body :only-child") == ["lonely"])
        #expect(try matchedIDs(document, "#mixed > :only-child").isEmpty)
        #expect(try matchedIDs(document, "#mixed > p:first-child").isEmpty)
    }

    @Test func typePositionPseudoClasses() throws {
        let document = selectorTestDocument(Self.structurePage)
        #expect(try matchedIDs(document, "#mixed > :first-of-type") == ["h", "pa", "sa"])
        #expect(try matchedIDs(document, "#mixed > :last-of-type") == ["h", "pc", "sb"])
        #expect(try matchedIDs(document, "#mixed > :only-of-type") == ["h"])
        #expect(try matchedIDs(document, "span:only-of-type") == ["lonely"])
        #expect(try matchedIDs(document, "p:nth-of-type(2)") == ["pb"])
        #expect(try matchedIDs(document, "p:nth-last-of-type(1)") == ["pc"])
        #expect(try matchedIDs(document, "#mixed > :nth-of-type(2)") == ["pb", "sb"])
        #expect(try matchedIDs(document, "#mixed > :nth-last-of-type(2)") == ["sa", "pb"])
    }

    @Test func emptyAndRoot() throws {
        let document = selectorTestDocument(Self.structurePage)
        #expect(try matchedIDs(document, "div:empty") == ["empty", "comment-only"])
        #expect(try document.querySelectorAll(SelectorList(":root")).map(\.localName) == ["html"])
        #expect(try document.querySelectorAll(SelectorList(":root > body")).count == 1)
        #expect(try matchedIDs(document, "div:root").isEmpty)
    }

    static let listPage = "<html><body><ol id=\"ol\">"
        + (1...10).map { "<li id=\"i\($0)\"\($0 % 3 == 0 ? " class=\"x\"" : "")>\($0)</li>" }.joined()
        + "</ol></body></html>"

    /// (An+B expression, 1-based indices it selects among ten siblings)
    static let nthCases: [(String, [Int])] = [
        ("odd", [1, 3, 5, 7, 9]),
        ("even", [2, 4, 6, 8, 10]),
        ("ODD", [1, 3, 5, 7, 9]),
        ("3", [3]),
        ("+5", [5]),
        ("-3", []),
        ("0", []),
        ("n", Array(1...10)),
        ("+n", Array(1...10)),
        ("N", Array(1...10)),
        ("-n+3", [1, 2, 3]),
        ("2n-1", [1, 3, 5, 7, 9]),
        ("2n+1", [1, 3, 5, 7, 9]),
        ("2N+1", [1, 3, 5, 7, 9]),
        ("2n", [2, 4, 6, 8, 10]),
        ("0n+4", [4]),
        ("0n", []),
        ("3n", [3, 6, 9]),
        ("3n+0", [3, 6, 9]),
        ("+3n-2", [1, 4, 7, 10]),
        ("-2n+5", [1, 3, 5]),
        ("-n-3", []),
        ("n-1", Array(1...10)),
        ("n+8", [8, 9, 10]),
        (" 2n + 1 ", [1, 3, 5, 7, 9]),
        ("2n +1", [1, 3, 5, 7, 9]),
        ("2n+ 1", [1, 3, 5, 7, 9]),
        ("2n - 1", [1, 3, 5, 7, 9]),
        ("2n- 1", [1, 3, 5, 7, 9]),
        ("2n -1", [1, 3, 5, 7, 9]),
        ("-n- 2", []),
        ("n- 0", Array(1...10)),
        ("-n + 2", [1, 2]),
        ("\\6e +1", Array(1...10)),
        ("99999999999999999999", []),
        ("4n+99999999999999999999", []),
        ("-99999999999999999999n+2", [2]),
    ]

    @Test(arguments: nthCases)
    func nthChildAnPlusB(expression: String, expected: [Int]) throws {
        let document = selectorTestDocument(Self.listPage)
        #expect(try matchedIDs(document, "li:nth-child(\(expression))") == expected.map { "i\($0)" })
        // Counting from the end mirrors the indices.
        #expect(try matchedIDs(document, "li:nth-last-child(\(expression))") == expected.reversed().map { "i\(11 - $0)" })
        #expect(try matchedIDs(document, "li:nth-of-type(\(expression))") == expected.map { "i\($0)" })
        #expect(try matchedIDs(document, "li:nth-last-of-type(\(expression))") == expected.reversed().map { "i\(11 - $0)" })
    }

    @Test func nthChildOfSelector() throws {
        let document = selectorTestDocument(Self.listPage)
        // .x is on 3, 6, 9: `of .x` counts only those.
        #expect(try matchedIDs(document, ":nth-child(2 of .x)") == ["i6"])
        #expect(try matchedIDs(document, ":nth-child(odd of .x)") == ["i3", "i9"])
        #expect(try matchedIDs(document, ":nth-child(-n+2 OF li.x, #nothing)") == ["i3", "i6"])
        #expect(try matchedIDs(document, ":nth-last-child(1 of .x)") == ["i9"])
        #expect(try matchedIDs(document, "li:nth-child(1 of :not(.x))") == ["i1"])
        #expect(try matchedIDs(document, "li:nth-child(3 of :not(.x))") == ["i4"])
        // The element itself must match the `of` selector.
        #expect(try matchedIDs(document, "#i1:nth-child(1 of .x)").isEmpty)
    }

    // MARK: Form and link states

    @Test func checked() throws {
        let document = selectorTestDocument("""
            <html><body>
            <input id="c1" type="checkbox" checked>
            <input id="c2" type="checkbox">
            <input id="r1" type="RADIO" checked="">
            <input id="t1" type="text" checked>
            <input id="n1" checked>
            <select><option id="o1">a</option><option id="o2" selected>b</option></select>
            <div id="d1" checked selected></div>
            </body></html>
            """)
        #expect(try matchedIDs(document, ":checked") == ["c1", "r1", "o2"])
        #expect(try matchedIDs(document, "input:not(:checked)") == ["c2", "t1", "n1"])
    }

    @Test func disabledAndEnabled() throws {
        let document = selectorTestDocument("""
            <html><body>
            <button id="b1" disabled>x</button>
            <button id="b2">y</button>
            <input id="i1" disabled="false">
            <textarea id="t1"></textarea>
            <a id="a1" disabled href="#">link</a>
            <div id="div1" disabled></div>
            <select id="s1">
              <optgroup id="g1" disabled><option id="o1">1</option><option id="o2" disabled>2</option></optgroup>
              <optgroup id="g2"><option id="o3">3</option></optgroup>
              <option id="o4">4</option>
            </select>
            <fieldset id="f1" disabled>
              <legend id="lg1"><input id="in-legend"><span><button id="deep-legend">z</button></span></legend>
              <legend id="lg2"><input id="in-second-legend"></legend>
              <input id="in-fieldset">
              <div><select id="deep-select"></select></div>
              <fieldset id="f2"><input id="in-nested"></fieldset>
            </fieldset>
            <fieldset id="f3"><input id="in-enabled-fieldset"></fieldset>
            </body></html>
            """)
        #expect(try matchedIDs(document, ":disabled") == [
            "b1", "i1", "g1", "o1", "o2", "f1", "in-second-legend", "in-fieldset", "deep-select", "f2", "in-nested",
        ])
        #expect(try matchedIDs(document, ":enabled") == [
            "b2", "t1", "s1", "g2", "o3", "o4", "in-legend", "deep-legend", "f3", "in-enabled-fieldset",
        ])
        #expect(try matchedIDs(document, "a:disabled, div:disabled, a:enabled, div:enabled").isEmpty)
    }

    @Test func linkAndAnyLink() throws {
        let document = selectorTestDocument("""
            <html><head><link id="css" rel="stylesheet" href="a.css"></head><body>
            <a id="a1" href="/x">x</a><a id="a2">no href</a><a id="a3" href="">empty href</a>
            <map name="m"><area id="ar1" href="/y" alt="y"><area id="ar2" alt="z"></map>
            <svg><a id="svg-a" href="/z"><text>z</text></a></svg>
            </body></html>
            """)
        #expect(try matchedIDs(document, ":link") == ["a1", "a3", "ar1"])
        #expect(try matchedIDs(document, ":any-link") == ["a1", "a3", "ar1"])
        #expect(try matchedIDs(document, "a:not(:any-link)") == ["a2", "svg-a"])
    }

    // MARK: SVG

    @Test func svgTypeSelectorsAreCaseSensitive() throws {
        let document = selectorTestDocument("""
            <html><body>
            <svg id="s"><foreignObject id="fo"><div id="inside">x</div></foreignObject>
            <linearGradient id="lg"></linearGradient><rect id="r"/></svg>
            </body></html>
            """)
        #expect(try matchedIDs(document, "foreignObject") == ["fo"])
        #expect(try matchedIDs(document, "foreignobject").isEmpty)
        #expect(try matchedIDs(document, "FOREIGNOBJECT").isEmpty)
        #expect(try matchedIDs(document, "linearGradient") == ["lg"])
        #expect(try matchedIDs(document, "svg rect") == ["r"])
        #expect(try matchedIDs(document, "SVG").isEmpty)
        // HTML inside foreignObject is HTML again: case-insensitive.
        #expect(try matchedIDs(document, "foreignObject > DIV") == ["inside"])
    }

    // MARK: API

    @Test func elementAndDocumentQueries() throws {
        let document = selectorTestDocument(Self.treePage)
        let outer = try #require(document.element(withID: "outer"))
        let p = try SelectorList("p")
        let div = try SelectorList("div")
        #expect(outer.querySelectorAll(p).map { $0.id ?? "?" } == ["p1", "p2", "p3", "p4"])
        #expect(outer.querySelector(p)?.id == "p1")
        // Descendants only: the element itself is not a candidate.
        #expect(outer.querySelectorAll(div).isEmpty)
        #expect(outer.querySelector(try SelectorList(".box")) == nil)
        #expect(outer.matches(try SelectorList("div.box")))
        #expect(!outer.matches(p))
        let span = try #require(document.element(withID: "span2"))
        #expect(span.closest(try SelectorList("p"))?.id == "p2")
        #expect(span.closest(try SelectorList("span"))?.id == "span2")
        #expect(span.closest(try SelectorList("ul")) == nil)
        #expect(document.querySelector(try SelectorList("li:last-child"))?.id == "li3")
        #expect(document.querySelector(try SelectorList("table")) == nil)
        let scoped = try #require(document.element(withID: "list"))
        #expect(scoped.querySelectorAll(try SelectorList("div li")).count == 3)  // ancestors outside still count
    }

    @Test func selectorListValueSemantics() throws {
        let list = try SelectorList("  div > p ")
        #expect(list.text == "  div > p ")
        #expect(list.description == "  div > p ")
        #expect(list == (try SelectorList("  div > p ")))
        #expect(list != (try SelectorList("div > p")))
        #expect(Set([list, try SelectorList("  div > p ")]).count == 1)
    }

    @Test func largePageExcludeListMatching() throws {
        // 10,000 elements: the shape of matching an exclude list against every element of a page.
        var html = "<html><body>"
        for block in 0..<1500 {
            html += "<div class=\"\(block % 2 == 0 ? "a" : "z")\"><p class=\"\(block % 3 == 0 ? "b" : "c")\">t</p><p>u</p>"
                + "<span><em>v</em></span><ul><li>w</li></ul></div>"
        }
        html += "</body></html>"
        let document = selectorTestDocument(html)
        #expect(document.elementCount > 10_000)
        let selector = try SelectorList("div.a > p:not(.b)")
        let clock = ContinuousClock()
        var count = 0
        let elapsed = clock.measure { count = document.elements.filter(selector.matches).count }
        // Blocks 0, 2, 4, …: the first p lacks .b unless block % 3 == 0; the second p always matches.
        let expected = (0..<1500).filter { $0 % 2 == 0 }.reduce(0) { $0 + ($1 % 3 == 0 ? 1 : 2) }
        #expect(count == expected)
        #expect(elapsed < .seconds(5))
    }

    // MARK: Real selectors from the conformance corpus

    @Test(.enabled(if: SharedFixtures.isAvailable, "the shared conformance folder (../shared/conformance) is not present"))
    func axeExpectedTargetsParseAndMatch() throws {
        let folder = SharedFixtures.conformance.appendingPathComponent("axe-integration")
        let manager = FileManager.default
        var checked = 0
        for rule in try manager.contentsOfDirectory(atPath: folder.path).sorted() {
            let ruleFolder = folder.appendingPathComponent(rule)
            for file in (try? manager.contentsOfDirectory(atPath: ruleFolder.path)) ?? [] where file.hasSuffix(".json") {
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: ruleFolder.appendingPathComponent(file)))
                let htmlURL = ruleFolder.appendingPathComponent(String(file.dropLast(5)) + ".html")
                guard let expectations = json as? [String: Any], let html = try? String(contentsOf: htmlURL, encoding: .utf8)
                else { continue }
                let document = selectorTestDocument(SharedFixtures.wrap(html))
                for key in ["violations", "passes", "incomplete"] {
                    for target in expectations[key] as? [[Any]] ?? [] {
                        let selectors = target.compactMap { $0 as? String }
                        for text in selectors { _ = try SelectorList(text) }
                        // Multi-part targets reach into iframes; single ones are in the fixture itself.
                        guard selectors.count == 1 else { continue }
                        let matched = document.querySelectorAll(try SelectorList(selectors[0]))
                        #expect(!matched.isEmpty, "\(rule)/\(file): \(selectors[0]) matches nothing")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 500)
    }
}
