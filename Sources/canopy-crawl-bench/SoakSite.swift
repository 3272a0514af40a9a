import CanopyLoopbackServer
import CanopySyntheticHistory
import CanopyKit

/// A shop-like site of `pageCount` product pages, each generated from its path alone when it is
/// requested, so that serving 100,000 pages holds none of them in memory.
///
/// Page `/p/N` has a header (logo, search form), a main navigation, a breadcrumb, a description,
/// a specification table, a gallery, reviews, a question form, links to its children
/// `/p/(10N+1)` … `/p/(10N+10)` and to six pseudo-random related pages, and a footer; 8–29 KB of
/// HTML, median 19 KB. Every page is reachable from `/p/0` through the children links (a tree about five levels
/// deep for 100,000 pages), and the related links make the site a graph with many paths to each
/// page, as a real one is. Deterministic accessibility problems recur at fixed rates (see
/// `page(_:)`), and every 100th page links to a missing page, so the expected outcome of a crawl
/// is known exactly: `pageCount` pages audited, `brokenLinkCount` answered 404.
struct SoakSite: Sendable {
    let pageCount: Int

    static let branching = 10

    /// Pages answered 404 when the whole site is crawled: `/missing/N` for every N divisible by 100.
    var brokenLinkCount: Int { (pageCount + 99) / 100 }

