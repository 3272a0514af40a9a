import CanopyHTML
import CanopyTestSupport
import Foundation
import Testing

@Suite("Target selectors")
struct TargetSelectorTests {
    // MARK: Helpers

    /// Generates a selector for every element and checks that it matches that element and no other.
    /// Returns the selectors by element position.
    @discardableResult
    private func expectEveryElementTargetedExactly(
        _ document: Document, label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let session = TargetSelectorGenerator().session(for: document)
        var selectors: [String] = []
        for element in document.elements {
            let text = session.selector(for: element)
            selectors.append(text)
            let list: SelectorList
            do {
                list = try SelectorList(text)
            } catch {
                Issue.record("\(label): \(element) got an unparsable selector: \(error)", sourceLocation: sourceLocation)
                continue
            }
            let matched = document.querySelectorAll(list)
            #expect(matched == [element], "\(label): \(text) for \(element) matches \(matched)", sourceLocation: sourceLocation)
        }
        return selectors
    }

    private func selector(_ document: Document, id: String) throws -> String {
        TargetSelectorGenerator().selector(for: try #require(document.element(withID: id)))
    }

    private func selector(_ document: Document, _ css: String) throws -> String {
        let element = try #require(document.querySelector(try SelectorList(css)), "no element for \(css)")
        return TargetSelectorGenerator().selector(for: element)
    }

    // MARK: Preferences

    @Test("among pieces of equal length the first kind wins, tag, then class, then attribute; a shorter one wins whatever its kind")
    func lengthsDecideBetweenKinds() throws {
        let row = """
            <em class="x">1</em><i>2</i><input class="abcdefghi" name="a"><input>\
            <b class="abcdefghij" name="c">3</b><b></b><span class="ab">4</span>
            """
        let html = """
            <div id="one">\(row)</div><div id="two">\(row)</div>
            <p id="three"><abbr class="éé">4</abbr><s class="b-c">6</s><u></u></p>
            <p id="four"><abbr class="éé">4</abbr><s class="b-c">6</s><u></u></p>
            """
        let document = HTMLParser().parse(html: html)
        // `em` and `.x`, two characters each.
        #expect(try selector(document, "#one > em") == "#one > em")
        // `.abcdefghi` and `[name="a"]`, ten each.
        #expect(try selector(document, "#one > input.abcdefghi") == "#one > .abcdefghi")
        // `[name="c"]` is one shorter than `.abcdefghij`, and `.ab` than `span`.
        #expect(try selector(document, "#one > b.abcdefghij") == #"#one > [name="c"]"#)
        #expect(try selector(document, "#one > span") == "#one > .ab")
        // Measured in characters where a name is not plain ASCII: `.éé` is three (five bytes), `abbr` four.
        #expect(try selector(document, "#three > abbr") == "#three > .éé")
        // `s` is shorter than `.b-c`.
        #expect(try selector(document, "#three > s") == "#three > s")
        try expectEveryElementTargetedExactly(document, label: "lengths")
    }

    @Test func documentRootsUseTheirTagNames() throws {
        let document = selectorTestDocument("<html class=\"x\"><head id=\"h\"></head><body class=\"home\"><p>x</p></body></html>")
        #expect(try selector(document, "html") == "html")
        #expect(try selector(document, "head") == "head")
        #expect(try selector(document, "body") == "body")
    }

    @Test func uniqueIDsWinAndAreEscaped() throws {
        let document = selectorTestDocument("""
            <html><body>
            <div id="main" class="unique-class"><p id="intro">x</p></div>
            <p id="1st">a</p><p id="a:b.c">b</p><p id="with space">c</p><p id="-2">d</p><p id="é">e</p>
            </body></html>
            """)
        #expect(try selector(document, id: "main") == "#main")
        #expect(try selector(document, id: "intro") == "#intro")
        #expect(try selector(document, id: "1st") == "#\\31 st")
        #expect(try selector(document, id: "a:b.c") == "#a\\:b\\.c")
        #expect(try selector(document, id: "with space") == "#with\\ space")
        #expect(try selector(document, id: "-2") == "#-\\32 ")
        #expect(try selector(document, id: "é") == "#é")
        try expectEveryElementTargetedExactly(document, label: "ids")
    }

    @Test func duplicateIDsAreNotUsedAlone() throws {
        let document = selectorTestDocument("""
            <html><body>
            <section class="first"><button id="dup">a</button></section>
            <section class="second"><button id="dup">b</button></section>
            </body></html>
            """)
        let buttons = document.querySelectorAll(try SelectorList("button"))
        #expect(buttons.count == 2)
        let generator = TargetSelectorGenerator()
        #expect(generator.selector(for: buttons[0]) == ".first > button")
        #expect(generator.selector(for: buttons[1]) == ".second > button")
        try expectEveryElementTargetedExactly(document, label: "duplicate ids")
    }

    @Test func distinctiveClassesAttributesAndTagsBeforePositions() throws {
        let document = selectorTestDocument("""
            <html><body>
            <header><nav><a href="/">Home</a><a href="/about">About</a><a class="cta" href="/buy">Buy</a></nav></header>
            <main>
              <form action="/search"><input name="q" type="search"><button type="submit">Go</button></form>
              <ul><li>a</li><li>b</li><li>c</li></ul>
            </main>
            <footer><a href="/">Home</a></footer>
            </body></html>
            """)
        #expect(try selector(document, "main") == "main")
        #expect(try selector(document, ".cta") == ".cta")
        #expect(try selector(document, "[name=q]") == "[name=\"q\"]")
        #expect(try selector(document, "button") == "button")
        #expect(try selector(document, "[href=\"/about\"]") == "[href=\"/about\"]")
        // Two links to "/": told apart by their unique ancestors.
        #expect(try selector(document, "nav > a:first-child") == "nav > [href=\"/\"]")
        #expect(try selector(document, "footer > a") == "footer > a")
        // Nothing distinguishes list items but their position.
        #expect(try selector(document, "li:nth-child(2)") == "ul > li:nth-child(2)")
        try expectEveryElementTargetedExactly(document, label: "preferences")
    }

    /// Ranked attributes are found by the page's name keys, which names longer than seven bytes
    /// can share: `data-testie` and `aria-labex` have the keys of `data-testid` and `aria-label`.
    @Test func longAttributeNamesAreRankedByTheWholeName() throws {
        let document = selectorTestDocument("""
            <html><body>
            <button data-testie="x">A</button><button data-testie="y">B</button>
            <button data-testid="save">Save</button><button aria-label="Close">x</button><button aria-labex="Open">+</button>
            </body></html>
            """)
        #expect(try selector(document, "[data-testid]") == "[data-testid=\"save\"]")
        #expect(try selector(document, "[aria-label]") == "[aria-label=\"Close\"]")
        #expect(try selector(document, "[data-testie=x]") == "body > button:nth-child(1)")
        #expect(try selector(document, "[aria-labex]") == "body > button:nth-child(5)")
        try expectEveryElementTargetedExactly(document, label: "long names")
    }

    /// An attribute value makes a piece up to 64 code points (not bytes) and without control characters.
    @Test func longOrControlAttributeValuesMakeNoPiece() throws {
        let longest = "/" + String(repeating: "é", count: 63)
        let tooLong = "/" + String(repeating: "é", count: 64)
        let document = selectorTestDocument("""
            <html><body>
            <a href="\(longest)">a</a><a href="\(tooLong)">b</a><a title="x&#9;y">c</a>
            </body></html>
            """)
        #expect(try selector(document, "a:nth-child(1)") == "[href=\"\(longest)\"]")
        #expect(try selector(document, "a:nth-child(2)") == "body > a:nth-child(2)")
        #expect(try selector(document, "a:nth-child(3)") == "body > a:nth-child(3)")
        try expectEveryElementTargetedExactly(document, label: "value limits")
    }

    @Test func pathsStopAtAClassThatIsAlreadyUniqueWithItsChild() throws {
        let document = selectorTestDocument("""
            <html><body>
            <section><div class="note">x</div><div class="tip"><b>1</b></div></section>
            <section><div class="note"><b>2</b></div><div class="tip">y</div></section>
            </body></html>
            """)
        let bold = document.querySelectorAll(try SelectorList("b"))
        let generator = TargetSelectorGenerator()
        #expect(generator.selector(for: bold[0]) == ".tip > b")
        #expect(generator.selector(for: bold[1]) == ".note > b")
        // The classes alone repeat, so their elements need the section's position.
        #expect(try selector(document, ".note") == "body > section:nth-child(1) > .note")
        try expectEveryElementTargetedExactly(document, label: "short paths")
    }

    @Test func pathsThatStartAlikeAreCountedEachForItself() throws {
        // `.c > i` matches two elements and `.c > b` one: a session that has counted the first
        // must still find the second unique, whatever it asked before.
        let document = selectorTestDocument("""
            <html><body>
            <section><div class="c"><i>1</i></div></section>
            <section><div class="c"><i>2</i><b>3</b></div></section>
            <section><b>4</b></section>
            </body></html>
            """)
        let italic = document.querySelectorAll(try SelectorList("i"))
        let bold = document.querySelectorAll(try SelectorList("b"))
        let session = TargetSelectorGenerator().session(for: document)
        #expect(session.selector(for: italic[0]) == "body > section:nth-child(1) > .c > i")
        #expect(session.selector(for: italic[1]) == "body > section:nth-child(2) > .c > i")
        #expect(session.selector(for: bold[0]) == ".c > b")
        #expect(TargetSelectorGenerator().selector(for: bold[0]) == ".c > b")
        try expectEveryElementTargetedExactly(document, label: "paths alike")
    }

    @Test func svgElementsKeepTheirCase() throws {
        let document = selectorTestDocument("""
            <html><body>
            <svg viewBox="0 0 10 10"><defs><linearGradient></linearGradient></defs>
            <foreignObject><div>html</div></foreignObject><g><rect/><rect/></g></svg>
            <svg><title>Second</title><g><rect/></g></svg>
            </body></html>
            """)
        #expect(try selector(document, "linearGradient") == "linearGradient")
        #expect(try selector(document, "foreignObject") == "foreignObject")
        let selectors = try expectEveryElementTargetedExactly(document, label: "svg")
        #expect(selectors.contains { $0.contains("rect:nth-child(2)") })
    }

    // MARK: Every element of real pages

    @Test(arguments: RealisticPages.all)
    func everyElementOfRealisticPages(page: RealisticPages.Page) throws {
        let document = selectorTestDocument(page.html)
        #expect(document.elementCount > 60, "\(page.name) should be a sizeable page")
        let selectors = try expectEveryElementTargetedExactly(document, label: page.name)
        // A unique id, else a page-unique class, is the whole selector: no path, no position.
        var classCounts: [String: Int] = [:]
        for element in document.elements {
            for name in Set(element.classNames) { classCounts[name, default: 0] += 1 }
        }
        for (element, text) in zip(document.elements, selectors) where !["html", "head", "body"].contains(element.localName) {
            if let id = element.id, !id.isEmpty, document.elements(withID: id).count == 1 {
                #expect(text.hasPrefix("#") && !text.contains(" > "), "\(page.name): \(element) has a unique id but got \(text)")
            } else if element.classNames.contains(where: { classCounts[$0] == 1 }) {
                #expect(text.hasPrefix(".") && !text.contains(" > "), "\(page.name): \(element) has a unique class but got \(text)")
            }
        }
    }

    @Test(.enabled(if: SharedFixtures.isAvailable, "the shared conformance folder (../shared/conformance) is not present"))
    func everyElementOfTheAxeFixtures() throws {
        let folder = SharedFixtures.conformance.appendingPathComponent("axe-integration")
        let manager = FileManager.default
        var pages = 0
        var elements = 0
        for rule in try manager.contentsOfDirectory(atPath: folder.path).sorted() {
            let ruleFolder = folder.appendingPathComponent(rule)
            let files = ((try? manager.contentsOfDirectory(atPath: ruleFolder.path)) ?? []).filter { $0.hasSuffix(".html") }.sorted()
            for file in files {
                let html = try String(contentsOf: ruleFolder.appendingPathComponent(file), encoding: .utf8)
                let document = selectorTestDocument(SharedFixtures.wrap(html))
                try expectEveryElementTargetedExactly(document, label: "\(rule)/\(file)")
                pages += 1
                elements += document.elementCount
            }
        }
        #expect(pages >= 90)
        #expect(elements > 3000)
    }

    // MARK: Stability

    @Test func selectorsSurviveABannerAndASiblingClassChange() throws {
        let original = RealisticPages.shop.html
        // A banner inserted at the top of <body>, and a class changed on a sibling of several targets.
        let changed = original
            .replacingOccurrences(
                of: "<body>",
                with: "<body><div class=\"cookie-banner\"><p>We use cookies.</p><button>OK</button></div>")
            .replacingOccurrences(of: "<li class=\"card\" data-k=\"card-2\">", with: "<li class=\"card card--sale\" data-k=\"card-2\">")
        #expect(changed != original)
        let before = selectorTestDocument(original)
        let after = selectorTestDocument(changed)
        let beforeSession = TargetSelectorGenerator().session(for: before)
        let afterSession = TargetSelectorGenerator().session(for: after)
        var compared = 0
        // `data-k` marks the same element in both versions.
        for element in before.querySelectorAll(try SelectorList("[data-k]")) {
            let key = try #require(element.attribute("data-k"))
            let counterpart = try #require(after.querySelector(try SelectorList("[data-k=\"\(key)\"]")))
            let hasDistinctiveName = element.id != nil || element.classNames.contains { name in
                before.elements.filter { $0.classNames.contains(name) }.count == 1
            }
            guard hasDistinctiveName else { continue }
            #expect(beforeSession.selector(for: element) == afterSession.selector(for: counterpart), "\(key)")
            compared += 1
        }
        #expect(compared >= 8)
        // Elements reached through a distinctive ancestor keep their selectors as well.
        for css in ["#products > li:nth-child(3) h3", ".site-search input", "#filters [name=\"size\"]"] {
            let old = try #require(before.querySelector(try SelectorList(css)))
            let new = try #require(after.querySelector(try SelectorList(css)))
            #expect(beforeSession.selector(for: old) == afterSession.selector(for: new), "\(css)")
        }
    }

    // MARK: API shapes and speed

    @Test func oneOffSessionAndBatchAgree() throws {
        let document = selectorTestDocument(RealisticPages.news.html)
        let generator = TargetSelectorGenerator()
        let session = generator.session(for: document)
        let elements = Array(document.elements)
        let batch = generator.selectors(for: elements)
        #expect(batch.count == elements.count)
        // Elements of several documents in one batch each get their own document's selector.
        let other = selectorTestDocument("<html><body><h2 class=\"x\">a</h2><h2>b</h2></body></html>")
        let mixed = generator.selectors(for: [elements[10], other.elements.last!, elements[20]])
        #expect(mixed == [batch[10], "body > h2:nth-child(2)", batch[20]])
        for (element, text) in zip(elements, batch) {
            #expect(session.selector(for: element) == text)
            #expect(generator.selector(for: element) == text)
        }
    }

    @Test func largePageWithLongListsIsFast() throws {
        // 1,000 rows and 1,000 list items without ids or classes: the worst case for positions.
        var html = "<html><body><table><tbody>"
        for row in 0..<1000 { html += "<tr><td>\(row)</td><td><a href=\"/r/\(row % 7)\">edit</a></td></tr>" }
        html += "</tbody></table><ul>"
        for item in 0..<1000 { html += "<li><span>\(item)</span></li>" }
        html += "</ul></body></html>"
        let document = selectorTestDocument(html)
        #expect(document.elementCount > 6_000)
        let clock = ContinuousClock()
        var selectors: [String] = []
        let elapsed = clock.measure { selectors = TargetSelectorGenerator().selectors(for: document.elements) }
        // Release builds take about 0.3 s; the bound leaves room for debug builds on a busy machine.
        #expect(elapsed < .seconds(30), "took \(elapsed)")
        // Check a sample against the matcher (checking all would be quadratic).
        for position in stride(from: 0, to: document.elementCount, by: 301) {
            let element = document.element(atPosition: position)
            #expect(document.querySelectorAll(try SelectorList(selectors[position])) == [element], "\(selectors[position])")
        }
    }
}

/// Realistic whole pages written for these tests: landmarks, navigation, tables, forms, repeated
/// cards without ids, SVG icons, duplicate ids, and names that need escaping.
enum RealisticPages {
    struct Page: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        var testDescription: String { name }
    }

