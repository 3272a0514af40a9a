import CanopyAccessibility
import CanopyHTML

/// Links that a screen reader lists under one name should lead to the same place (WCAG 2.4.9,
/// level AAA): a list of links all called "Read more" or "Contact us" is useless when each goes
/// elsewhere. Links whose addresses are the same resource pass; links whose addresses differ may
/// still serve one purpose (a page and its redirect, two copies of a document), which only a
/// person can judge, so they are left for review, as axe-core leaves them.
public struct IdenticalLinksSamePurposeRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "identical-links-same-purpose",
        impact: .minor,
        tags: ["cat.semantics", "wcag2aaa", "wcag249"],
        description: "Checks that links sharing an accessible name lead to the same resource",
        help: "Links with the same name should serve the same purpose",
        howToFix: "Name each link after where it leads (\"Contact sales\", \"Contact support\"), or point links that share a name at the same page.",
        enabledByDefault: false,
        rationale: "Opt-in, as in axe-core: a level AAA criterion, and links with different addresses can only be left for a person to compare."
    )

    public let selector = Self.links
    private static let links = try! SelectorList(#"a[href], area[href], [role="link"]"#)

    /// One result per name, on the first link that carries it (the others are named in its
    /// message), as axe-core reports it.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        let links = Self.namedLinks(on: page)
        guard let key = links.nameKeys[element.position] else { return false }
        return links.byName[key]?.first == element
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let links = Self.namedLinks(on: page)
        guard let key = links.nameKeys[element.position], let group = links.byName[key], group.count > 1 else { return .pass }
        let base = page.document.baseURL
        let resources = group.map { link in link.attribute("href").flatMap { LinkResource(href: $0, base: base) } }
        if let first = resources[0], resources.allSatisfy({ $0 == first }) { return .pass }
        let destinations = Set(resources.compactMap { $0 }).count
        let withoutAddress = resources.count { $0 == nil }
        var detail = "\(group.count) links are named \"\(key)\" and lead to \(destinations) different addresses"
        if withoutAddress > 0 { detail += " (\(withoutAddress) with no address Canopy can compare)" }
        return .incomplete(detail + ": check that they serve the same purpose.")
    }

    /// The links that take part, with the name each is compared by, and grouped by name in
    /// document order; found once per page.
    private struct NamedLinks {
        var nameKeys: [Int: String] = [:]
        var byName: [String: [Element]] = [:]
    }

    private static func namedLinks(on page: PageContext) -> NamedLinks {
        page.memo("identical-links-same-purpose.links") {
            var links = NamedLinks()
            let usedMaps = Set(page.document.elements(named: "img").compactMap { $0.attribute("usemap") })
            for link in Landmarks.reachable(Self.links, on: page) where takesPart(link, usedMaps: usedMaps, on: page) {
                // The name as people compare it: punctuation, symbols and emoji dropped,
                // whitespace collapsed, case ignored.
                let key = CuratedText.of(page.accessibility.accessibleName(of: link)).lowercased()
                guard !key.isEmpty else { continue }
                links.nameKeys[link.position] = key
                links.byName[key, default: []].append(link)
            }
            return links
        }
    }

    /// A link by role (an explicit other role takes it out), and an `<area>` only in an image map
    /// that an image uses.
    private static func takesPart(_ link: Element, usedMaps: Set<String>, on page: PageContext) -> Bool {
        if let role = page.accessibility.explicitRole(of: link), role != "link" { return false }
        guard link.isHTML, link.localName == "area" else { return true }
        guard let map = link.ancestors.first(where: { $0.localName == "map" }), let name = map.attribute("name"), !name.isEmpty else {
            return false
        }
        return usedMaps.contains("#" + name)
    }

    public let examples = RuleExamples(
        passing: [
            #"<a href="/contact">Contact us</a> <a href="/contact/">Contact us</a>"#,
            #"<a href="/home/">Home</a> <a href="/home/index.html">home!</a> <a href="/home#top">Home</a>"#,
            // https and http, a default port spelt out, the query in another order: the same resource.
            #"<a href="http://example.com/s?a=1&amp;b=2">Search</a> <a href="https://example.com:443/s?b=2&amp;a=1">Search</a>"#,
            // A single link has no twin to disagree with.
            #"<a href="/about">About us</a> <a href="/jobs">Jobs</a>"#,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<a href="/sales/contact">Contact us</a> <a href="/support/contact">Contact us</a>"#, at: #"[href="/sales/contact"]"#),
            RuleExample(#"<a href="/app#/inbox">Open</a> <a href="/app#/outbox">OPEN &gt;&gt;</a>"#, at: #"[href="/app#/inbox"]"#),
            RuleExample(#"<span role="link" tabindex="0">Next</span> <a href="/page/2">Next</a>"#, at: "span"),
            // Punctuation is dropped, not taken for a space, as axe-core compares names.
            RuleExample(#"<a href="/mail">E-mail us</a> <a href="/contact">Email us</a>"#, at: #"[href="/mail"]"#),
        ],
        inapplicable: [
            #"<a>Contact us</a> <a>Contact us</a>"#,
            #"<a href="/a" role="button">Save</a> <a href="/b" role="button">Save</a>"#,
            #"<a href="/a">  </a> <a href="/b">🙂</a>"#,
            // The map is used by no image, so its areas are not links anyone sees.
            #"<map name="m"><area href="/a" alt="Map"><area href="/b" alt="Map"></map>"#,
        ]
    )
}
