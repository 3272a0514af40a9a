import CanopyLoopbackServer
import Foundation

/// The sample shop `canopy demo` crawls: a garden store with a home page, five category pages,
/// twelve product pages, a cart and an about page, all sharing a header (with search and
/// navigation) and a footer, plus a vendor's chat widget on every page.
///
/// It has real accessibility problems, and a second week in which some are fixed, some new ones
/// appear, and unrelated markup changes (a notice on every page, renamed classes, reordered
/// lists, new prices) must not count as either. `weekTwoFixes` and `weekTwoRegressions` say
/// exactly what changes, so the demo's trend can be checked against them.
///
/// Week 1 violations, by issue (an issue on a template or a site-wide component counts once):
/// - header (every page): the search field has no label (`label`)
/// - footer (every page): the social link is empty (`link-name`)            — fixed in week 2
/// - chat widget (every page, owned by `chat-vendor`): its button has no name (`button-name`),
///   and it sits outside any landmark (`region`)
/// - home: an invalid role `hero` (`aria-roles`), the hero image has no alt (`image-alt`)
/// - category template: the first heading after h1 is an h3 (`heading-order`)
/// - product template: the photo has no alt (`image-alt`)                     — fixed in week 2;
///   the quantity field has no label (`label`); `aria-expanded="open"` (`aria-valid-attr-value`)
/// - cart: the quantity field has no label (`label`)
/// - about: no `lang` on `<html>` (`html-has-lang`)                            — fixed in week 2;
///   the team photo has no alt (`image-alt`)
///
/// Week 2 regressions: a promotion's close button without a name on the home page
/// (`button-name`), a size menu without a label on every product page (`select-name`), a coupon
/// field without a label in the cart (`label`).
public struct DemoShop: Sendable {
    public enum Week: Int, Sendable, CaseIterable {
        case one = 1, two = 2
    }

    /// What week 2 fixes and breaks, as (rule id, where) pairs: one issue each.
    public static let weekTwoFixes = [
        ("link-name", "footer: the social media link gets a name"),
        ("image-alt", "product template: every product photo gets an alt text"),
        ("html-has-lang", "about page: <html lang=\"en\">"),
    ]
    public static let weekTwoRegressions = [
        ("button-name", "home page: a promotion banner's close button has no name"),
        ("select-name", "product template: a new size menu has no label"),
        ("label", "cart: a new coupon field has no label"),
    ]
    public static let weekTwoChurn = [
        "a delivery notice at the top of every page",
        "product cards' classes renamed",
        "featured products and category lists reordered",
        "all prices changed",
    ]

    /// The vendor owning the chat widget, as the demo's canopy.yml names it.
    public static let chatVendor = "chat-vendor"
    public static let chatWidgetSelector = ".chat-widget"

    struct Product {
        let id: Int
        let slug: String
        let name: String
        let category: String
        let cents: Int
        var path: String { "/product/\(id)-\(slug)" }
    }

    static let categories = [
        ("plants", "Plants"), ("pots", "Pots and planters"), ("tools", "Garden tools"), ("seeds", "Seeds"), ("gifts", "Gifts"),
    ]

    static let products = [
        Product(id: 101, slug: "monstera", name: "Monstera deliciosa", category: "plants", cents: 2_400),
        Product(id: 102, slug: "boston-fern", name: "Boston fern", category: "plants", cents: 1_650),
        Product(id: 103, slug: "olive-tree", name: "Olive tree", category: "plants", cents: 5_900),
        Product(id: 104, slug: "terracotta-pot", name: "Terracotta pot", category: "pots", cents: 1_200),
        Product(id: 105, slug: "hanging-planter", name: "Hanging planter", category: "pots", cents: 1_890),
        Product(id: 106, slug: "pruning-shears", name: "Pruning shears", category: "tools", cents: 2_250),
        Product(id: 107, slug: "watering-can", name: "Watering can", category: "tools", cents: 1_990),
        Product(id: 108, slug: "hand-trowel", name: "Hand trowel", category: "tools", cents: 950),
        Product(id: 109, slug: "basil-seeds", name: "Basil seeds", category: "seeds", cents: 320),
        Product(id: 110, slug: "sunflower-seeds", name: "Sunflower seeds", category: "seeds", cents: 290),
        Product(id: 111, slug: "gift-card", name: "Gift card", category: "gifts", cents: 2_500),
        Product(id: 112, slug: "plant-care-book", name: "The plant care book", category: "gifts", cents: 1_800),
    ]

    public let week: Week

    public init(week: Week) {
        self.week = week
    }