    static let all = [shop, news, dashboard]

    static let shop = Page(name: "shop", html: """
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>Garden Tools – Shop</title>
          <link rel="stylesheet" href="/css/site.css">
          <script src="/js/app.js" defer></script>
        </head>
        <body>
          <a class="skip-link" href="#main" data-k="skip">Skip to content</a>
          <header class="site-header" data-k="header">
            <a href="/" class="logo" data-k="logo"><svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M1 1h22v22H1z"/></svg><span>Greenthumb</span></a>
            <nav aria-label="Main" data-k="nav">
              <ul class="menu">
                <li><a href="/tools" aria-current="page">Tools</a></li>
                <li><a href="/seeds">Seeds</a></li>
                <li><a href="/sale">Sale</a></li>
                <li><a href="/about">About us</a></li>
              </ul>
            </nav>
            <form class="site-search" role="search" action="/search" data-k="search">
              <label for="q">Search</label>
              <input id="q" name="q" type="search" placeholder="Search tools" data-k="q">
              <button type="submit"><svg class="icon"><use href="#i-search"/></svg><span class="visually-hidden">Go</span></button>
            </form>
          </header>
          <main id="main" data-k="main">
            <h1 data-k="h1">Garden tools</h1>
            <aside id="filters" data-k="filters">
              <h2>Filter</h2>
              <fieldset><legend>Size</legend>
                <label><input type="radio" name="size" value="s"> Small</label>
                <label><input type="radio" name="size" value="l" checked> Large</label>
              </fieldset>
              <fieldset disabled><legend>Colour</legend>
                <select name="colour"><option>Green</option><option selected>Red</option></select>
              </fieldset>
            </aside>
            <ul id="products" class="grid">
              <li class="card" data-k="card-1"><img src="/img/spade.jpg" alt="Spade"><h3>Spade</h3><p class="price">£20</p><a class="button" href="/p/spade">Details</a></li>
              <li class="card" data-k="card-2"><img src="/img/rake.jpg" alt="Rake"><h3>Rake</h3><p class="price">£15</p><a class="button" href="/p/rake">Details</a></li>
              <li class="card" data-k="card-3"><img src="/img/hoe.jpg" alt=""><h3>Hoe</h3><p class="price">£12</p><a class="button" href="/p/hoe">Details</a></li>
              <li class="card featured" data-k="card-4"><img src="/img/shears.jpg" alt="Shears"><h3>Shears</h3><p class="price">£30</p><a class="button" href="/p/shears">Details</a></li>
              <li class="card" data-k="card-5"><img src="/img/trowel.jpg" alt="Trowel"><h3>Trowel</h3><p class="price">£8</p><a class="button" href="/p/trowel">Details</a></li>
            </ul>
            <table class="compare" data-k="compare">
              <caption>Compare</caption>
              <thead><tr><th scope="col">Tool</th><th scope="col">Weight</th><th scope="col">Price</th></tr></thead>
              <tbody>
                <tr><th scope="row">Spade</th><td>1.2 kg</td><td>£20</td></tr>
                <tr><th scope="row">Rake</th><td>0.9 kg</td><td>£15</td></tr>
                <tr><th scope="row">Hoe</th><td>0.8 kg</td><td>£12</td></tr>
              </tbody>
            </table>
            <section class="newsletter" data-k="newsletter">
              <h2>Newsletter</h2>
              <form action="/subscribe" method="post">
                <label for="email">Email</label><input id="email" type="email" name="email" required>
                <label><input type="checkbox" name="consent"> I agree</label>
                <button type="submit" data-k="subscribe" class="subscribe">Subscribe</button>
              </form>
            </section>
          </main>
          <footer class="site-footer" data-k="footer">
            <ul class="links"><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li><li><a href="/">Home</a></li></ul>
            <p>&copy; 2024 Greenthumb</p>
          </footer>
          <svg style="display:none"><symbol id="i-search" viewBox="0 0 24 24"><circle cx="11" cy="11" r="8"/><path d="M21 21l-4-4"/></symbol></svg>
        </body>
        </html>
        """)

