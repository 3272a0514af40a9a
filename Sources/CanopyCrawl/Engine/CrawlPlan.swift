import Foundation

/// Everything the crawl engine needs to walk a site, resolved: URLs normalized, limits set,
/// credentials attached to the hosts they belong to. It says nothing of what is done with a page
/// once fetched: that is the page processor's business (`SiteCrawler`).
public struct CrawlPlan: Sendable {
    /// Where to look for sitemaps.
    public enum Sitemaps: Sendable, Equatable, Encodable {
        /// robots.txt `Sitemap:` lines, and /sitemap.xml on each start origin.
        case auto
        case none
        case listed([CrawlURL])

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .auto: try container.encode("auto")
            case .none: try container.encode("none")
            case .listed(let urls): try container.encode(urls)
            }
        }
    }

    public var startURLs: [CrawlURL]
    public var normalizer = URLNormalizer()
    public var scope: CrawlScope
    public var sitemaps: Sitemaps = .auto
    public var maxPages = 10_000
    public var maxDepth = 20
    public var maxRedirects = 10
    /// Sitemap files read at most (indexes can nest and repeat).
    public var maxSitemaps = CrawlPlan.defaultMaxSitemaps
    public static let defaultMaxSitemaps = 1_000
    public var maxBytesPerPage = FetchRequest.defaultMaxBodyBytes
    public var timeout: Double = 30
    public var connectTimeout: Double = 10
    public var userAgent = FetchRequest.defaultUserAgent
    public var fetchPolicy = FetchPolicy()
    public var honoursRobots = true
    public var honoursCrawlDelay = true
    /// A `Crawl-delay` longer than this is capped, so one line cannot stall a crawl for hours.
    public var maxCrawlDelay: Double = 60
    public var followsNofollow = false
    /// Threads that process fetched pages (parsing and auditing, for Canopy).
    public var workerThreads = ProcessInfo.processInfo.activeProcessorCount
    /// URLs of one origin waiting in memory to be fetched; more wait in a temporary file.
    public var frontierMemory = 4096
    /// Where the frontier's temporary files go (unlinked as soon as they are made).
    public var frontierDirectory = NSTemporaryDirectory()
    /// Headers (cookies included) sent only to `credentialHosts`, never to another host.
    public var credentialHeaders: [HTTPHeader] = []
    /// Host names (any port) or `host:port` pairs; by default the start URLs' own.
    public var credentialHosts: Set<String> = []
    /// Sign in through the site's form before crawling, and again when the session is lost.
    public var signIn: SignInPlan?
    /// Links never requested (sign-out and destructive links of a signed-in crawl).
    public var avoid: [URLPattern] = []

    public init(startURLs: [CrawlURL]) {
        self.startURLs = startURLs
        self.scope = CrawlScope(startURLs: startURLs)
        self.credentialHosts = Set(startURLs.map { "\($0.host):\($0.effectivePort)" })
    }

    public func mayReceiveCredentials(_ url: CrawlURL) -> Bool {
        credentialHosts.contains(url.host) || credentialHosts.contains("\(url.host):\(url.effectivePort)")
    }

    /// The request for one hop: redirects are followed by the crawler, hop by hop, so that
    /// credentials go to their own hosts only and every hop is checked against the scope.
    public func request(for url: CrawlURL) -> FetchRequest {
        FetchRequest(
            url: url.string,
            headers: mayReceiveCredentials(url) ? credentialHeaders : [],
            timeout: timeout,
            connectTimeout: connectTimeout,
            maxBodyBytes: maxBytesPerPage,
            maxRedirects: 0,
            userAgent: userAgent,
            followRedirects: false
        )
    }
}
