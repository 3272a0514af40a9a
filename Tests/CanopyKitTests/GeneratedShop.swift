import CanopyHistory
import CanopySyntheticHistory
import CanopyTestSupport
import Foundation

/// A generated garden shop for the multi-week crawl test: a home page, 6 category pages, 60
/// product pages (62 from week 6), 25 articles, an about and a contact page, and a PDF, all with
/// a shared header (search and navigation), a footer and a vendor's chat widget.
///
/// Each week the site carries exactly the `Seed`s that `ShopWeek.seeds` lists, plus churn that
/// must not count as any change: a notice in every header, a ribbon in the header of some pages
/// only, reordered lists, renamed classes, new prices, dates, SKUs and generated ids, flipped
/// attribute order, a home-page banner. Everything else about a page is clean under the default
/// rules, so what the trend reports can be checked against the seeds alone.
struct GeneratedShop: Sendable {
    /// A known accessibility problem: one rule failing on one element of a template, component or page.
    enum Seed: String, CaseIterable, Sendable {
        /// The header's search field has no label (every page, all weeks).
        case headerSearchLabel
        /// The footer's social link has no name (every page); fixed in week 3.
        case footerSocialLinkName
        /// The vendor's chat button has no name (every page, all weeks).
        case chatButtonName
        /// The vendor adds an e-mail field without a label in week 4.
        case chatEmailLabel
        /// Every product photo lacks alt; fixed in week 4.
        case productImageAlt
        /// A compare checkbox without a label on products 1–40, from week 2.
        case productCompareLabel
        /// Category pages skip from h1 to h3 (all weeks; the week 5 rule set leaves heading-order out).
        case categoryHeadingOrder
        /// A diagram without alt on one article, from week 3.
        case growingTomatoesDiagramAlt
        /// A diagram without alt on another article, weeks 3–4.
        case pruningRosesDiagramAlt
        /// The contact form's order field has no label: weeks 1–2, and again from week 5.
        case contactOrderLabel
        /// The about page has no lang, week 1 only.
        case aboutLang
        /// A promotion's close button without a name on the home page, from week 4.
        case homePromoButtonName

        var rule: String {
            switch self {
            case .headerSearchLabel, .chatEmailLabel, .productCompareLabel, .contactOrderLabel: "label"
            case .footerSocialLinkName: "link-name"
            case .chatButtonName, .homePromoButtonName: "button-name"
            case .productImageAlt, .growingTomatoesDiagramAlt, .pruningRosesDiagramAlt: "image-alt"
            case .categoryHeadingOrder: "heading-order"
            case .aboutLang: "html-has-lang"
            }
        }

        /// Whether the site carries the problem in `week` (what the rules then find is `ShopWeek.effectiveSeeds`).
        func isPresent(inWeek week: Int) -> Bool {
            switch self {
            case .headerSearchLabel, .chatButtonName, .categoryHeadingOrder: true
            case .footerSocialLinkName: week <= 2
            case .chatEmailLabel, .homePromoButtonName: week >= 4
            case .productImageAlt: week <= 3
            case .productCompareLabel: week >= 2
            case .growingTomatoesDiagramAlt: week >= 3
            case .pruningRosesDiagramAlt: week == 3 || week == 4
            case .contactOrderLabel: week <= 2 || week >= 5
            case .aboutLang: week == 1
            }
        }

        /// The vendor owning the failing element; nil for first-party markup.
        var owner: String? { self == .chatButtonName || self == .chatEmailLabel ? GeneratedShop.vendor : nil }

        /// The site-wide component holding the failing element, when it is in one.
        var component: String? {
            switch self {
            case .headerSearchLabel: "header"
            case .footerSocialLinkName: "footer"
            case .chatButtonName, .chatEmailLabel: GeneratedShop.chatComponent
            default: nil
            }
        }

        /// The page type of a template or page issue (nil for component issues).
        var pageType: String? {
            switch self {
            case .productImageAlt, .productCompareLabel: "/product/*"
            case .categoryHeadingOrder: "/category/*"
            case .growingTomatoesDiagramAlt, .pruningRosesDiagramAlt: "/articles/*"
            case .contactOrderLabel: "/contact"
            case .aboutLang: "/about"
            case .homePromoButtonName: "/"
            default: nil
            }
        }

        /// The paths of the pages carrying it in a week where it is present.
        func paths(in shop: GeneratedShop) -> Set<String> {
            switch self {
            case .headerSearchLabel, .footerSocialLinkName, .chatButtonName, .chatEmailLabel: Set(shop.htmlPaths)
            case .productImageAlt: Set(shop.products.map(\.path))
            case .productCompareLabel: Set(shop.products.filter(\.hasCompare).map(\.path))
            case .categoryHeadingOrder: Set(GeneratedShop.categories.map { "/category/\($0.slug)" })
            case .growingTomatoesDiagramAlt: ["/articles/growing-tomatoes"]
            case .pruningRosesDiagramAlt: ["/articles/pruning-roses"]
            case .contactOrderLabel: ["/contact"]
            case .aboutLang: ["/about"]
            case .homePromoButtonName: ["/"]
            }
        }
    }