    static let news = Page(name: "news", html: """
        <!doctype html>
        <html lang="en-GB">
        <head><meta charset="utf-8"><title>Daily Post</title><style>.x{display:none}</style></head>
        <body class="front">
          <div class="top-bar"><div class="container"><span>Tuesday</span><a href="/login">Sign in</a></div></div>
          <header><div class="container"><a href="/"><img src="/logo.svg" alt="Daily Post"></a>
            <nav><ul>
              <li><a href="/news">News</a><ul><li><a href="/news/uk">UK</a></li><li><a href="/news/world">World</a></li></ul></li>
              <li><a href="/sport">Sport</a><ul><li><a href="/sport/football">Football</a></li><li><a href="/sport/tennis">Tennis</a></li></ul></li>
              <li><a href="/weather">Weather</a></li>
            </ul></nav>
          </div></header>
          <main>
            <div class="container">
              <div class="row">
                <article><h2><a href="/a/1">First story</a></h2><p>Lead text <em>with</em> emphasis.</p><div class="meta"><time datetime="2024-01-01">1 Jan</time><span>5 min</span></div></article>
                <article><h2><a href="/a/2">Second story</a></h2><p>Lead text.</p><div class="meta"><time datetime="2024-01-02">2 Jan</time><span>3 min</span></div></article>
                <article><h2><a href="/a/3">Third story</a></h2><p>Lead text.</p><div class="meta"><time datetime="2024-01-03">3 Jan</time><span>4 min</span></div></article>
              </div>
              <div class="row">
                <article><h2><a href="/a/4">Fourth story</a></h2><p>More.</p><div class="meta"><time>4 Jan</time><span>2 min</span></div></article>
                <article><h2><a href="/a/5">Fifth story</a></h2><p>More.</p><div class="meta"><time>5 Jan</time><span>2 min</span></div></article>
                <div class="ad"><iframe src="https://ads.example/1" title="Advertisement"></iframe></div>
              </div>
              <div class="row"><div><div><div><p>Deeply <b>nested</b> <i>plain</i> text</p><p>Second <b>plain</b></p></div></div></div></div>
            </div>
          </main>
          <div role="dialog" aria-modal="true" aria-labelledby="dlg-title" hidden>
            <h2 id="dlg-title">Subscribe</h2><button>Close</button><button>Subscribe</button>
          </div>
          <footer><div class="container"><p>Footer <a href="/contact">Contact</a> <a href="/jobs">Jobs</a></p></div></footer>
        </body>
        </html>
        """)

