import CanopyCrawl
import CanopyHTML
import CanopyRules
import Foundation

/// Everything a crawl needs, resolved and compiled: URLs normalized, selectors parsed, the
/// rules chosen, credentials attached to the hosts they belong to. Built from a
/// `CrawlConfiguration` (canopy.yml plus command-line overrides) or directly in tests.
public struct CrawlPlan: Sendable {
    public typealias Sitemaps = CrawlConfiguration.Sitemaps
    public typealias Owner = CrawlConfiguration.Owner
    public typealias URLExclusion = CrawlConfiguration.URLExclusion

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
    /// Parsing and auditing threads.
    public var auditThreads = ProcessInfo.processInfo.activeProcessorCount
    /// URLs of one origin waiting in memory to be fetched; more wait in a temporary file.
    public var frontierMemory = 4096
    /// Where the frontier's temporary files go (unlinked as soon as they are made).
    public var frontierDirectory = NSTemporaryDirectory()
    public var auditor: Auditor
    public var exclude: [SelectorList] = []
    public var excludeByURL: [URLExclusion] = []
    public var ruleExclusions: [String: [SelectorList]] = [:]
    public var owners: [Owner] = []
    /// Headers (cookies included) sent only to `credentialHosts`, never to another host.
    public var credentialHeaders: [HTTPHeader] = []
    /// Host names (any port) or `host:port` pairs; by default the start URLs' own.
    public var credentialHosts: Set<String> = []

    public init(startURLs: [CrawlURL], rules: [any Rule]) {
        self.startURLs = startURLs
        self.scope = CrawlScope(startURLs: startURLs)
        self.auditor = Auditor(rules: rules)
        self.credentialHosts = Set(startURLs.map { "\($0.host):\($0.effectivePort)" })
    }

    /// The plan a configuration (canopy.yml with command-line overrides) describes.
    public init(configuration: CrawlConfiguration) throws(ConfigurationError) {
        try configuration.requireStartURLs()
        self.init(startURLs: configuration.startURLs, rules: try configuration.selectedRules())
        normalizer = configuration.normalizer
        startURLs = configuration.startURLs.map { normalizer.normalize($0) }
        scope = configuration.crawlScope
        sitemaps = configuration.sitemaps
        maxPages = configuration.limits.maxPages
        maxDepth = configuration.limits.maxDepth
        maxRedirects = configuration.limits.maxRedirects
        maxBytesPerPage = configuration.limits.maxBytes
        timeout = configuration.limits.timeout
        connectTimeout = configuration.limits.connectTimeout
        userAgent = configuration.politeness.userAgent
        let politeness = configuration.politeness
        fetchPolicy = FetchPolicy(
            maxInFlight: politeness.concurrency,
            maxPerHost: politeness.perHost,
            minimumInterval: politeness.requestsPerSecond > 0 ? 1 / politeness.requestsPerSecond : 0,
            retries: configuration.limits.retries
        )
        honoursRobots = politeness.robots
        honoursCrawlDelay = politeness.crawlDelay
        followsNofollow = configuration.scope.followNofollow
        exclude = configuration.exclude
        excludeByURL = configuration.excludeByURL
        ruleExclusions = configuration.excludeByRule
        owners = configuration.owners
        credentialHeaders = configuration.revealedCredentialHeaders()
        credentialHosts = configuration.credentialHosts
    }

    /// The product token robots.txt groups are matched against ("Canopy").
    var userAgentToken: String {
        String(userAgent.prefix { $0 != "/" && $0 != " " })
    }

    func mayReceiveCredentials(_ url: CrawlURL) -> Bool {
        credentialHosts.contains(url.host) || credentialHosts.contains("\(url.host):\(url.effectivePort)")
    }

    func exclusions(forURL url: String) -> [SelectorList] {
        exclude + excludeByURL.filter { $0.url.matches(urlString: url) }.flatMap(\.selectors)
    }

    /// The request for one hop: redirects are followed by the crawler, hop by hop, so that
    /// credentials go to their own hosts only and every hop is checked against the scope.
    func request(for url: CrawlURL) -> FetchRequest {
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
