@testable import CanopyHistory
import CanopyHTML
import Testing
import CanopyStore
import CanopyHistoryTestSupport

struct FingerprintTests {
    /// A product page; each argument is one kind of change a week can bring.
    static func page(
        banner: Bool = false, reversedList: Bool = false, siblingClass: String = "promo", extraProducts: Int = 0,
        failingImage: String = "/img/products/123.jpg", price: String = "19.99"
    ) -> String {
        let items = ["Shirts", "Hats", "Shoes", "Socks"]
        let list = (reversedList ? items.reversed() : items).map { "<li><a href=\"/c/\($0.lowercased())\">\($0)</a></li>" }.joined()
        let related = (0..<(2 + extraProducts)).map { "<li><a href=\"/product/\(900 + $0)-thing\">Thing \($0)</a></li>" }.joined()
        return """
            <!doctype html><html lang="en"><head><title>Blue shirt</title></head><body>
            \(banner ? "<div class=\"banner\"><p>Free shipping this week! <a href=\"/sale\">Sale</a></p></div>" : "")
            <header><a href="/"><img src="/logo.svg" alt="Shop"></a><nav aria-label="Main"><ul>\(list)</ul></nav></header>
            <main id="content">
              <h1>Blue shirt</h1>
              <div class="\(siblingClass)"><p>Only $\(price)</p></div>
              <div class="gallery"><img src="\(failingImage)"><img src="/img/products/123-side.jpg" alt="Side view"></div>
              <button class="wish"><svg width="10" height="10"></svg></button>
              <ul class="related">\(related)</ul>
            </main>
            <footer><a href="/help">Help</a><a href="/social/x"><i class="icon-x"></i></a></footer>
            </body></html>
            """
    }

    static func identities(_ html: String, url: String = "https://shop.example/product/123-blue-shirt", selector: String) throws -> [FindingIdentity] {
        let document = HTMLParser().parse(html: html, url: url)
        let fingerprinter = PageFingerprinter(document: document)
        return document.querySelectorAll(try SelectorList(selector)).map { fingerprinter.identity(of: $0) }
    }

    static let failing = ".gallery img:not([alt]), button.wish, footer a[href='/social/x']"

    @Test(arguments: [
        ("a banner inserted earlier", page(banner: true)),
        ("a list elsewhere reordered", page(reversedList: true)),
        ("a sibling's class changed", page(siblingClass: "promo promo--highlight")),
        ("more related products", page(extraProducts: 3)),
        ("a price changed", page(price: "24.50")),
        ("all at once", page(banner: true, reversedList: true, siblingClass: "x", extraProducts: 5, price: "1")),
    ])
    func signaturesIgnoreUnrelatedChanges(change: String, changed: String) throws {
        let before = try Self.identities(Self.page(), selector: Self.failing)
        let after = try Self.identities(changed, selector: Self.failing)
        #expect(before.count == 3)
        #expect(after == before, "\(change)")
    }

    @Test func aDifferentFailingElementHasADifferentSignature() throws {
        let original = try Self.identities(Self.page(), selector: ".gallery img:not([alt])")
        let otherImage = try Self.identities(Self.page(failingImage: "/img/banners/summer.jpg"), selector: ".gallery img:not([alt])")
        #expect(original.count == 1 && otherImage.count == 1)
        #expect(original[0].elementSignature != otherImage[0].elementSignature)

        // The same markup in another landmark is another element.
        let moved = Self.page().replacingOccurrences(of: "<footer><a href=\"/help\">", with: "<footer><button class=\"wish\"><svg width=\"10\" height=\"10\"></svg></button><a href=\"/help\">")
        let buttons = try Self.identities(moved, selector: "button.wish")
        #expect(buttons.count == 2)
        #expect(buttons[0].elementSignature != buttons[1].elementSignature)
    }

    @Test func trueDuplicatesAreToldApartByOccurrence() throws {
        let html = "<main><p><a href=\"/x\"></a></p><p><a href=\"/x\"></a></p></main>"
        let links = try Self.identities(html, selector: "a")
        #expect(links.count == 2)
        #expect(links[0].elementSignature != links[1].elementSignature)
        // A duplicate added after them leaves both as they were.
        let more = try Self.identities("<main><p><a href=\"/x\"></a></p><p><a href=\"/x\"></a></p><p><a href=\"/x\"></a></p></main>", selector: "a")
        #expect(Array(more.prefix(2)) == links)
    }