    static let dashboard = Page(name: "dashboard", html: """
        <!DOCTYPE html>
        <html>
        <head><title>Admin</title></head>
        <body>
          <div id="app">
            <div class="sidebar">
              <ul role="menu">
                <li role="none"><a role="menuitem" href="#overview" class="active">Overview</a></li>
                <li role="none"><a role="menuitem" href="#users">Users</a></li>
                <li role="none"><a role="menuitem" href="#settings">Settings</a></li>
              </ul>
            </div>
            <div class="content">
              <div class="toolbar">
                <button class="btn">New</button><button class="btn">Edit</button><button class="btn" disabled>Delete</button>
                <input type="text" placeholder="Filter users">
                <select><option value="all">All</option><option value="admins">Admins</option></select>
              </div>
              <table>
                <thead><tr><th><input type="checkbox" aria-label="Select all"></th><th>Name</th><th>Email</th><th>Role</th><th></th></tr></thead>
                <tbody>
                  <tr><td><input type="checkbox"></td><td>Ann</td><td>ann@example.com</td><td>Admin</td><td><button class="btn">⋯</button></td></tr>
                  <tr><td><input type="checkbox"></td><td>Bob</td><td>bob@example.com</td><td>User</td><td><button class="btn">⋯</button></td></tr>
                  <tr><td><input type="checkbox" checked></td><td>Cy</td><td>cy@example.com</td><td>User</td><td><button class="btn">⋯</button></td></tr>
                  <tr><td><input type="checkbox"></td><td>Di</td><td>di@example.com</td><td>User</td><td><button class="btn">⋯</button></td></tr>
                </tbody>
              </table>
              <div class="panel" id="chart">
                <svg width="200" height="100" role="img" aria-label="Signups"><g class="bars"><rect x="0" height="10"/><rect x="20" height="30"/><rect x="40" height="20"/></g><text x="0" y="90">Jan</text><text x="40" y="90">Mar</text></svg>
              </div>
              <div class="panel"><h3>Notes</h3><textarea name="notes"></textarea></div>
              <div class="panel"><h3>Dup</h3><span id="dup">1</span><span id="dup">2</span><span class="a:b">colon class</span><span class="123">digit class</span></div>
            </div>
          </div>
          <template><p>Template content</p></template>
        </body>
        </html>
        """)
}


