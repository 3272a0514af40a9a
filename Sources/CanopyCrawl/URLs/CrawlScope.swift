/// Which URLs a crawl may fetch: those on its origins (the start URLs' by default,
/// plus any listed), minus excluded patterns, and, when include patterns are given,
/// only URLs matching one of them.
public struct CrawlScope: Sendable {
    /// The outcome for one URL; the crawl counts skips by this.
    public enum Decision: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case inScope = "in-scope"
        /// Another scheme, host or port than the crawl's origins.
        case offOrigin = "off-origin"
        /// Matches an exclude pattern (checked before include patterns).
        case excludedByPattern = "excluded-by-pattern"
        /// Include patterns are given and none matches.
        case notIncluded = "not-included"

        public var description: String { rawValue }
    }

    public private(set) var origins: Set<Origin>
    /// Hosts in scope on any scheme and port (lowercase), e.g. a gate's listed pages, whose
    /// http URL may move to https.
    public private(set) var hosts: Set<String> = []
    public let include: [URLPattern]
    public let exclude: [URLPattern]

    public init(startURLs: [CrawlURL], extraOrigins: [Origin] = [], include: [URLPattern] = [], exclude: [URLPattern] = []) {
        origins = Set(startURLs.map(\.origin)).union(extraOrigins)
        self.include = include
        self.exclude = exclude
    }

    /// Adds an origin, e.g. the one a start URL redirected to (http → https, or
    /// example.com → www.example.com), so the rest of the site is not off-origin.
    public mutating func addOrigin(_ origin: Origin) {
        origins.insert(origin)
    }

    /// Adds a host on every scheme and port.
    public mutating func addHost(_ host: String) {
        hosts.insert(host.lowercased())
    }

    public func decision(for url: CrawlURL) -> Decision {
        guard origins.contains(url.origin) || hosts.contains(url.host) else { return .offOrigin }
        if exclude.contains(where: { $0.matches(url) }) { return .excludedByPattern }
        if !include.isEmpty, !include.contains(where: { $0.matches(url) }) { return .notIncluded }
        return .inScope
    }

    public func contains(_ url: CrawlURL) -> Bool { decision(for: url) == .inScope }

    /// Whether a resource a page uses (a stylesheet) may be fetched: any URL on the crawl's
    /// origins. Include and exclude patterns choose the pages to audit, not what styles them: a
    /// crawl of `/docs/` still needs the site's `/static/site.css`.
    public func allowsResource(_ url: CrawlURL) -> Bool { origins.contains(url.origin) || hosts.contains(url.host) }
}