    @Test func generatedIDsAndNumbersDoNotMakeAnElementDifferent() throws {
        let first = try Self.identities("<main><input id=\"react-select-17-input\" name=\"q\"><a href=\"/product/123-red\">Save 10%</a></main>", selector: "input, a")
        let second = try Self.identities("<main><input id=\"react-select-23-input\" name=\"q\"><a href=\"/product/9-red\">Save 25%</a></main>", selector: "input, a")
        #expect(first == second)
        let authored = try Self.identities("<main><input id=\"search\"></main><main><input id=\"coupon\"></main>", selector: "input")
        #expect(authored[0].elementSignature != authored[1].elementSignature)
    }

    @Test func componentsHashTheSameOnPagesWithDifferentContent() throws {
        let productPage = HTMLParser().parse(html: Self.page(), url: "https://shop.example/product/1")
        let otherPage = HTMLParser().parse(html: Self.page(banner: true, reversedList: true, extraProducts: 4).replacingOccurrences(of: "<h1>Blue shirt</h1>", with: "<h1>Cart</h1><table><tr><td>1</td></tr></table>"), url: "https://shop.example/cart")
        let first = PageFingerprinter(document: productPage).components
        let second = PageFingerprinter(document: otherPage).components
        #expect(first.map(\.key) == ["header", "footer"])
        #expect(first == second)
    }

    @Test func aComponentIsTheOutermostLandmarkOutsideMain() throws {
        let html = """
            <div id="page"><header><nav><a href="/">Home</a></nav></header><main><aside id="filters"><input></aside></main>
            <footer id="site-footer"><nav aria-label="Legal"><a href="/terms"></a></nav></footer></div>
            <div id="chat-widget"><button></button></div><div id="app-root-83f2a9c1"><button></button></div>
            """
        let document = HTMLParser().parse(html: html, url: "https://shop.example/")
        let fingerprinter = PageFingerprinter(document: document)
        // #page holds main, so it is the page itself, not a component; the generated id is no name either.
        #expect(fingerprinter.components.map(\.key) == ["header", "aside#filters", "footer#site-footer", "div#chat-widget"])
        let legalLink = try #require(document.elements.first { $0.attribute("href") == "/terms" })
        #expect(fingerprinter.identity(of: legalLink).component?.candidate.key == "footer#site-footer")
        let widgetButton = try #require(document.elements.first { $0.localName == "button" })
        #expect(fingerprinter.identity(of: widgetButton).component?.candidate.key == "div#chat-widget")
    }

    @Test func aVendorRootGivenByTheCallerIsAComponent() throws {
        let document = HTMLParser().parse(html: "<main><h1>x</h1></main><div class=\"vendor-chat\"><button></button></div>")
        let root = try #require(document.elements.first { $0.classNames.contains("vendor-chat") })
        let fingerprinter = PageFingerprinter(document: document, componentRoots: [root])
        #expect(fingerprinter.components.map(\.key) == ["div"])
    }

    @Test func aSignatureInsideAComponentDoesNotDependOnTheRestOfThePage() throws {
        let footer = "<footer><a href=\"/help\">Help</a><a href=\"/x\"></a></footer>"
        let pageA = try Self.identities("<main><h1>A</h1><a href=\"/x\"></a></main>" + footer, selector: "footer a[href='/x']")
        let pageB = try Self.identities("<main><h1>B</h1></main>" + footer, selector: "footer a[href='/x']")
        let placementA = try #require(pageA.first?.component)
        let placementB = try #require(pageB.first?.component)
        #expect(placementA == placementB)
    }

    @Test(arguments: [
        ("123", true), ("f47ac10b-58cc-4372-a567-0e02b2c3d479", true), ("5f2b8c9e1a", true), ("123-blue-shirt", true),
        ("blue-shirt-123", true), ("p12345", true), ("blue-shirt", false), ("v2", false), ("about", false), ("2fa", false),
    ])
    func variableSegments(segment: String, isVariable: Bool) {
        #expect(VolatileValues.isVariableSegment(Substring(segment)) == isVariable)
    }