    static let vendor = "ChatCo"
    static let vendorSelector = ".chat-widget"
    /// The chat widget's component key (`PageFingerprinter`: tag, role, stable id, label).
    static let chatComponent = "div[role=complementary]#chat-widget[aria-label=\"chat\"]"

    struct Product: Sendable {
        let id: Int
        let name: String
        let category: Int
        var slug: String { name.lowercased().replacingOccurrences(of: " ", with: "-") }
        var path: String { "/product/\(id)-\(slug)" }
        /// Products 1–40 have a compare checkbox (the template issue on 40 of the 60 pages).
        var hasCompare: Bool { id <= 40 }
    }

    static let categories: [(slug: String, name: String)] = [
        ("plants", "Plants"), ("pots", "Pots"), ("tools", "Tools"), ("seeds", "Seeds"), ("gifts", "Gifts"), ("books", "Books"),
    ]
    private static let adjectives = ["Small", "Large", "Green", "Golden", "Rustic", "Classic", "Hardy", "Tall", "Dwarf", "Glazed"]
    private static let nouns = ["fern", "pot", "trowel", "palm", "basket", "planter"]
    static let articleSlugs: [String] = ["growing", "pruning", "watering", "repotting", "feeding"].flatMap { verb in
        ["basil", "roses", "ferns", "tomatoes", "orchids"].map { "\(verb)-\($0)" }
    }

    let week: ShopWeek

    init(week: ShopWeek) {
        self.week = week
    }

    var products: [Product] {
        (1...week.productCount).map { id in
            Product(id: id, name: "\(Self.adjectives[(id - 1) % 10]) \(Self.nouns[(id - 1) / 10 % 6])", category: (id - 1) % 6)
        }
    }

    /// Every HTML page's path, as the sitemap lists them.
    var htmlPaths: [String] {
        ["/", "/about", "/contact"] + Self.categories.map { "/category/\($0.slug)" } + products.map(\.path)
            + Self.articleSlugs.map { "/articles/\($0)" }
    }

    static let pdfPath = "/files/care-guide.pdf"

    func has(_ seed: Seed) -> Bool { seed.isPresent(inWeek: week.number) }

    // MARK: Serving

    func response(for request: TestHTTPRequest) -> TestHTTPResponse {
        let path = request.pathWithoutQuery
        let origin = "http://" + (request.header("Host") ?? "127.0.0.1")
        switch path {
        case "/robots.txt":
            return .text("User-agent: *\nDisallow: /cart\nSitemap: \(origin)/sitemap.xml\n")
        case "/sitemap.xml":
            let entries = htmlPaths.map { "<url><loc>\(origin)\($0)</loc></url>" }.joined(separator: "\n")
            return TestHTTPResponse(
                headers: [("Content-Type", "application/xml")],
                body: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\(entries)\n</urlset>\n".utf8)
            )
        case Self.pdfPath:
            return TestHTTPResponse(headers: [("Content-Type", "application/pdf")], body: Array("%PDF-1.4\n% care guide\n%%EOF\n".utf8))
        case "/": return .html(home())
        case "/about": return .html(layout(title: "About us", lang: !has(.aboutLang), main: "<h1>About us</h1>\n<p>A family garden shop since 1987.</p>"))
        case "/contact": return .html(contact())
        default:
            if let category = Self.categories.firstIndex(where: { "/category/\($0.slug)" == path }) { return .html(categoryPage(category)) }
            if let product = products.first(where: { $0.path == path }) { return .html(productPage(product)) }
            if let slug = Self.articleSlugs.first(where: { "/articles/\($0)" == path }) { return .html(article(slug)) }
            return .notFound
        }
    }

    // MARK: Churn helpers

    /// A class name that changes every week: renamed classes must not move an issue.
    private func churnClass(_ base: String) -> String { "\(base) \(base)--v\(week.number)" }

    private func price(_ seed: Int) -> String {
        let cents = (seed * 731 + week.number * 1_913) % 9_000 + 500
        return String(format: "€%d.%02d", cents / 100, cents % 100)
    }

    private var date: String { String(format: "2024-%02d-%02d", 1 + week.number / 4, 1 + week.number * 5 % 28) }

