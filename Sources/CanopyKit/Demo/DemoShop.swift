import CanopyLoopbackServer
import Foundation

/// The sample shop `canopy demo` crawls: a garden store with a home page, five category pages,
/// twelve product pages, a cart and an about page, all sharing a header (with search and
/// navigation) and a footer, plus a vendor's chat widget on every page.
///
/// It has real accessibility problems, and eight weeks of history (`story`): fixes, regressions,
/// a product-template redesign that breaks every product page at once, an update of the vendor's
/// widget, a week in which the team enables one more rule, and unrelated markup churn that must
/// count as neither new nor fixed. The story is a table: each week lists its `Change`s, each change
/// names the violation issues it closes and opens, and the pages read only which edits are in
/// place. The demo's trend can therefore be checked against the table.
///
/// Week 1 violations, by issue (an issue on a template or a site-wide component counts once):
/// - header (every page): the search field has no label (`label`)
/// - footer (every page): the social link is empty (`link-name`)
/// - chat widget (every page, owned by `chat-vendor`): its button has no name (`button-name`);
///   being a button, it needs no landmark around it
/// - home: an invalid role `hero` (`aria-roles`), the hero image has no alt (`image-alt`)
/// - category template: the first heading after h1 is an h3 (`heading-order`)
/// - product template: the photo has no alt (`image-alt`), the quantity field has no label
///   (`label`), `aria-expanded="open"` (`aria-valid-attr-value`)
/// - cart: the quantity field has no label (`label`); the remove column's header is empty, which
///   only the opt-in `empty-table-header` reports (enabled in week 6)
/// - about: no `lang` on `<html>` (`html-has-lang`), the team photo has no alt (`image-alt`)
public struct DemoShop: Sendable {
    /// One piece of markup that a week of the story switches on; the pages ask `has(_:)`.
    public enum Edit: Sendable, CaseIterable {
        case socialLinkNamed, productPhotoAlt, aboutLang, promoBanner, sizeMenu, couponField
        case deliveryNotice, classesRenamed, listsReordered, pricesChanged
        case productRedesign
        case chatWidgetV2
        case addToCartNamed, ratingAlt, heroRoleRemoved, heroAlt
        case emptyTableHeaderRule
        case quantityLabel, reviewsLinkNamed, sizeMenuLabel, cartQuantityLabel, categoryHeadingOrder
        case saleNavLink, footerOpeningHours, descriptionsRewritten
        case removeHeaderText, promoCloseNamed, couponLabel, newsletterSignup
    }

    /// One change of the story and what it does to the site's violation issues (one issue per
    /// rule id listed, on a template or component however many pages it covers).
    public struct Change: Sendable {
        public enum Kind: Sendable {
            case fix, regression, churn
            /// The vendor changed its own widget: its issues move, the site's do not.
            case vendorUpdate
            /// The team changed the rule set: a jump the site did not cause.
            case ruleSet
        }

        public let edit: Edit
        public let kind: Kind
        public let summary: String
        public let closes: [String]
        public let opens: [String]
        /// Opt-in rules the change adds to the demo's rule set.
        public let enablesRules: [String]
        /// The vendor the changed issues belong to; nil for the shop's own markup.
        public let owner: String?

        init(_ edit: Edit, _ kind: Kind, _ summary: String, closes: [String] = [], opens: [String] = [], enablesRules: [String] = [], owner: String? = nil) {
            self.edit = edit
            self.kind = kind
            self.summary = summary
            self.closes = closes
            self.opens = opens
            self.enablesRules = enablesRules
            self.owner = owner
        }
    }

    public struct Week: Sendable {
        public let number: Int
        public let headline: String
        public let changes: [Change]

        /// Issues opened and closed by the week's changes (rule ids, one per issue).
        public var opened: [String] { changes.flatMap(\.opens) }
        public var closed: [String] { changes.flatMap(\.closes) }
    }