    /// Every page path of the shop, as its sitemap lists them.
    public static var pagePaths: [String] {
        ["/", "/cart", "/about"] + categories.map { "/category/\($0.0)" } + products.map(\.path)
    }

    /// The response to a request: the shop's pages for GET and HEAD, 404 for a path it does not
    /// have, 405 for any other method.
    public func response(for request: LoopbackRequest) -> LoopbackResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return LoopbackResponse(status: 405, headers: [("Allow", "GET, HEAD")])
        }
        let host = request.header("Host") ?? "127.0.0.1"
        switch request.pathWithoutQuery {
        case "/robots.txt":
            // /checkout/ is disallowed, so the report shows a page skipped by robots.txt.
            return .text("User-agent: *\nDisallow: /checkout/\nSitemap: http://\(host)/sitemap.xml\n")
        case "/sitemap.xml":
            let entries = Self.pagePaths.map { "<url><loc>http://\(host)\($0)</loc></url>" }.joined(separator: "\n")
            return LoopbackResponse(
                headers: [("Content-Type", "application/xml")],
                body: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\(entries)\n</urlset>\n".utf8)
            )
        case "/shop.css":
            return LoopbackResponse(headers: [("Content-Type", "text/css; charset=utf-8")], body: Array(Self.styleSheet.utf8))
        case "/": return .html(home())
        case "/cart": return .html(cart())
        case "/about": return .html(about())
        default:
            let path = request.pathWithoutQuery
            if path.hasPrefix("/category/"), let match = Self.categories.first(where: { "/category/\($0.0)" == path }) {
                return .html(category(match.0, title: match.1))
            }
            if let product = Self.products.first(where: { $0.path == path }) { return .html(productPage(product)) }
            return .notFound
        }
    }

    /// The shop's stylesheet: every page links it, the crawl fetches it once. Its colours pass
    /// colour contrast, so the demo's issues stay the seeded ones; the chat panel it hides by
    /// class shows that hidden content is not audited as visible.
    static let styleSheet = """
        :root { --ink: #1b2a1f; --leaf: #1f5130; --paper: #fbfdf8; }
        body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
        .site-header, .site-footer { background: var(--leaf); color: #fff; padding: 0.5rem 1rem; }
        .site-header a, .site-footer a { color: #fff; }
        nav ul, .footer-links { list-style: none; display: flex; gap: 1rem; padding: 0; }
        main { padding: 1rem; }
        a { color: var(--leaf); }
        .price { font-weight: bold; color: #6b2d00; }
        .chat-panel { display: none; }
        @media (max-width: 600px) { nav ul { flex-direction: column; } }
        """

    // MARK: Shared parts

    private var isWeekTwo: Bool { week == .two }

    private func price(_ cents: Int) -> String {
        // Week 2 changes every price: digits are not part of an element's identity.
        let amount = isWeekTwo ? cents * 9 / 10 : cents
        return String(format: "€%d.%02d", amount / 100, amount % 100)
    }

    private func layout(title: String, lang: Bool = true, main: String) -> String {
        let notice = isWeekTwo ? "<p class=\"notice\">Free delivery on orders over €50 this week.</p>\n" : ""
        // Week 2 names the social link: the footer's link-name issue is fixed on every page at once.
        let social = isWeekTwo
            ? "<a href=\"https://social.example/canopy-garden\" aria-label=\"Follow us\"><span class=\"icon icon-social\"></span></a>"
            : "<a href=\"https://social.example/canopy-garden\"><span class=\"icon icon-social\"></span></a>"
        let navigation = Self.categories.map { "<li><a href=\"/category/\($0.0)\">\($0.1)</a></li>" }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html\(lang ? " lang=\"en\"" : "")>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) – Canopy Garden Supply</title>
            <link rel="stylesheet" href="/shop.css">
            </head>
            <body>
            <header class="site-header">
            <a href="/" class="logo"><img src="/img/logo.svg" alt="Canopy Garden Supply"></a>
            <form role="search" action="/search" method="get">
            <input type="search" name="q">
            <button type="submit">Search</button>
            </form>
            <nav aria-label="Main">
            <ul>
            <li><a href="/">Home</a></li>
            \(navigation)
            <li><a href="/cart">Cart</a></li>
            <li><a href="/about">About us</a></li>
            </ul>
            </nav>
            </header>
            <main>
            \(notice)\(main)
            </main>
            <footer class="site-footer">
            <p>© Canopy Garden Supply</p>
            <ul class="footer-links">
            <li><a href="/about">About us</a></li>
            <li><a href="/cart">Your cart</a></li>
            <li>\(social)</li>
            </ul>
            </footer>
            <div class="chat-widget" id="chat-widget">
            <button class="chat-open" type="button"><svg width="24" height="24" viewBox="0 0 24 24"><path d="M2 2h20v14H6l-4 4z"></path></svg></button>
            <div class="chat-panel" hidden><p>Chat with our plant experts.</p></div>
            </div>
            </body>
            </html>

            """
    }

    private func productCards(_ products: [Product]) -> String {
        let cardClass = isWeekTwo ? "card card--product" : "product-card"
        return products.map { product in
            "<li class=\"\(cardClass)\"><a href=\"\(product.path)\">\(product.name)</a> <span class=\"price\">\(price(product.cents))</span></li>"
        }.joined(separator: "\n")
    }

    // MARK: Pages

    private func home() -> String {
        var featured = Array(Self.products.prefix(6))
        if isWeekTwo { featured.reverse() }
        let promotion = isWeekTwo
            ? "<div class=\"promo\"><p>Spring sale: 20% off all pots.</p><button class=\"promo-close\" type=\"button\"></button></div>\n"
            : ""
        return layout(title: "Home", main: """
            \(promotion)<h1>Canopy Garden Supply</h1>
            <div role="hero" class="hero">
            <img src="/img/hero.jpg" width="1200" height="400">
            <p>Everything for a greener home.</p>
            </div>
            <h2>Featured products</h2>
            <ul class="featured">
            \(productCards(featured))
            </ul>
            <h2>Shop by category</h2>
            <ul>
            \(Self.categories.map { "<li><a href=\"/category/\($0.0)\">\($0.1)</a></li>" }.joined(separator: "\n"))
            </ul>
            """)
    }

    private func category(_ id: String, title: String) -> String {
        var products = Self.products.filter { $0.category == id }
        if isWeekTwo { products.reverse() }
        return layout(title: title, main: """
            <h1>\(title)</h1>
            <p>\(products.count) products, delivered in 2 to 4 days.</p>
            <h3>Bestsellers</h3>
            <ul class="\(isWeekTwo ? "product-grid" : "products")">
            \(productCards(products))
            </ul>
            """)
    }

    private func productPage(_ product: Product) -> String {
        let photo = isWeekTwo
            ? "<img src=\"/img/products/\(product.id).jpg\" class=\"product-photo\" alt=\"\(product.name) in a bright room\">"
            : "<img src=\"/img/products/\(product.id).jpg\" class=\"product-photo\">"
        let size = isWeekTwo ? "\n<select name=\"size\"><option>Small</option><option>Large</option></select>" : ""
        let categoryName = Self.categories.first { $0.0 == product.category }?.1 ?? product.category
        return layout(title: product.name, main: """
            <h1>\(product.name)</h1>
            \(photo)
            <p class="price">\(price(product.cents))</p>
            <form action="/cart" method="post">
            <input type="number" name="quantity" value="1" min="1">\(size)
            <button type="submit">Add to cart</button>
            </form>
            <button type="button" class="care-toggle" aria-expanded="open">Care instructions</button>
            <h2>Description</h2>
            <p>A customer favourite, packed with care and delivered to your door.</p>
            <p><a href="/category/\(product.category)">More from \(categoryName)</a></p>
            """)
    }

    private func cart() -> String {
        let coupon = isWeekTwo ? "\n<p><input type=\"text\" name=\"coupon\"> <button type=\"button\">Apply coupon</button></p>" : ""
        let item = Self.products[0]
        return layout(title: "Your cart", main: """
            <h1>Your cart</h1>
            <table>
            <thead><tr><th scope="col">Product</th><th scope="col">Quantity</th><th scope="col">Price</th></tr></thead>
            <tbody><tr><td><a href="\(item.path)">\(item.name)</a></td><td><input type="number" name="qty" value="1" min="1"></td><td>\(price(item.cents))</td></tr></tbody>
            </table>\(coupon)
            <p><a href="/checkout/">Proceed to checkout</a></p>
            """)
    }

    private func about() -> String {
        // Week 1 forgets the page's language: html-has-lang on this page only.
        layout(title: "About us", lang: isWeekTwo, main: """
            <h1>About us</h1>
            <img src="/img/team.jpg" width="600" height="300">
            <p>We are a small team of gardeners who have been helping city dwellers grow things since 2009.</p>
            <h2>Visit us</h2>
            <p>Our shop is open Tuesday to Saturday, 9:00 to 18:00.</p>
            """)
    }
}
