import CanopyHTML

/// The outgoing links of one page and what the page says about following them.
public struct PageLinks: Sendable {
    public struct Link: Sendable, Hashable {
        public enum Source: String, Sendable, Hashable {
            case anchor = "a", area, iframe, frame
            /// `<meta http-equiv="refresh" content="5; url=…">`.
            case metaRefresh = "meta-refresh"
        }

        public var url: CrawlURL
        /// Where the URL was first found.
        public var source: Source
        /// Source line of that first occurrence.
        public var line: Int
        /// Every occurrence carries `rel="nofollow"`; one plain link to the same URL makes it followable.
        public var isNoFollow: Bool

        public init(url: CrawlURL, source: Source, line: Int, isNoFollow: Bool = false) {
            self.url = url
            self.source = source
            self.line = line
            self.isNoFollow = isNoFollow
        }
    }

    /// The page's own URL, as given to the extractor.
    public var pageURL: CrawlURL
    /// What relative links resolve against: the first `<base href>` when it is a valid
    /// http(s) URL, otherwise the page URL.
    public var baseURL: CrawlURL
    /// Unique http(s) targets in document order, the page itself left out.
    public var links: [Link]
    /// `<link rel="canonical" href>` resolved; noted for the record, never queued.
    public var canonical: CrawlURL?
    /// `<meta name="robots">` says nofollow (or none).
    public var metaRobotsNoFollow: Bool
    /// `<meta name="robots">` says noindex (or none).
    public var metaRobotsNoIndex: Bool
    /// Link targets that were dropped, by reason (e.g. `.unsupportedScheme("mailto")`: 3).
    public var rejected: [URLRejection: Int]

    /// Whether the canonical URL is the page itself (or there is none).
    public var canonicalIsSelf: Bool { canonical == nil || canonical == pageURL }

    /// The URLs a crawl should queue: all links, or, when honouring nofollow, none if the
    /// page's meta robots says nofollow and otherwise the links not marked rel=nofollow.
    public func followableURLs(honouringNoFollow: Bool) -> [CrawlURL] {
        guard honouringNoFollow else { return links.map(\.url) }
        guard !metaRobotsNoFollow else { return [] }
        return links.filter { !$0.isNoFollow }.map(\.url)
    }
}

/// Finds the links a crawler follows in a parsed page: `a[href]`, `area[href]`,
/// `iframe[src]`, `frame[src]` and `<meta http-equiv=refresh>` targets, resolved
/// against `<base href>` and normalized.
public struct LinkExtractor: Sendable {
    public var normalizer: URLNormalizer
    /// Whether frame sources are links to crawl. Not when frames are audited as part of the
    /// pages showing them: a frame's document alone is no page a user visits, and auditing it
    /// as one would report a missing title, language and landmarks nobody meets.
    public var followsFrames: Bool

    public init(normalizer: URLNormalizer = URLNormalizer(), followsFrames: Bool = true) {
        self.normalizer = normalizer
        self.followsFrames = followsFrames
    }

    private static let linkElementNames = ["a", "area", "iframe", "frame", "base", "link", "meta"]
    private static let rel = AttributeName("rel")