    /// The eight weeks, oldest first. Week 1 is the shop as it starts.
    public static let story: [Week] = [
        Week(number: 1, headline: "the first crawl", changes: []),
        Week(number: 2, headline: "fixes, regressions and churn", changes: [
            Change(.socialLinkNamed, .fix, "footer: the social media link gets a name", closes: ["link-name"]),
            Change(.productPhotoAlt, .fix, "product template: every product photo gets an alt text", closes: ["image-alt"]),
            Change(.aboutLang, .fix, "about page: <html lang=\"en\">", closes: ["html-has-lang"]),
            Change(.promoBanner, .regression, "home page: a promotion banner's close button has no name", opens: ["button-name"]),
            Change(.sizeMenu, .regression, "product template: a new size menu has no label", opens: ["select-name"]),
            Change(.couponField, .regression, "cart: a new coupon field has no label", opens: ["label"]),
            Change(.deliveryNotice, .churn, "a delivery notice at the top of every page"),
            Change(.classesRenamed, .churn, "product cards' classes renamed"),
            Change(.listsReordered, .churn, "featured products and category lists reordered"),
            Change(.pricesChanged, .churn, "all prices changed"),
        ]),
        Week(number: 3, headline: "a product-page redesign breaks all twelve product pages", changes: [
            Change(
                .productRedesign, .regression,
                "product template redesign: an icon-only add-to-cart button, star-rating image without alt, icon link to the reviews without a name",
                opens: ["button-name", "image-alt", "link-name"]
            ),
        ]),
        Week(number: 4, headline: "the chat vendor updates its widget", changes: [
            Change(
                .chatWidgetV2, .vendorUpdate, "chat widget 2.0: its button gets a name, but its new agent avatar has no alt and its new teaser line sits outside every landmark",
                closes: ["button-name"], opens: ["image-alt", "region"], owner: chatVendor
            ),
        ]),
        Week(number: 5, headline: "the redesign's fixes land", changes: [
            Change(.addToCartNamed, .fix, "product template: the add-to-cart button is named", closes: ["button-name"]),
            Change(.ratingAlt, .fix, "product template: the star rating gets an alt text", closes: ["image-alt"]),
            Change(.heroRoleRemoved, .fix, "home page: the invalid role=\"hero\" goes", closes: ["aria-roles"]),
            Change(.heroAlt, .fix, "home page: the hero image gets an alt text", closes: ["image-alt"]),
        ]),
        Week(number: 6, headline: "the team enables one more rule", changes: [
            Change(
                .emptyTableHeaderRule, .ruleSet, "rules.yml enables the opt-in empty-table-header: the cart's empty header cell, there all along, now counts",
                opens: ["empty-table-header"], enablesRules: ["empty-table-header"]
            ),
        ]),
        Week(number: 7, headline: "a round of form fixes, and more churn", changes: [
            Change(.quantityLabel, .fix, "product template: the quantity field is labelled", closes: ["label"]),
            Change(.reviewsLinkNamed, .fix, "product template: the reviews link is named", closes: ["link-name"]),
            Change(.sizeMenuLabel, .fix, "product template: the size menu is labelled", closes: ["select-name"]),
            Change(.cartQuantityLabel, .fix, "cart: the quantity field is labelled", closes: ["label"]),
            Change(.categoryHeadingOrder, .fix, "category template: h3 becomes h2", closes: ["heading-order"]),
            Change(.saleNavLink, .churn, "a sale link in the header's navigation"),
            Change(.footerOpeningHours, .churn, "opening hours in the footer"),
            Change(.descriptionsRewritten, .churn, "product descriptions rewritten"),
        ]),
        Week(number: 8, headline: "this week: three fixes, and a newsletter form without a label", changes: [
            Change(.removeHeaderText, .fix, "cart: the remove column's header says so", closes: ["empty-table-header"]),
            Change(.promoCloseNamed, .fix, "home page: the promotion's close button is named", closes: ["button-name"]),
            Change(.couponLabel, .fix, "cart: the coupon field is labelled", closes: ["label"]),
            Change(.newsletterSignup, .regression, "footer (every page): a newsletter sign-up whose e-mail field has no label", opens: ["label"]),
        ]),
    ]

    /// The vendor owning the chat widget, as the demo's canopy.yml names it.
    public static let chatVendor = "chat-vendor"
    public static let chatWidgetSelector = ".chat-widget"

    /// The opt-in rules the demo's rule set adds to Canopy's default set by `week`.
    public static func enabledRules(week: Int) -> [String] {
        story.prefix(week).flatMap(\.changes).flatMap(\.enablesRules)
    }

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

    /// The edits in place.
    public let edits: Set<Edit>

    /// The shop as it is in `week` (1 to `story.count`): every edit of that week and the ones before.
    public init(week: Int) {
        self.edits = Set(Self.story.prefix(week).flatMap(\.changes).map(\.edit))
    }

    public init(edits: Set<Edit>) {
        self.edits = edits
    }