    func response(for path: String) -> LoopbackResponse {
        if path == "/robots.txt" {
            // The cart is linked from every page and kept out by robots.txt, as shops do.
            return .text("User-agent: *\nDisallow: /cart\n")
        }
        guard path.hasPrefix("/p/"), let index = Int(path.dropFirst(3)), index >= 0, index < pageCount else { return .notFound }
        return LoopbackResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: page(index))
    }

    private static let words = [
        "canopy", "linen", "walnut", "garden", "weatherproof", "lantern", "ceramic", "handmade", "warm", "light",
        "sturdy", "folding", "table", "chair", "outdoor", "cushion", "brass", "oak", "woven", "basket",
        "season", "evening", "terrace", "durable", "finish", "natural", "colour", "texture", "assembly", "minutes",
        "delivery", "returns", "cotton", "stitched", "frame", "powder", "coated", "steel", "rain", "shade",
        "comfortable", "family", "dinner", "summer", "storage", "compact", "stacking", "classic", "design", "studio",
        "the", "and", "with", "for", "a", "of", "to", "in", "is", "it",
    ]

    /// The HTML of page `index`, as UTF-8 bytes.
    func page(_ index: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var html: [UInt8] = []
        html.reserveCapacity(32 * 1024)
        func add(_ text: String) { html.append(contentsOf: text.utf8) }
        func sentence(_ count: Int) -> String {
            var words: [String] = []
            for _ in 0..<count { words.append(Self.words[random.next(below: Self.words.count)]) }
            return words.joined(separator: " ")
        }
        func link(_ target: Int) -> String { "/p/\(target)" }
        let section = index == 0 ? 0 : Self.section(of: index)
        let name = "Product \(index) " + sentence(2)

        // Accessibility problems at fixed rates, so both crawl sizes audit the same mix.
        add(index % 97 == 0 ? "<!doctype html><html>" : "<!doctype html><html lang=\"en\">")
        add("<head><meta charset=\"utf-8\">")
        add(index % 53 == 0 ? "<meta name=\"viewport\" content=\"width=device-width, user-scalable=no\">"
            : "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        add("<title>\(name) – Section \(section) – Soak Shop</title><link rel=\"stylesheet\" href=\"/static/shop.css\"></head><body>")
        add("<header class=\"site-header\"><a class=\"logo\" href=\"/p/0\"><img src=\"/static/logo.svg\" alt=\"Soak Shop home\"></a>")
        add("<form role=\"search\" action=\"/search\"><input type=\"search\" name=\"q\" aria-label=\"Search the shop\"><button>Search</button></form>")
        add(index % 13 == 0 ? "<button class=\"icon-cart\"></button>" : "<a class=\"cart\" href=\"/cart\">Cart</a>")
        add("</header><nav class=\"main-nav\" aria-label=\"Main\"><ul>")
        for target in 1...Self.branching where target < pageCount { add("<li><a href=\"\(link(target))\">Section \(target)</a></li>") }
        add("</ul></nav><nav aria-label=\"Breadcrumb\"><ol>")
        var ancestors: [Int] = []
        var current = index
        while current > 0 {
            current = (current - 1) / Self.branching
            ancestors.append(current)
        }
        for ancestor in ancestors.reversed() { add("<li><a href=\"\(link(ancestor))\">Product \(ancestor)</a></li>") }
        add("<li aria-current=\"page\">\(name)</li></ol></nav>")

        add("<main id=\"content\"><h1>\(name)</h1>")
        for _ in 0..<(3 + random.next(below: 4)) { add("<p>\(sentence(40 + random.next(below: 50))).</p>") }
        add(index % 17 == 2 ? "<h4>Specifications</h4>" : "<h2>Specifications</h2>")
        add(index % 23 == 0 ? "<table><caption>Specifications</caption><tr><th scope=\"rows\">Size</th><td>\(random.next(below: 200)) cm</td></tr>"
            : "<table><caption>Specifications</caption><tr><th scope=\"row\">Size</th><td>\(random.next(below: 200)) cm</td></tr>")
        for row in 0..<(6 + random.next(below: 10)) { add("<tr><th scope=\"row\">\(sentence(2))</th><td>\(sentence(3)) \(row)</td></tr>") }
        add("</table><h2>Gallery</h2><ul class=\"gallery\">")
        let missingAlt = index % 7 == 3 ? random.next(below: 4) : -1
        for picture in 0..<(4 + random.next(below: 5)) {
            let alt = picture == missingAlt ? "" : " alt=\"\(sentence(4))\""
            add("<li><img src=\"/images/\(index)-\(picture).jpg\"\(alt) width=\"320\" height=\"240\" loading=\"lazy\"></li>")
        }
        add("</ul>")
        if index % 29 == 0 { add("<div role=\"buton\" tabindex=\"0\">Compare</div>") }

        add("<section aria-labelledby=\"reviews-\(index)\"><h2 id=\"reviews-\(index)\">Reviews</h2>")
        for review in 0..<(8 + random.next(below: 40)) {
            add("<article class=\"review\"><h3>\(sentence(4))</h3><p>\(sentence(30 + random.next(below: 40))).</p>")
            add("<p class=\"byline\">Review \(review + 1), \(1 + random.next(below: 5)) of 5 stars</p></article>")
        }
        add("</section><h2>Ask a question</h2><form action=\"/questions\" method=\"post\">")
        add("<label for=\"q-name-\(index)\">Your name</label><input id=\"q-name-\(index)\" name=\"name\" autocomplete=\"name\">")
        add(index % 3 == 1 ? "<input type=\"email\" name=\"email\">"
            : "<label for=\"q-mail-\(index)\">Email</label><input id=\"q-mail-\(index)\" type=\"email\" name=\"email\" autocomplete=\"email\">")
        add("<label for=\"q-topic-\(index)\">Topic</label><select id=\"q-topic-\(index)\" name=\"topic\"><option>Delivery</option><option>Size</option><option>Care</option></select>")
        add("<label for=\"q-text-\(index)\">Question</label><textarea id=\"q-text-\(index)\" name=\"text\"></textarea><button type=\"submit\">Send</button></form>")

        let children = (1...Self.branching).map { Self.branching * index + $0 }.filter { $0 < pageCount }
        if !children.isEmpty {
            add("<h2>In this range</h2><ul class=\"children\">")
            for child in children { add("<li><a href=\"\(link(child))\">Product \(child)</a></li>") }
            add("</ul>")
        }
        add("<h2>Related</h2><ul class=\"related\">")
        for _ in 0..<6 {
            let target = random.next(below: pageCount)
            add("<li><a href=\"\(link(target))\">Product \(target)</a></li>")
        }
        if index % 11 == 5 { add("<li><a href=\"\(link((index + 1) % pageCount))\"><i class=\"icon-next\"></i></a></li>") }
        if index % 100 == 0 { add("<li><a href=\"/missing/\(index)\">Discontinued model</a></li>") }
        add("</ul><nav aria-label=\"Pages\">")
        if index > 0 { add("<a rel=\"prev\" href=\"\(link(index - 1))\">Previous</a> ") }
        if index + 1 < pageCount { add("<a rel=\"next\" href=\"\(link(index + 1))\">Next</a>") }
        add("</nav></main>")

        // The same footer on every page, with an unnamed icon link: one site-wide issue.
        add("<footer class=\"site-footer\"><ul><li><a href=\"/p/0\">Home</a></li><li><a href=\"/p/1\">About us</a></li>")
        add("<li><a href=\"/p/2\">Delivery and returns</a></li><li><a href=\"https://social.example/soakshop\"><svg width=\"16\" height=\"16\"><path d=\"M0 0h16v16H0z\"/></svg></a></li></ul>")
        add("<p>© Soak Shop. Prices include VAT.</p></footer></body></html>")
        return html
    }

    /// The top-level section (1…10) a page is filed under.
    static func section(of index: Int) -> Int {
        var current = index
        while current > branching { current = (current - 1) / branching }
        return current
    }
}
