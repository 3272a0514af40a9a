import CanopyDiagnostics
import CanopyCrawl
import CanopyHTML
import CanopyHistory
import CanopyStore
import CanopyRules
import CanopyStyle
import Foundation

/// What is done with each page a crawl or a gate fetches: the rules that audit it, the parts of
/// the page left out, and which vendors own which widgets. The crawl itself is a `CrawlPlan`.
public struct AuditPlan: Sendable {
    public typealias Owner = CrawlConfiguration.Owner
    public typealias URLExclusion = CrawlConfiguration.URLExclusion

    public var auditor: Auditor
    public var exclude: [SelectorList] = []
    public var excludeByURL: [URLExclusion] = []
    public var ruleExclusions: [String: [SelectorList]] = [:]
    public var owners: [Owner] = []
    /// Whether linked stylesheets are loaded, and for which screen.
    public var styles = CrawlConfiguration.Styles()
    /// Whether a page whose content depends on scripts is audited as it is or reported as not audited.
    public var clientRendered = ClientRenderedPages.fail
    /// Whether frames are audited with the pages showing them (the `frames` key).
    public var auditsFrames = true
    let clientRendering = ClientRenderingDetector()

    public init(rules: [any Rule]) {
        self.auditor = Auditor(rules: rules)
    }

    /// The plan a configuration (canopy.yml with command-line overrides) describes.
    public init(configuration: CrawlConfiguration) throws(Diagnostic) {
        self.init(rules: try configuration.selectedRules())
        exclude = configuration.exclude
        excludeByURL = configuration.excludeByURL
        ruleExclusions = configuration.excludeByRule
        owners = configuration.owners
        styles = configuration.styles
        clientRendered = configuration.clientRendered
        auditsFrames = configuration.frames
    }

    /// Why a page is not audited, when it is a client-rendered shell and the plan does not audit those.
    func notAudited(_ document: Document) -> NotAudited? {
        guard clientRendered != .audit else { return nil }
        guard let verdict = clientRendering.verdictIfBare(for: document), verdict.isClientRendered else { return nil }
        return NotAudited(reason: NotAudited.clientRendered, details: verdict.descriptions)
    }

    /// The styling of one crawl: linked sheets fetched through `loader` once each, rule indexes
    /// shared by the pages that use the same sheets.
    func styleEnvironment(loader: StyleSheetFetcher) -> StyleEnvironment {
        StyleEnvironment(viewport: styles.viewport, loader: styles.enabled ? loader : nil)
    }

    func exclusions(forURL url: String) -> [SelectorList] {
        exclude + excludeByURL.filter { $0.url.matches(urlString: url) }.flatMap(\.selectors)
    }
}

extension CrawlPlan {
    /// The crawl a configuration (canopy.yml with command-line overrides) describes.
    public init(configuration: CrawlConfiguration) throws(Diagnostic) {
        try configuration.requireStartURLs()
        let normalizer = configuration.normalizer
        self.init(startURLs: configuration.startURLs.map { normalizer.normalize($0) })
        self.normalizer = normalizer
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
        credentialHeaders = configuration.revealedCredentialHeaders()
        credentialHosts = configuration.credentialHosts
        avoid = configuration.auth.avoidedLinks
        if let login = configuration.auth.login {
            let url = normalizer.normalize(login.url)
            guard mayReceiveCredentials(url) else {
                throw Diagnostic.configuration(
                    file: configuration.file ?? SourceLocation.commandLine, line: login.line, keyPath: "auth.login.url",
                    message: "the sign-in page is on \(url.host), which is not a host the credentials may go to; "
                        + "list it in auth.hosts (with the site's own hosts)"
                )
            }
            let fields = login.fields.map { SignInPlan.Field(name: $0.name, value: $0.value.revealed()) }
            signIn = SignInPlan(url: url, form: login.form, fields: fields, success: login.success)
        }
    }
}