    private func has(_ edit: Edit) -> Bool { edits.contains(edit) }

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
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        @media (max-width: 600px) { nav ul { flex-direction: column; } }
        """

    // MARK: Shared parts

    private func price(_ cents: Int) -> String {
        // Digits are not part of an element's identity: new prices move no issue.
        let amount = has(.pricesChanged) ? cents * 9 / 10 : cents
        return String(format: "€%d.%02d", amount / 100, amount % 100)
    }

    private func layout(title: String, lang: Bool = true, main: String) -> String {
        let notice = has(.deliveryNotice) ? "<p class=\"notice\">Free delivery on orders over €50 this week.</p>\n" : ""
        // Naming the social link fixes the footer's link-name issue on every page at once.
        let social = has(.socialLinkNamed)
            ? "<a href=\"https://social.example/canopy-garden\" aria-label=\"Follow us\"><span class=\"icon icon-social\"></span></a>"
            : "<a href=\"https://social.example/canopy-garden\"><span class=\"icon icon-social\"></span></a>"
        let sale = has(.saleNavLink) ? "<li><a href=\"/category/pots\">Spring sale</a></li>\n" : ""
        let navigation = Self.categories.map { "<li><a href=\"/category/\($0.0)\">\($0.1)</a></li>" }.joined(separator: "\n")
        let hours = has(.footerOpeningHours) ? "<p>Open Tuesday to Saturday, 9:00 to 18:00.</p>\n" : ""
        let newsletter = has(.newsletterSignup)
            ? "<form action=\"/newsletter\" method=\"post\" class=\"newsletter\"><p>Gardening tips once a month:</p><input type=\"email\" name=\"email\"> <button type=\"submit\">Sign up</button></form>\n"
            : ""
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
            \(sale)\(navigation)
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
            \(hours)\(newsletter)<ul class="footer-links">
            <li><a href="/about">About us</a></li>
            <li><a href="/cart">Your cart</a></li>
            <li>\(social)</li>
            </ul>
            </footer>
            \(chatWidget())
            </body>
            </html>

            """
    }

    /// The vendor's widget. Version 2 names its button with hidden text, and brings an avatar
    /// without alt (inside the button) and a teaser line: text, which unlike a button needs a
    /// landmark around it.
    private func chatWidget() -> String {
        let icon = "<svg width=\"24\" height=\"24\" viewBox=\"0 0 24 24\"><path d=\"M2 2h20v14H6l-4 4z\"></path></svg>"
        let version2 = has(.chatWidgetV2)
        let button = version2
            ? "<button class=\"chat-open chat-open--v2\" type=\"button\">\(icon)<img src=\"/img/chat/agent.png\" class=\"chat-avatar\" width=\"24\" height=\"24\">"
                + "<span class=\"visually-hidden\">Chat with us</span></button>"
            : "<button class=\"chat-open\" type=\"button\">\(icon)</button>"
        let teaser = version2 ? "\n<p class=\"chat-teaser\">Questions? Our plant experts are online.</p>" : ""
        return """
            <div class="chat-widget" id="chat-widget">
            \(button)\(teaser)
            <div class="chat-panel" hidden><p>Chat with our plant experts.</p></div>
            </div>
            """
    }

    private func productCards(_ products: [Product]) -> String {
        let cardClass = has(.classesRenamed) ? "card card--product" : "product-card"
        return products.map { product in
            "<li class=\"\(cardClass)\"><a href=\"\(product.path)\">\(product.name)</a> <span class=\"price\">\(price(product.cents))</span></li>"
        }.joined(separator: "\n")
    }

    // MARK: Pages

    private func home() -> String {
        var featured = Array(Self.products.prefix(6))
        if has(.listsReordered) { featured.reverse() }
        let close = has(.promoCloseNamed) ? "<button class=\"promo-close\" type=\"button\" aria-label=\"Close\"></button>" : "<button class=\"promo-close\" type=\"button\"></button>"
        let promotion = has(.promoBanner) ? "<div class=\"promo\"><p>Spring sale: 20% off all pots.</p>\(close)</div>\n" : ""
        let role = has(.heroRoleRemoved) ? "" : " role=\"hero\""
        let alt = has(.heroAlt) ? " alt=\"A sunlit room full of house plants\"" : ""
        return layout(title: "Home", main: """
            \(promotion)<h1>Canopy Garden Supply</h1>
            <div\(role) class="hero">
            <img src="/img/hero.jpg" width="1200" height="400"\(alt)>
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
        if has(.listsReordered) { products.reverse() }
        let level = has(.categoryHeadingOrder) ? "h2" : "h3"
        return layout(title: title, main: """
            <h1>\(title)</h1>
            <p>\(products.count) products, delivered in 2 to 4 days.</p>
            <\(level)>Bestsellers</\(level)>
            <ul class="\(has(.classesRenamed) ? "product-grid" : "products")">
            \(productCards(products))
            </ul>
            """)
    }

    private func productPage(_ product: Product) -> String {
        let alt = has(.productPhotoAlt) ? " alt=\"\(product.name) in a bright room\"" : ""
        let photo = "<img src=\"/img/products/\(product.id).jpg\" class=\"product-photo\"\(alt)>"
        let size = has(.sizeMenu)
            ? has(.sizeMenuLabel)
                ? "\n<label for=\"size\">Size</label> <select id=\"size\" name=\"size\"><option>Small</option><option>Large</option></select>"
                : "\n<select name=\"size\"><option>Small</option><option>Large</option></select>"
            : ""
        let quantity = has(.quantityLabel)
            ? "<label for=\"quantity\">Quantity</label> <input type=\"number\" id=\"quantity\" name=\"quantity\" value=\"1\" min=\"1\">"
            : "<input type=\"number\" name=\"quantity\" value=\"1\" min=\"1\">"
        // The redesign: an icon for "add to cart", a star rating, an icon link to the reviews.
        let redesigned = has(.productRedesign)
        let cartIcon = "<svg width=\"20\" height=\"20\" viewBox=\"0 0 20 20\"><path d=\"M2 2h3l2 10h10l2-7H6\"></path></svg>"
        let addToCart = !redesigned ? "<button type=\"submit\">Add to cart</button>"
            : has(.addToCartNamed) ? "<button type=\"submit\" class=\"add-to-cart\" aria-label=\"Add to cart\">\(cartIcon)</button>"
            : "<button type=\"submit\" class=\"add-to-cart\">\(cartIcon)</button>"
        var rating = ""
        if redesigned {
            let stars = "<img src=\"/img/rating-stars.svg\" class=\"rating\" width=\"80\" height=\"16\"\(has(.ratingAlt) ? " alt=\"Rated 4 out of 5\"" : "")>"
            let reviews = "<a href=\"#reviews\" class=\"reviews-link\"\(has(.reviewsLinkNamed) ? " aria-label=\"Read the reviews\"" : "")>"
                + "<svg width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"><path d=\"M2 2h12v9H5l-3 3z\"></path></svg></a>"
            rating = "\n<p class=\"rating-line\">\(stars) \(reviews)</p>"
        }
        let reviewsSection = redesigned ? "\n<h2 id=\"reviews\">Reviews</h2>\n<p>Customers love it.</p>" : ""
        let description = has(.descriptionsRewritten)
            ? "Grown and packed by people who care, and on your doorstep within days."
            : "A customer favourite, packed with care and delivered to your door."
        let categoryName = Self.categories.first { $0.0 == product.category }?.1 ?? product.category
        return layout(title: product.name, main: """
            <h1>\(product.name)</h1>
            \(photo)\(rating)
            <p class="price">\(price(product.cents))</p>
            <form action="/cart" method="post">
            \(quantity)\(size)
            \(addToCart)
            </form>
            <button type="button" class="care-toggle" aria-expanded="open">Care instructions</button>
            <h2>Description</h2>
            <p>\(description)</p>\(reviewsSection)
            <p><a href="/category/\(product.category)">More from \(categoryName)</a></p>
            """)
    }

    private func cart() -> String {
        let coupon = !has(.couponField) ? ""
            : has(.couponLabel) ? "\n<p><label for=\"coupon\">Coupon code</label> <input type=\"text\" id=\"coupon\" name=\"coupon\"> <button type=\"button\">Apply coupon</button></p>"
            : "\n<p><input type=\"text\" name=\"coupon\"> <button type=\"button\">Apply coupon</button></p>"
        let quantity = has(.cartQuantityLabel)
            ? "<input type=\"number\" name=\"qty\" value=\"1\" min=\"1\" aria-label=\"Quantity\">"
            : "<input type=\"number\" name=\"qty\" value=\"1\" min=\"1\">"
        // The remove column's header is empty from the start; only empty-table-header says so.
        let removeHeader = has(.removeHeaderText) ? "Remove" : ""
        let item = Self.products[0]
        return layout(title: "Your cart", main: """
            <h1>Your cart</h1>
            <table>
            <thead><tr><th scope="col">Product</th><th scope="col">Quantity</th><th scope="col">Price</th><th scope="col">\(removeHeader)</th></tr></thead>
            <tbody><tr><td><a href="\(item.path)">\(item.name)</a></td><td>\(quantity)</td><td>\(price(item.cents))</td><td><button type="button">Remove</button></td></tr></tbody>
            </table>\(coupon)
            <p><a href="/checkout/">Proceed to checkout</a></p>
            """)
    }

    private func about() -> String {
        // Until week 2 the page forgets its language: html-has-lang on this page only.
        layout(title: "About us", lang: has(.aboutLang), main: """
            <h1>About us</h1>
            <img src="/img/team.jpg" width="600" height="300">
            <p>We are a small team of gardeners who have been helping city dwellers grow things since 2009.</p>
            <h2>Visit us</h2>
            <p>Our shop is open Tuesday to Saturday, 9:00 to 18:00.</p>
            """)
    }
}
