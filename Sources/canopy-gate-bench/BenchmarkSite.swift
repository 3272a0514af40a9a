import CanopySyntheticHistory
/// Fifty pages of a made-up outdoor-gear shop for the gate benchmark: a home page, category
/// listings, product pages, guides and help pages, 10–50 KB each, sharing a large header and
/// footer as real storefronts do, with inline scripts, structured data, SVG icons, forms and
/// tables. Some pages carry the problems real shops have (images without alt, icon buttons
/// without a name, an unlabelled field, a skipped heading level), so the gate has findings to
/// compare with its baseline. Deterministic: the same pages on every run.
struct BenchmarkSite {
    static let pageCount = 50

    /// Path → HTML.
    let pages: [String: String]

    var paths: [String] { pages.keys.sorted() }

    init() {
        var random = SplitMix64(seed: 0xC0FFEE)
        var pages: [String: String] = ["/": Self.home(&random)]
        for index in 1...5 { pages["/c/\(Self.categories[index - 1].slug)"] = Self.category(index - 1, &random) }
        for id in 1...30 { pages["/p/\(1000 + id)"] = Self.product(id, &random) }
        for index in 1...10 { pages["/guides/\(Self.guideTopics[index - 1].slug)"] = Self.guide(index - 1, &random) }
        for index in 1...4 { pages["/help/\(Self.helpTopics[index - 1])"] = Self.help(index - 1, &random) }
        precondition(pages.count == Self.pageCount)
        self.pages = pages
    }

    // MARK: Vocabulary