    /// `pageURL` is the final URL the page was fetched from (after redirects).
    public func extract(from document: Document, pageURL: CrawlURL) -> PageLinks {
        var references: [(text: String, source: PageLinks.Link.Source, line: Int, noFollow: Bool)] = []
        var baseHref: String?
        var canonicalHref: String?
        var noFollow = false, noIndex = false
        // Only the elements that can hold a link, found by name (a page's other elements are
        // most of it), then taken in document order as before.
        let candidates = Self.linkElementNames.flatMap(document.elements(named:)).sorted { $0.position < $1.position }
        for element in candidates {
            switch element.localName {
            case "a", "area":
                guard let href = element.attribute(.href) else { continue }
                // Most links have no rel: no token set is made for them.
                let isNoFollow = element.attribute(Self.rel).map { Self.tokens($0).contains("nofollow") } ?? false
                references.append((href, element.localName == "a" ? .anchor : .area, element.line, isNoFollow))
            case "iframe", "frame":
                guard followsFrames, element.isHTML, let src = element.attribute("src") else { continue }
                references.append((src, element.localName == "iframe" ? .iframe : .frame, element.line, false))
            case "base":
                if baseHref == nil, element.isHTML, let href = element.attribute("href") { baseHref = href }
            case "link":
                if canonicalHref == nil, element.isHTML, let href = element.attribute("href"),
                    Self.tokens(element.attribute("rel") ?? "").contains("canonical")
                {
                    canonicalHref = href
                }
            case "meta":
                guard element.isHTML else { continue }
                if let equiv = element.attribute("http-equiv"), ASCII.trimmed(equiv).lowercased() == "refresh",
                    let target = Self.refreshTarget(element.attribute("content") ?? "")
                {
                    references.append((target, .metaRefresh, element.line, false))
                } else if let name = element.attribute("name"), ASCII.trimmed(name).lowercased() == "robots" {
                    let directives = Self.tokens(element.attribute("content") ?? "", separators: ",")
                    if directives.contains("nofollow") || directives.contains("none") { noFollow = true }
                    if directives.contains("noindex") || directives.contains("none") { noIndex = true }
                }
            default:
                continue
            }
        }

        // A base that does not parse as http(s) is ignored, as browsers fall back to the document URL.
        let baseURL = baseHref.flatMap { try? normalizer.resolve($0, against: pageURL) } ?? pageURL
        var links: [PageLinks.Link] = []
        // Tables sized for a page's every reference were 15 MB of the peak of javadoc's page of
        // the uses of String (tens of thousands of links to a few thousand pages); grown from
        // empty, they were resized a dozen times on every page. Sized for a typical page.
        let expected = min(references.count, 512)
        var indexByURL: [CrawlURL: Int] = Dictionary(minimumCapacity: expected)
        var rejected: [URLRejection: Int] = [:]
        // Pages repeat the same hrefs (navigation, "back to top", type names): each text is
        // resolved and looked up once, as the base is the same for all of them; a repeat is one
        // lookup by its text.
        var outcomes: [String: ReferenceOutcome] = Dictionary(minimumCapacity: expected)
        for reference in references {
            let outcome: ReferenceOutcome
            if let known = outcomes[reference.text] {
                outcome = known
            } else {
                do throws(URLRejection) {
                    let url = try normalizer.resolve(reference.text, against: baseURL)
                    if url == pageURL {
                        outcome = .samePage
                    } else if let index = indexByURL[url] {
                        outcome = .link(index)
                    } else {
                        indexByURL[url] = links.count
                        outcome = .link(links.count)
                        links.append(PageLinks.Link(url: url, source: reference.source, line: reference.line, isNoFollow: reference.noFollow))
                    }
                } catch {
                    outcome = .rejected(error)
                }
                outcomes[reference.text] = outcome
            }
            switch outcome {
            case .link(let index): links[index].isNoFollow = links[index].isNoFollow && reference.noFollow
            case .samePage: continue
            case .rejected(let error): rejected[error, default: 0] += 1
            }
        }
        let canonical = canonicalHref.flatMap { try? normalizer.resolve($0, against: baseURL) }
        return PageLinks(
            pageURL: pageURL, baseURL: baseURL, links: links, canonical: canonical,
            metaRobotsNoFollow: noFollow, metaRobotsNoIndex: noIndex, rejected: rejected
        )
    }

    /// What a reference's text came to on its page.
    private enum ReferenceOutcome {
        /// The link at this index of the page's links (the first reference to its URL made it).
        case link(Int)
        /// The page itself, which is no link.
        case samePage
        case rejected(URLRejection)
    }

    /// Lowercased tokens separated by ASCII whitespace (and `separators`).
    private static func tokens(_ text: String, separators: String = "") -> Set<String> {
        let separatorBytes = Set(separators.utf8)
        let parts = text.utf8.split { ASCII.isWhitespace($0) || separatorBytes.contains($0) }
        return Set(parts.map { String(decoding: ASCII.lowercased($0), as: UTF8.self) })
    }

    /// The URL of a refresh declaration, as HTML's "shared declarative refresh steps"
    /// read it: a time, then ";" or ",", then optionally `url=`, then an optionally
    /// quoted URL. Nil when the content only reloads the page itself.
    static func refreshTarget(_ content: String) -> String? {
        var rest = Substring(content).drop { ASCII.isWhitespace($0.asciiValue ?? 0) }
        let time = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !time.isEmpty else { return nil }
        rest = rest.dropFirst(time.count).drop { ASCII.isWhitespace($0.asciiValue ?? 0) }
        if rest.first == ";" || rest.first == "," { rest = rest.dropFirst() }
        rest = rest.drop { ASCII.isWhitespace($0.asciiValue ?? 0) }
        guard !rest.isEmpty else { return nil }
        var url = rest
        if rest.prefix(3).lowercased() == "url" {
            let afterWord = rest.dropFirst(3).drop { ASCII.isWhitespace($0.asciiValue ?? 0) }
            if afterWord.first == "=" { url = afterWord.dropFirst().drop { ASCII.isWhitespace($0.asciiValue ?? 0) } }
        }
        if let quote = url.first, quote == "'" || quote == "\"" {
            url = url.dropFirst()
            if let end = url.firstIndex(of: quote) { url = url[..<end] }
        }
        let target = ASCII.trimmed(url)
        return target.isEmpty ? nil : String(target)
    }
}
