import CanopyAccessibility
import CanopyHTML
import Foundation

/// Links that lead to a place in the same page, as axe-core's skip-link and bypass rules read them.
struct SamePageLinks {
    let page: PageContext

    init(_ page: PageContext) { self.page = page }

    /// axe's skip link: a link to a place in this page that comes before the first link leading
    /// anywhere else, so that it is among the first things a keyboard user reaches.
    func isSkipLink(_ link: Element) -> Bool {
        guard let firstPageLink = firstPageLinkPosition else { return true }
        return link.position < firstPageLink
    }

    /// The first link that leaves this page (or reloads it, like `href="#"` or a `#/route`), once per page.
    private var firstPageLinkPosition: Int? {
        page.memo("optInB.firstPageLinkPosition") { () -> Int? in
            page.document.elements.first { element in
                guard element.isHTML, element.localName == "a", let href = element.attribute("href") else { return false }
                return !href.hasPrefix("javascript:") && !isSamePageReference(href)
            }?.position
        }
    }

    /// Whether `href` points into this page: `#name` (but not `#` alone, nor a `#/` or `#!` route,
    /// which script routers use for other views), `/#name` (Angular's form), or a URL that
    /// resolves to this page's address with a fragment.
    func isSamePageReference(_ href: String) -> Bool {
        if href.isEmpty || href == "#" { return false }
        if href.hasPrefix("/#") { return true }
        if let fragmentStart = href.firstIndex(of: "#") {
            let fragment = href[href.index(after: fragmentStart)...]
            if fragment.hasPrefix("/") || fragment.hasPrefix("!") { return false }
        }
        if href.hasPrefix("#") { return true }
        // Another address: the same page only when it resolves to the page's own origin and path.
        guard let pageURL = page.document.url.flatMap(URL.init(string:)), pageURL.host != nil,
            let linkURL = URL(string: href, relativeTo: pageURL)?.absoluteURL
        else { return false }
        return linkURL.scheme == pageURL.scheme && linkURL.host == pageURL.host && linkURL.port == pageURL.port
            && Self.path(of: linkURL) == Self.path(of: pageURL)
    }

    private static func path(of url: URL) -> String {
        let path = url.path
        return path.isEmpty ? "/" : path
    }

    /// The element a `#name` or `/#name` link leads to: the element with that id, else the first
    /// element with that `name`, as browsers scroll to it. Nil when there is none.
    func target(of link: Element) -> Element? {
        guard let href = link.attribute("href") else { return nil }
        let raw: Substring
        if href.hasPrefix("#") {
            raw = href.dropFirst()
        } else if href.hasPrefix("/#") {
            raw = href.dropFirst(2)
        } else {
            return nil
        }
        let fragment = String(raw).removingPercentEncoding ?? String(raw)
        if let byID = page.document.element(withID: fragment) { return byID }
        return elementsByName[fragment]
    }

    /// The first element carrying each `name`, built once per page.
    private var elementsByName: [String: Element] {
        page.memo("optInB.elementsByName") {
            var index: [String: Element] = [:]
            for element in page.document.elements where element.isHTML {
                if let name = element.attribute("name"), index[name] == nil { index[name] = element }
            }
            return index
        }
    }
}