    static let categories = [
        (slug: "tents", name: "Tents"), (slug: "sleeping-bags", name: "Sleeping bags"), (slug: "backpacks", name: "Backpacks"),
        (slug: "cookware", name: "Camp kitchen"), (slug: "lighting", name: "Lamps and torches"),
    ]
    static let guideTopics = [
        (slug: "first-night-outdoors", title: "Your first night outdoors"), (slug: "layering", title: "Layering for cold weather"),
        (slug: "pitching-in-wind", title: "Pitching a tent in the wind"), (slug: "water", title: "Finding and treating water"),
        (slug: "packing-light", title: "Packing light"), (slug: "stove-care", title: "Looking after a stove"),
        (slug: "leave-no-trace", title: "Leave no trace"), (slug: "map-reading", title: "Reading a map"),
        (slug: "boots", title: "Choosing boots"), (slug: "winter-camping", title: "Camping in winter"),
    ]
    static let helpTopics = ["delivery", "returns", "warranty", "contact"]
    static let adjectives = ["Alpine", "Ridge", "Summit", "Trail", "Canyon", "Fjord", "Tundra", "Cedar", "Granite", "Harbour"]
    static let nouns = ["Dome 2", "Trek 45", "Down 800", "Lite Pot", "Beam 300", "Tarp XL", "Flask", "Hut 4", "Pack 30", "Quilt"]
    static let words = """
        durable lightweight weatherproof seams taped fabric ripstop nylon pole aluminium frame vestibule porch guy line peg
        zip pocket mesh ventilation condensation groundsheet pitch minutes rain wind snow season comfort temperature rating
        insulation loft baffle hood shoulder hip belt frame sheet volume litres grams carry strap buckle bottle stove fuel
        canister simmer boil burner lid handle folding beam lumen battery charge hours red light mode strap headband
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    static func sentence(_ random: inout SplitMix64, words count: Int) -> String {
        var text = (0..<count).map { _ in words[random.next(below: words.count)] }.joined(separator: " ")
        text = text.prefix(1).uppercased() + text.dropFirst()
        return text + "."
    }

    static func paragraph(_ random: inout SplitMix64, sentences: Int) -> String {
        "<p>" + (0..<sentences).map { _ in sentence(&random, words: 8 + random.next(below: 10)) }.joined(separator: " ") + "</p>"
    }

    static func productName(_ id: Int) -> String { "\(adjectives[id % adjectives.count]) \(nouns[(id * 7) % nouns.count])" }

    // MARK: Shared parts

    static let icon = #"<svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 16 16"><path d="M2 8h12M8 2v12" stroke="currentColor" stroke-width="2"/></svg>"#

    static func document(path: String, title: String, description: String, main: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) | Northfield Outdoor</title>
        <meta name="description" content="\(description)">
        <link rel="stylesheet" href="/assets/site.4f9a1c.css">
        <link rel="preload" href="/assets/fonts/inter.woff2" as="font" type="font/woff2" crossorigin>
        <link rel="canonical" href="https://www.northfield.example\(path)">
        <script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-XXXX',{anonymize_ip:true});</script>
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Northfield Outdoor","url":"https://www.northfield.example/","logo":"https://www.northfield.example/assets/logo.svg","sameAs":["https://social.example/northfield"]}</script>
        </head>
        <body class="page">
        <a class="skip" href="#main">Skip to content</a>
        \(header)
        <main id="main">
        \(main)
        </main>
        \(footer)
        <script src="/assets/site.81b2e0.js" defer></script>
        </body>
        </html>
        """
    }

    static let header: String = {
        let menus = categories.map { category in
            let links = (1...8).map { n in "<li><a href=\"/c/\(category.slug)?type=\(n)\">\(category.name) type \(n)</a></li>" }.joined()
            return "<li class=\"menu\"><a href=\"/c/\(category.slug)\">\(category.name)</a><ul class=\"submenu\">\(links)</ul></li>"
        }.joined(separator: "\n")
        return """
            <header class="site-header">
            <div class="promo" role="region" aria-label="Offers"><p>Free delivery over €60. Returns within 60 days.</p></div>
            <a class="logo" href="/"><img src="/assets/logo.svg" alt="Northfield Outdoor" width="160" height="40"></a>
            <form class="search" role="search" action="/search"><label for="q">Search the shop</label><input id="q" name="q" type="search" autocomplete="off"><button type="submit">\(icon)<span class="visually-hidden">Search</span></button></form>
            <nav aria-label="Main"><ul class="menu-bar">
            \(menus)
            </ul></nav>
            <nav aria-label="Account"><a href="/account">Account</a> <a href="/wishlist">Wishlist</a> <a href="/cart">Basket (0)</a></nav>
            </header>
            """
    }()

    static let footer: String = {
        let columns = ["Shop", "Help", "About us", "Guides"].map { heading in
            let links = (1...7).map { n in "<li><a href=\"/\(heading.lowercased().replacingOccurrences(of: " ", with: "-"))/\(n)\">\(heading) link \(n)</a></li>" }.joined()
            return "<div class=\"column\"><h2>\(heading)</h2><ul>\(links)</ul></div>"
        }.joined(separator: "\n")
        return """
            <footer class="site-footer">
            \(columns)
            <form class="newsletter" action="/newsletter"><label for="email">Email for our newsletter</label><input id="email" name="email" type="email" autocomplete="email"><button type="submit">Subscribe</button></form>
            <p class="social"><a href="https://social.example/northfield"><svg width="24" height="24" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10"/></svg></a></p>
            <p class="legal">© Northfield Outdoor. <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · <a href="/cookies">Cookies</a></p>
            </footer>
            """
    }()

    static func productCard(_ id: Int, withAlt: Bool) -> String {
        // The card's heading names the product, so its image is decorative (empty alt).
        let alt = withAlt ? " alt=\"\"" : ""
        return """
            <li class="card"><a href="/p/\(1000 + id)"><img src="/img/p/\(1000 + id)-400.jpg"\(alt) width="400" height="400" loading="lazy">
            <h3>\(productName(id))</h3></a><p class="price">€\(49 + id * 13 % 400).\(id % 10)9</p>
            <button type="button" class="add" data-id="\(1000 + id)">Add to basket</button></li>
            """
    }

    // MARK: Page types

    static func home(_ random: inout SplitMix64) -> String {
        let featured = (1...12).map { productCard($0, withAlt: true) }.joined(separator: "\n")
        let main = """
            <section class="hero"><h1>Gear for every season</h1>\(paragraph(&random, sentences: 3))
            <img src="/img/hero-autumn.jpg" width="1600" height="700"><a class="cta" href="/c/tents">Shop tents</a></section>
            <section aria-labelledby="featured"><h2 id="featured">Featured this week</h2><ul class="grid">
            \(featured)
            </ul></section>
            <section aria-labelledby="guides"><h2 id="guides">From our guides</h2>
            \(guideTopics.prefix(6).map { "<article><h3><a href=\"/guides/\($0.slug)\">\($0.title)</a></h3>\(paragraph(&random, sentences: 2))</article>" }.joined(separator: "\n"))
            </section>
            """
        return document(path: "/", title: "Outdoor gear", description: "Tents, sleeping bags and packs.", main: main)
    }

    static func category(_ index: Int, _ random: inout SplitMix64) -> String {
        let category = categories[index]
        let cards = (1...36).map { productCard(index * 36 + $0, withAlt: ($0 + index) % 9 != 0) }.joined(separator: "\n")
        let filters = ["Brand", "Weight", "Season", "Price"].map { facet in
            "<fieldset><legend>\(facet)</legend>" + (1...5).map { n in
                "<label><input type=\"checkbox\" name=\"\(facet.lowercased())\" value=\"\(n)\"> \(facet) option \(n)</label>"
            }.joined() + "</fieldset>"
        }.joined(separator: "\n")
        let main = """
            <nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li aria-current="page">\(category.name)</li></ol></nav>
            <h1>\(category.name)</h1>\(paragraph(&random, sentences: 4))
            <form class="filters" action="/c/\(category.slug)">\(filters)<button type="submit">Apply filters</button></form>
            <label for="sort">Sort by</label><select id="sort" name="sort"><option>Popularity</option><option>Price, low to high</option><option>Price, high to low</option><option>Newest</option></select>
            <ul class="grid">
            \(cards)
            </ul>
            <nav aria-label="Pages"><a href="?page=1" aria-current="page">1</a> <a href="?page=2">2</a> <a href="?page=3">3</a> <a href="?page=2">Next</a></nav>
            """
        return document(path: "/c/\(category.slug)", title: category.name, description: "All our \(category.name.lowercased()).", main: main)
    }

    static func product(_ id: Int, _ random: inout SplitMix64) -> String {
        let name = productName(id)
        let gallery = (1...6).map { n in
            // Every fourth product's extra photos lack an alt text: a known template problem.
            let alt = id % 4 == 0 && n > 1 ? "" : " alt=\"\(name), view \(n)\""
            return "<li><img src=\"/img/p/\(1000 + id)-\(n).jpg\"\(alt) width=\"800\" height=\"800\"></li>"
        }.joined()
        let specs = ["Weight", "Packed size", "Fabric", "Poles", "Season", "Capacity", "Colour", "Warranty"].map {
            "<tr><th scope=\"row\">\($0)</th><td>\(sentence(&random, words: 3))</td></tr>"
        }.joined()
        let reviews = (1...(3 + random.next(below: 28))).map { n in
            "<article class=\"review\"><h3>\(sentence(&random, words: 4))</h3><p class=\"stars\">\(1 + (n * id) % 5) of 5 stars</p>\(paragraph(&random, sentences: 2 + random.next(below: 4)))</article>"
        }.joined(separator: "\n")
        let related = (1...8).map { productCard((id + $0 * 3) % 120 + 1, withAlt: true) }.joined(separator: "\n")
        // Some products ship an icon-only wishlist button and an unlabelled quantity field.
        let wishlist = id % 3 == 0
            ? "<button type=\"button\" class=\"wishlist\">\(icon)</button>"
            : "<button type=\"button\" class=\"wishlist\">\(icon) Save to wishlist</button>"
        let quantity = id % 5 == 0
            ? "<input type=\"number\" name=\"qty\" value=\"1\" min=\"1\">"
            : "<label for=\"qty\">Quantity</label><input id=\"qty\" type=\"number\" name=\"qty\" value=\"1\" min=\"1\">"
        let main = """
            <nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/c/\(categories[id % 5].slug)">\(categories[id % 5].name)</a></li><li aria-current="page">\(name)</li></ol></nav>
            <div class="product"><ul class="gallery">\(gallery)</ul>
            <div class="buy"><h1>\(name)</h1><p class="price">€\(89 + id * 17 % 500).00</p>
            <form action="/cart" method="post">\(quantity)
            <fieldset><legend>Colour</legend><label><input type="radio" name="colour" value="green" checked> Forest green</label><label><input type="radio" name="colour" value="grey"> Slate grey</label></fieldset>
            <button type="submit">Add to basket</button>\(wishlist)</form></div></div>
            <section aria-labelledby="about"><h2 id="about">About the \(name)</h2>\((1...(3 + random.next(below: 6))).map { _ in paragraph(&random, sentences: 4 + random.next(below: 4)) }.joined())</section>
            <section aria-labelledby="specs"><h2 id="specs">Specifications</h2><table><caption>Specifications of the \(name)</caption><tbody>\(specs)</tbody></table></section>
            <section aria-labelledby="reviews"><h2 id="reviews">Reviews</h2>
            \(reviews)
            </section>
            <section aria-labelledby="related"><h2 id="related">You may also like</h2><ul class="grid">
            \(related)
            </ul></section>
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"\(name)","sku":"\(1000 + id)","offers":{"@type":"Offer","priceCurrency":"EUR","price":"\(89 + id * 17 % 500).00"}}</script>
            """
        return document(path: "/p/\(1000 + id)", title: name, description: "\(name): specifications, reviews and prices.", main: main)
    }

    static func guide(_ index: Int, _ random: inout SplitMix64) -> String {
        let topic = guideTopics[index]
        var sections = ""
        for part in 1...(4 + random.next(below: 12)) {
            // Some guides jump from h2 to h4: the heading-order problem editors make.
            let heading = index % 4 == 1 && part == 2 ? "h4" : "h2"
            sections += "<\(heading)>\(sentence(&random, words: 4))</\(heading)>"
            sections += (1...(2 + random.next(below: 6))).map { _ in paragraph(&random, sentences: 5 + random.next(below: 6)) }.joined()
            if part % 3 == 0 { sections += "<figure><img src=\"/img/guides/\(topic.slug)-\(part).jpg\" alt=\"\(sentence(&random, words: 6))\"><figcaption>\(sentence(&random, words: 9))</figcaption></figure>" }
        }
        let main = """
            <article><h1>\(topic.title)</h1><p class="byline">By the Northfield team · 8 min read</p>
            \(sections)
            </article>
            <aside aria-labelledby="more"><h2 id="more">More guides</h2><ul>\(guideTopics.map { "<li><a href=\"/guides/\($0.slug)\">\($0.title)</a></li>" }.joined())</ul></aside>
            """
        return document(path: "/guides/\(topic.slug)", title: topic.title, description: topic.title + ", step by step.", main: main)
    }

    static func help(_ index: Int, _ random: inout SplitMix64) -> String {
        let topic = helpTopics[index]
        let questions = (1...12).map { n in
            "<details><summary>\(sentence(&random, words: 6).dropLast())?</summary>\(paragraph(&random, sentences: 3 + n % 3))</details>"
        }.joined(separator: "\n")
        let contact = topic == "contact"
            ? """
                <form action="/contact" method="post"><label for="name">Name</label><input id="name" name="name" autocomplete="name">
                <label for="mail">Email</label><input id="mail" name="mail" type="email" autocomplete="email">
                <label for="order">Order number</label><input id="order" name="order">
                <label for="message">Message</label><textarea id="message" name="message" rows="6"></textarea><button type="submit">Send</button></form>
                """
            : ""
        let main = """
            <h1>Help: \(topic)</h1>\(paragraph(&random, sentences: 3))
            \(questions)
            \(contact)
            """
        return document(path: "/help/\(topic)", title: "Help: \(topic)", description: "Answers about \(topic).", main: main)
    }
}