    @Test(arguments: [
        (":r1:", true), ("ember123", true), ("j_idt12", true), ("a8f3k29c", true), ("react-select-17-input", true),
        ("search", false), ("step-2", false), ("h2-title", false), ("main-nav", false),
    ])
    func generatedIdentifiers(id: String, isGenerated: Bool) {
        #expect(VolatileValues.isGeneratedIdentifier(id) == isGenerated)
    }

    @Test func urlReferencesKeepOnlyWhatIdentifiesTheTarget() {
        let host: Substring = "shop.example"
        #expect(VolatileValues.normalizedURLReference("https://shop.example/product/123-x?ref=home#top", pageHost: host) == "/product/*")
        #expect(VolatileValues.normalizedURLReference("https://cdn.example/img/44.png", pageHost: host) == "//cdn.example/img/*.png")
        #expect(VolatileValues.normalizedURLReference("#main", pageHost: host) == "#")
        #expect(VolatileValues.normalizedURLReference("JavaScript:void(0)", pageHost: host) == "javascript:")
    }

    @Test func textIsNormalized() {
        #expect(VolatileValues.normalizedText("  Only\n $19.99   TODAY ") == "only $#.# today")
    }

    /// ASCII text takes a byte path; it must give what the definition by characters gives, or
    /// every stored fingerprint would move. Text that is not ASCII before its hundredth character
    /// written leaves the byte path; text that is only after it need not.
    @Test func asciiTextNormalizesAsUnicodeTextDoes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ9 0\t\r\n\u{0B}\u{0C}.$-_Q#x\u{00A0}")
        var samples = ["", " ", "\r\n", "A\r\nB", "12 34", String(repeating: "Ab1 ", count: 40)]
        for _ in 0..<500 {
            samples.append(String((0..<Int.random(in: 0...130, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        // No-break spaces take the byte path too, unless a mark joins them or other text is not ASCII.
        let joined = ["\u{00A0}\u{0301}x", "a\u{00A0}\u{0301}", "1\u{00A0}2", "\u{00A0}\u{00A0}A", "x\u{00A0}\r\n\u{00A0}y", "a\u{00B5}b", "\u{00A9}2024 x", "\u{00A0}"]
        for text in samples + joined + samples.map({ $0 + "\u{00A0}é" }) + samples.map({ "\u{00A0}" + $0 }) {
            #expect(VolatileValues.normalizedText(text) == VolatileValues.normalizedTextByCharacters(text), "\(text.debugDescription)")
        }
        #expect(VolatileValues.normalizedText("Crème 12") == "crème #")
        #expect(VolatileValues.normalizedText("Method\u{00A0}Summary 12") == "method summary #")
    }

    /// URL references take a byte path when they are ASCII; it must give what the definition by
    /// characters gives, or every stored fingerprint of a link or image would move.
    @Test func asciiURLReferencesNormalizeAsTheDefinitionDoes() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "a", "Z", "9", "123", "0f3a9c2e", "-", "_", ".", ".png", ".JPEG", ".tar.gz", "/", "//", "://", "?", "#", ":", " ", "\t", "\n",
            "\u{0C}", "https", "HTTP", "javascript:", "MailTo:", "tel:", "DATA:", "shop.example", "SHOP.Example", "cdn.example", "p12345",
            "blue-shirt-123", "..", "%20",
        ]
        var samples = ["", " ", "#", "//", "///", "http://", "http:///x", "//shop.example", "https://shop.example", "./a/../b.html", "a.b.c"]
        for _ in 0..<3000 {
            samples.append((0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for host in ["shop.example", "SHOP.example", ""] as [Substring?] + [nil] {
            for value in samples {
                var bytes = value
                let fast = bytes.withUTF8 { VolatileValues.normalizedASCIIURLReference($0, pageHost: host) }
                #expect(fast == VolatileValues.normalizedURLReferenceByCharacters(value, pageHost: host), "\(value.debugDescription) on \(String(describing: host))")
            }
        }
        // Values the byte path leaves to the definition.
        var nonASCII = "https://café.example/ménu/12"
        #expect(nonASCII.withUTF8 { VolatileValues.normalizedASCIIURLReference($0, pageHost: nil) } == nil)
        var carriageReturn = "/a\r\n"
        #expect(carriageReturn.withUTF8 { VolatileValues.normalizedASCIIURLReference($0, pageHost: nil) } == nil)
    }

    /// Descriptors are hashed from the page's bytes; each must hash as its text did, or every
    /// stored fingerprint would move. Random elements mix every attribute the descriptor reads,
    /// values that are and are not plain ASCII, carriage returns, digits and long text split over
    /// several text nodes.
    @Test func descriptorsHashFromBytesAsFromTheirText() {
        var generator = SystemRandomNumberGenerator()
        let names = ["id", "name", "type", "role", "data-testid", "data-qa", "for", "aria-label", "href", "src", "action", "data", "class"]
        let values = [
            "", " ", "x", "Main Menu", "ember123", "step-2", "/a/123-b.html?q=1#top", "https://shop.example/p/12", "//cdn.example/i.png",
            "JavaScript:void(0)", "#top", "Crème 12", "/ménu/3", "a\r\nb", "  Only $19.99 TODAY  ", String(repeating: "word 12 ", count: 20),
        ]
        let texts = ["", "Read", " more 12 ", "Crème", "\r\n", String(repeating: "Ab1 ", count: 30), "&amp; x"]
        var elements: [String] = []
        for index in 0..<400 {
            var attributes = ""
            for name in names where Bool.random(using: &generator) {
                attributes += " \(name)=\"\(values.randomElement(using: &generator)!.replacingOccurrences(of: "\"", with: "&quot;"))\""
            }
            let text = (0..<Int.random(in: 0...3, using: &generator)).map { _ in texts.randomElement(using: &generator)! }
            // A comment between text pieces makes them separate text nodes.
            elements.append("<a\(attributes) data-index=\"\(index)\">\(text.joined(separator: "<!-- -->"))<b>x</b></a>")
        }
        let document = HTMLParser().parse(html: "<body>\(elements.joined())</body>", url: "https://shop.example/x")
        let fingerprinter = PageFingerprinter(document: document)
        let links = document.elements(named: "a")
        #expect(links.count == 400)
        for link in links {
            #expect(fingerprinter.descriptorHashForTesting(of: link) == fingerprinter.descriptorHashByDefinition(of: link), "\(link)")
        }
    }

    /// Whether an id looks generated is decided in one pass; it must say what the definition says.
    @Test func generatedIdentifiersAreFoundAsTheDefinitionFindsThem() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "0", "9", "12", "123", "-", "_", ".", ":", ":\u{301}", "\u{E9}", "ab", "(", ")", ",", "int"]
        var samples = ["", ":", "a:", ":\u{301}", "é:\u{301}1", "ab12", "abcd12", "a1b2", "12", "x-12", "x_1.2", "getChars(int,int,char[],int)"]
        for _ in 0..<5000 {
            samples.append((0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for sample in samples {
            #expect(VolatileValues.isGeneratedIdentifier(sample) == VolatileValues.isGeneratedIdentifierByDefinition(sample), "\(sample.debugDescription)")
        }
    }

    /// Whether a path segment varies is counted in one pass; it must say what the definition says.
    @Test func variableSegmentsAreFoundAsTheDefinitionFindsThem() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "f", "G", "0", "9", "123", "0f3a9c2e", "-", "_", "--", "__", ".", "x", "sku", "!", "\u{E9}"]
        var samples = ["", "-", "_", "1", "12", "123", "p12", "p123", "p1x234", "12ab", "ab-12", "ab_12_cd", "0f3a9c2e", "0f3a-9c2e", "abcdefgh"]
        for _ in 0..<5000 {
            samples.append((0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for sample in samples {
            let bytes = Array(sample.utf8)
            #expect(VolatileValues.isVariableSegment(bytes: bytes) == VolatileValues.isVariableSegmentByDefinition(bytes: bytes), "\(sample.debugDescription)")
        }
    }
}