    /// A list in this week's order: the same items, shuffled by a generator seeded with the week.
    private func reordered<Item>(_ items: [Item], salt: Int) -> [Item] {
        guard week.reordersLists else { return items }
        var generator = SplitMix64(seed: UInt64(week.number * 7_919 + salt))
        return items.shuffled(using: &generator)
    }

    /// `<img>` with its attributes in this week's order.
    private func image(src: String, alt: String?, className: String) -> String {
        var attributes = ["src=\"\(src)\"", "class=\"\(churnClass(className))\"", "width=\"300\"", "height=\"200\""]
        if let alt { attributes.append("alt=\"\(alt)\"") }
        if week.flipsAttributeOrder { attributes.reverse() }
        return "<img " + attributes.joined(separator: " ") + ">"
    }

    // MARK: Pages

    private func layout(title: String, lang: Bool = true, ribbon: Bool = false, main: String) -> String {
        var categoryLinks = Self.categories.map { "<li><a href=\"/category/\($0.slug)\">\($0.name)</a></li>" }
        if week.reversesNavigation { categoryLinks.reverse() }
        let notice = week.headerNotice ? "<div class=\"\(churnClass("notice"))\"><p>Free delivery until \(date).</p></div>\n" : ""
        let ribbonMarkup = ribbon ? "<p class=\"ribbon\"><strong>Sale</strong> in this section</p>\n" : ""
        let social = has(.footerSocialLinkName)
            ? "<a href=\"https://social.example/fernhill\"><span class=\"\(churnClass("icon"))\"></span></a>"
            : "<a href=\"https://social.example/fernhill\" aria-label=\"Fernhill on social media\"><span class=\"icon\"></span></a>"
        let chatButton = has(.chatButtonName)
            ? "<button type=\"button\" class=\"\(churnClass("chat-open"))\"><svg width=\"20\" height=\"20\" aria-hidden=\"true\"><path d=\"M2 2h16v10H6l-4 4z\"></path></svg></button>"
            : "<button type=\"button\" class=\"chat-open\">Chat with us</button>"
        let chatEmail = has(.chatEmailLabel) ? "\n<input type=\"email\" name=\"chat-email\">" : ""
        return """
            <!DOCTYPE html>
            <html\(lang ? " lang=\"en\"" : "")>
            <head>
            <meta charset="utf-8">
            <title>\(title) – Fernhill Garden</title>
            </head>
            <body>
            <header>
            \(notice)\(ribbonMarkup)<a href="/"><img src="/img/logo.svg" alt="Fernhill Garden"></a>
            <form role="search" action="/search">
            <input type="search" name="q">
            <button type="submit">Search</button>
            </form>
            <nav aria-label="Main">
            <ul>
            \(categoryLinks.joined(separator: "\n"))
            </ul>
            </nav>
            </header>
            <main>
            \(main)
            </main>
            <footer>
            <p>© Fernhill Garden</p>
            <ul>
            <li><a href="/about">About us</a></li>
            <li><a href="/contact">Contact</a></li>
            <li><a href="/cart">Your cart</a></li>
            <li><a href="\(Self.pdfPath)">Care guide (PDF)</a></li>
            <li>\(social)</li>
            </ul>
            </footer>
            <div class="chat-widget" id="chat-widget" role="complementary" aria-label="Chat">
            \(chatButton)\(chatEmail)
            </div>
            </body>
            </html>

            """
    }

    private func productLinks(_ products: [Product], salt: Int) -> String {
        reordered(products, salt: salt).map { product in
            "<li class=\"\(churnClass("card"))\"><a href=\"\(product.path)\">\(product.name)</a> <span class=\"price\">\(price(product.id))</span></li>"
        }.joined(separator: "\n")
    }

    private func home() -> String {
        let banner = week.homeBanner ? "<div class=\"hero-banner\"><p><strong>New this week:</strong> seeds for \(date).</p></div>\n" : ""
        let promotion = has(.homePromoButtonName)
            ? "<div class=\"promo\"><p>Spring sale on pots.</p><button type=\"button\" class=\"promo-close\"></button></div>\n"
            : ""
        let articles = reordered(Self.articleSlugs, salt: 1).map { "<li><a href=\"/articles/\($0)\">\($0.replacingOccurrences(of: "-", with: " ").capitalized)</a></li>" }
        return layout(title: "Home", main: """
            \(banner)\(promotion)<h1>Fernhill Garden</h1>
            <p>Everything for a greener home. Updated \(date).</p>
            <h2>Featured</h2>
            <ul>
            \(productLinks(Array(products.prefix(8)), salt: 2))
            </ul>
            <h2>Latest articles</h2>
            <ul>
            \(articles.joined(separator: "\n"))
            </ul>
            """)
    }

    private func categoryPage(_ index: Int) -> String {
        let category = Self.categories[index]
        let members = products.filter { $0.category == index }
        let heading = has(.categoryHeadingOrder) ? "<h3>Bestsellers</h3>" : "<h2>Bestsellers</h2>"
        return layout(title: category.name, ribbon: week.ribbonOnCategories, main: """
            <h1>\(category.name)</h1>
            <p class="\(churnClass("count"))">\(members.count) products, prices as of \(date).</p>
            \(heading)
            <ul class="\(churnClass("grid"))">
            \(productLinks(members, salt: 10 + index))
            </ul>
            """)
    }

    private func productPage(_ product: Product) -> String {
        let related = (1...4).map { products[(product.id - 1 + $0 * 7) % products.count] }
        let compare = product.hasCompare && has(.productCompareLabel)
            ? "\n<input type=\"checkbox\" name=\"compare\" class=\"\(churnClass("compare"))\"> <span>Compare</span>"
            : ""
        let wrapperID = "ember\(week.number * 1_000 + product.id)"
        return layout(title: product.name, main: """
            <div id="\(wrapperID)" class="\(churnClass("product"))">
            <h1>\(product.name)</h1>
            \(image(src: "/img/products/\(product.id).jpg", alt: has(.productImageAlt) ? nil : product.name, className: "photo"))
            <p class="\(churnClass("price"))">\(price(product.id))</p>
            <p>SKU \(product.id * 104_729 + week.number * 13), in stock: \((product.id * week.number) % 17 + 1)</p>
            <form action="/basket" method="post">
            <label for="quantity">Quantity</label> <input id="quantity" type="number" name="quantity" value="1">\(compare)
            <button type="submit">Add to basket</button>
            </form>
            <h2>Related</h2>
            <ul>
            \(productLinks(related, salt: 100 + product.id))
            </ul>
            </div>
            """)
    }

    private func article(_ slug: String) -> String {
        let title = slug.replacingOccurrences(of: "-", with: " ").capitalized
        let diagramMissesAlt = (slug == "growing-tomatoes" && has(.growingTomatoesDiagramAlt)) || (slug == "pruning-roses" && has(.pruningRosesDiagramAlt))
        let diagram = diagramMissesAlt ? image(src: "/img/articles/\(slug)-diagram.png", alt: nil, className: "diagram") + "\n" : ""
        return layout(title: title, main: """
            <article>
            <h1>\(title)</h1>
            <p class="\(churnClass("byline"))">Published \(date), \(week.number + 3) minutes to read.</p>
            \(diagram)<p>Start small, water little and often, and give the plant light.</p>
            <h2>What you need</h2>
            <ul>
            \(reordered(["A pot", "Fresh compost", "A sunny spot"], salt: 50).map { "<li>\($0)</li>" }.joined(separator: "\n"))
            </ul>
            </article>
            """)
    }

    private func contact() -> String {
        let order = has(.contactOrderLabel)
            ? "<input type=\"text\" name=\"order\">"
            : "<label for=\"order\">Order number</label> <input id=\"order\" type=\"text\" name=\"order\">"
        return layout(title: "Contact", main: """
            <h1>Contact</h1>
            <form action="/send" method="post">
            <label for="email">E-mail</label> <input id="email" type="email" name="email">
            \(order)
            <button type="submit">Send</button>
            </form>
            """)
    }
}

/// One simulated week: the site's size, its churn, and the rule set the crawl uses.
struct ShopWeek: Sendable {
    var number: Int
    var productCount = 60
    var headerNotice = false
    var ribbonOnCategories = false
    var reversesNavigation = false
    var reordersLists = false
    var flipsAttributeOrder = false
    var homeBanner = false
    /// Rules the week's rule set leaves out of the default set.
    var rulesLeftOut: [String] = []

    /// The schedule: seeded problems come from `Seed.isPresent(inWeek:)`; this adds churn, new
    /// products and the rule-set change, different every week.
    static func schedule(weeks: Int) -> [ShopWeek] {
        (1...weeks).map { number in
            var week = ShopWeek(number: number)
            week.headerNotice = [2, 3, 6].contains(number)
            week.ribbonOnCategories = [3, 4].contains(number)
            week.reversesNavigation = number % 2 == 0
            week.reordersLists = number >= 2
            week.flipsAttributeOrder = [3, 5].contains(number)
            week.homeBanner = [3, 5].contains(number)
            week.productCount = number >= 6 ? 62 : 60
            week.rulesLeftOut = number == 5 ? ["heading-order"] : []
            return week
        }
    }

    /// The seeds the week's rules can find.
    var effectiveSeeds: Set<GeneratedShop.Seed> {
        Set(GeneratedShop.Seed.allCases.filter { $0.isPresent(inWeek: number) && !rulesLeftOut.contains($0.rule) })
    }
}

