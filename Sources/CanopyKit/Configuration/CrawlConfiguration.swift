import CanopyDiagnostics
import CanopyHistory
import CanopyCrawl
import CanopyHTML
import CanopyReports
import CanopyRules
import CanopyStyle
import Foundation

/// What `canopy crawl` does, as `canopy.yml` says (docs/configuration.md), with a
/// default for every key, so `CrawlConfiguration(startURLs:)` is a complete
/// configuration without any file. Command-line flags apply through `applying(_:)`.
///
/// Relative paths are already resolved against the configuration file's folder.
/// Credential values are `Secret`s: printing or encoding the configuration shows "••••".
public struct CrawlConfiguration: Sendable, Encodable {
    public typealias Sitemaps = CrawlPlan.Sitemaps

    public struct Scope: Sendable, Encodable {
        /// Origins crawled besides the start URLs' own.
        public var origins: [Origin] = []
        /// When not empty, only URLs matching one of these are crawled.
        public var include: [URLPattern] = []
        /// URLs matching one of these are never crawled (checked before `include`).
        public var exclude: [URLPattern] = []
        /// Query parameter names (globs with `*`) removed from every URL.
        public var stripQuery: [String] = []
        /// Sort query parameters by name, so reordered queries are one URL.
        public var sortQuery = false
        /// Follow links marked rel=nofollow and pages with meta robots nofollow.
        public var followNofollow = false

        public init() {}

        enum CodingKeys: String, CodingKey {
            case origins, include, exclude, stripQuery = "strip-query", sortQuery = "sort-query", followNofollow = "follow-nofollow"
        }
    }

    public struct Limits: Sendable, Encodable {
        public var maxPages = 10_000
        public var maxDepth = 20
        /// Per page body, after decoding.
        public var maxBytes = 10 * 1024 * 1024
        /// Seconds for a whole fetch.
        public var timeout: Double = 30
        public var connectTimeout: Double = 10
        /// Extra attempts after a timeout, a 5xx or a 429.
        public var retries = 2
        public var maxRedirects = 10

        public init() {}

        enum CodingKeys: String, CodingKey {
            case maxPages = "max-pages", maxDepth = "max-depth", maxBytes = "max-bytes", timeout
            case connectTimeout = "connect-timeout", retries, maxRedirects = "max-redirects"
        }
    }

    public struct Politeness: Sendable, Encodable {
        public static let defaultUserAgent = "Canopy/\(CanopyVersion.current) (+accessibility audit)"

        /// Requests in flight in total.
        public var concurrency = 16
        /// Requests in flight to one host.
        public var perHost = 8
        /// Per host; 0 means no pacing beyond `perHost`.
        public var requestsPerSecond: Double = 0
        /// Honour robots.txt.
        public var robots = true
        /// Honour robots.txt `Crawl-delay`.
        public var crawlDelay = true
        public var userAgent = Politeness.defaultUserAgent

        public init() {}

        enum CodingKeys: String, CodingKey {
            case concurrency, perHost = "per-host", requestsPerSecond = "requests-per-second", robots
            case crawlDelay = "crawl-delay", userAgent = "user-agent"
        }
    }

    public struct Auth: Sendable, Encodable {
        /// Hosts the credentials may be sent to; nil means the start URLs' hosts.
        public var hosts: [String]?
        /// Request headers, in file order.
        public var headers: [Credential] = []
        /// Cookies, in file order, sent as one Cookie header.
        public var cookies: [Credential] = []
        /// Sign in through the site's form (`auth.login`).
        public var login: Login?
        /// Links never requested; nil means `AvoidedLinks.defaultPatterns` when signing in
        /// through a form, and nothing otherwise (see `avoidedLinks`).
        public var avoid: [URLPattern]?

        public init() {}

        /// What the crawl never requests: the file's `auth.avoid` on any crawl that lists it,
        /// else the sign-out and destructive defaults when the crawl signs in through a form.
        /// An anonymous crawl follows such links as any visitor can (a page called
        /// "/blog/remove-stains" is content), and a signed-in one must not.
        public var avoidedLinks: [URLPattern] {
            avoid ?? (login != nil ? AvoidedLinks.defaultPatterns : [])
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encodeIfPresent(hosts, forKey: DynamicKey("hosts"))
            // Names only: every value encodes as "••••".
            try container.encode(Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }), forKey: DynamicKey("headers"))
            try container.encode(Dictionary(cookies.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }), forKey: DynamicKey("cookies"))
            // Written only when set, so runs recorded before sign-in existed keep their digest.
            try container.encodeIfPresent(login, forKey: DynamicKey("login"))
            try container.encodeIfPresent(avoid, forKey: DynamicKey("avoid"))
        }
    }

    /// A sign-in form (`auth.login`): the field values are secrets, the rest is not.
    public struct Login: Sendable, Encodable {
        /// The page with the form.
        public var url: CrawlURL
        /// Which form; nil means the one with a password field.
        public var form: SelectorList?
        /// Typed into the form's fields, by field name, in file order.
        public var fields: [Credential]
        public var success: SignInPlan.Success = .formGone
        /// Where `url` is in the file, for errors found once the start URLs are known.
        public var line: Int?

        public init(url: CrawlURL, form: SelectorList? = nil, fields: [Credential], success: SignInPlan.Success = .formGone) {
            self.url = url
            self.form = form
            self.fields = fields
            self.success = success
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encode(url, forKey: DynamicKey("url"))
            try container.encodeIfPresent(form?.text, forKey: DynamicKey("form"))
            try container.encode(Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }), forKey: DynamicKey("fields"))
            switch success {
            case .cookie(let name): try container.encode(["cookie": name], forKey: DynamicKey("success"))
            case .url(let pattern): try container.encode(["url": pattern.text], forKey: DynamicKey("success"))
            case .selector(let selector): try container.encode(["selector": selector.text], forKey: DynamicKey("success"))
            case .formGone: break
            }
        }
    }

    public struct Rules: Sendable, Encodable {
        /// A rule set file, resolved; nil means Canopy's default set.
        public var set: String?
        /// Rule ids to run, from the set; empty means all of the set's rules.
        public var only: [String] = []

        public init() {}
    }

    /// Selectors excluded on the pages whose URL matches.
    public struct URLExclusion: Sendable, Encodable {
        public var url: URLPattern
        public var selectors: [SelectorList]

        public init(url: URLPattern, selectors: [SelectorList]) {
            self.url = url
            self.selectors = selectors
        }

        enum CodingKeys: String, CodingKey { case url, selectors }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(selectors.map(\.text), forKey: .selectors)
        }
    }

    /// Elements a vendor owns: audited, their findings attributed to it.
    public struct Owner: Sendable {
        public var name: String
        public var selectors: [SelectorList]

        public init(name: String, selectors: [SelectorList]) {
            self.name = name
            self.selectors = selectors
        }
    }

    public struct Output: Sendable, Encodable {
        /// Folder for reports, resolved.
        public var reports = "Reports"
        /// The SQLite run store, resolved; nil means `<reports>/canopy.sqlite`.
        public var store: String?

        public init() {}

        public var storePath: String { store ?? (reports as NSString).appendingPathComponent("canopy.sqlite") }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encode(reports, forKey: DynamicKey("reports"))
            try container.encode(storePath, forKey: DynamicKey("store"))
        }
    }

    public struct Components: Sendable, Encodable {
        /// Share of pages (0 < share ≤ 1) a subtree must appear on to count as a site-wide component.
        public var minShare = 0.5

        public init() {}

        enum CodingKeys: String, CodingKey { case minShare = "min-share" }
    }

    /// How pages are styled: whether linked stylesheets are loaded, and the screen size media
    /// queries are evaluated for.
    public struct Styles: Sendable, Encodable, Equatable {
        /// Load linked stylesheets (`false`: `<style>` and `style=""` only, as a cheaper crawl).
        public var enabled = true
        public var viewport = Viewport.desktop

        public init() {}

        enum CodingKeys: String, CodingKey { case enabled, viewport }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(enabled, forKey: .enabled)
            try container.encode(viewport.description, forKey: .viewport)
        }
    }

    /// Where the weekly digest is posted after each crawl (the `notify:` section, or `--notify`).
    /// Left out of `configHash`, like `gate`: it changes nothing a crawl records.
    public struct Notify: Sendable, Equatable {
        /// A chat webhook; a secret, since such addresses carry their token.
        public var url: Secret?
        public var timeout: Double = 10
        /// Attempts after the first, for timeouts, 5xx and 429 answers.
        public var retries = 2

        public init() {}

        /// `text` as a webhook address: http or https only, so a typo never posts elsewhere.
        static func webhook(_ text: String) -> Secret? {
            guard let scheme = URLComponents(string: text)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return nil }
            return Secret(text)
        }
    }

    /// Where crawling starts; a crawl needs at least one (see `requireStartURLs()`).
    public var startURLs: [CrawlURL]
    public var sitemaps = Sitemaps.auto
    public var scope = Scope()
    public var limits = Limits()
    public var politeness = Politeness()
    public var styles = Styles()
    public var auth = Auth()
    public var rules = Rules()
    /// Selectors excluded on every page.
    public var exclude: [SelectorList] = []
    public var excludeByURL: [URLExclusion] = []
    /// Selectors excluded from one rule only, by rule id.
    public var excludeByRule: [String: [SelectorList]] = [:]
    /// In file order: where owners nest, the caller decides (e.g. first listed wins).
    public var owners: [Owner] = []
    public var output = Output()
    public var components = Components()
    /// What fails `canopy gate` (the `gate:` section). Left out of `configHash`: it does not
    /// change what a crawl records, so editing it must not flag the next run as reconfigured.
    public var gate = GatePolicy()
    public var notify = Notify()
    /// Compare with the store's latest complete run and carry unchanged pages over
    /// (`IncrementalCrawl`). Left out of `configHash`: a run recorded either way is the same record.
    public var incremental = true
    /// What to do with a page whose content depends on scripts (`ClientRenderingDetector`).
    public var clientRendered = ClientRenderedPages.fail
    /// Whether frames are audited as part of the pages showing them (axe's `iframes` option);
    /// off, frame sources are crawled as pages of their own, as before frames were audited.
    public var frames = true
    /// The configuration file as the user named it; nil when there is none.
    public var file: String?

    public init(startURLs: [CrawlURL]) {
        self.startURLs = startURLs
    }

    /// Reads `canopy.yml` (or any name) at `path`. `environment` resolves `${NAME}` in
    /// credential values; pass `ProcessInfo.processInfo.environment` from the command line.
    public static func load(contentsOf path: String, environment: [String: String]) throws(Diagnostic) -> CrawlConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "the file cannot be read" : "no such file"
            throw Diagnostic.configuration(file: path, line: nil, keyPath: "", message: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Diagnostic.configuration(file: path, line: nil, keyPath: "", message: "the file is not UTF-8 text")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try CrawlConfiguration(yaml: text, file: path, baseDirectory: folder, environment: environment)
    }

    /// Reads configuration text; `file` names it in error messages, relative paths
    /// resolve against `baseDirectory` (left relative when nil).
    public init(yaml: String, file: String, baseDirectory: String?, environment: [String: String]) throws(Diagnostic) {
        self = try CrawlConfigurationParser(file: file, baseDirectory: baseDirectory, environment: environment).parse(yaml)
    }

    // MARK: Derived values

    /// The normalizer every URL of the crawl goes through (query rules of `scope`).
    public var normalizer: URLNormalizer {
        URLNormalizer(stripQueryParameters: scope.stripQuery, sortQueryParameters: scope.sortQuery)
    }

    public var crawlScope: CrawlScope {
        CrawlScope(startURLs: startURLs, extraOrigins: scope.origins, include: scope.include, exclude: scope.exclude)
    }

    /// Hosts that may receive the credentials: `auth.hosts`, or the start URLs' hosts.
    public var credentialHosts: Set<String> {
        Set(auth.hosts ?? startURLs.map(\.host))
    }

    /// The credential headers with their values revealed, cookies joined into one
    /// Cookie header: for requests to `credentialHosts` only, never for output.
    public func revealedCredentialHeaders() -> [HTTPHeader] {
        var headers = auth.headers.map { HTTPHeader(name: $0.name, value: $0.value.revealed()) }
        if !auth.cookies.isEmpty {
            headers.append(HTTPHeader(name: "Cookie", value: auth.cookies.map { "\($0.name)=\($0.value.revealed())" }.joined(separator: "; ")))
        }
        return headers
    }

    /// The rules to run: `rules.set` (or the default set), narrowed to `rules.only`.
    public func selectedRules() throws(Diagnostic) -> [any Rule] {
        let location = file ?? SourceLocation.commandLine
        let ruleSet: RuleSet
        do {
            ruleSet = try rules.set.map { path throws(Diagnostic) in try RuleSet.load(contentsOf: path) } ?? RuleSet.standard()
        } catch {
            throw Diagnostic.configuration(file: location, line: nil, keyPath: "rules.set", message: "cannot use the rule set: \(error)")
        }
        guard !rules.only.isEmpty else { return ruleSet.rules }
        let unknown = rules.only.filter { !ruleSet.ruleIDs.contains($0) }
        guard unknown.isEmpty else {
            throw Diagnostic.configuration(
                file: location, line: nil, keyPath: "rules.only",
                message: "not in the rule set \"\(ruleSet.name)\": \(unknown.joined(separator: ", "))"
            )
        }
        return rules.only.compactMap { id in ruleSet.rules.first { $0.metadata.id == id } }
    }

    /// Throws when there is no start URL in the file nor on the command line.
    public func requireStartURLs() throws(Diagnostic) {
        guard startURLs.isEmpty else { return }
        throw Diagnostic.configuration(
            file: file ?? SourceLocation.commandLine, line: nil, keyPath: "start",
            message: "no start URL: list one under `start` or give one on the command line"
        )
    }

    /// SHA-256 (hex) of the configuration's JSON encoding with sorted keys: equal for
    /// equal configurations, whatever the file's layout or comments. Credential names
    /// count, their values do not (they encode as "••••"). Paths count as resolved.
    public var configHash: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values cannot fail; an empty input would still hash stably.
        let data = (try? encoder.encode(self)) ?? Data()
        return SHA256.hexDigest(Array(data))
    }

    enum CodingKeys: String, CodingKey {
        case start, sitemaps, scope, limits, politeness, styles, auth, rules, exclude
        case excludeByURL = "exclude-by-url", excludeByRule = "exclude-by-rule", owners, output, components
        case clientRendered = "client-rendered", frames
    }

    /// The configuration with canopy.yml's keys, as JSON: fit for a run record.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(startURLs, forKey: .start)
        try container.encode(sitemaps, forKey: .sitemaps)
        try container.encode(scope, forKey: .scope)
        try container.encode(limits, forKey: .limits)
        try container.encode(politeness, forKey: .politeness)
        // Written only when changed, so that runs recorded before styles existed keep their
        // configuration digest and stay comparable.
        if styles != Styles() { try container.encode(styles, forKey: .styles) }
        try container.encode(auth, forKey: .auth)
        try container.encode(rules, forKey: .rules)
        try container.encode(exclude.map(\.text), forKey: .exclude)
        try container.encode(excludeByURL, forKey: .excludeByURL)
        try container.encode(excludeByRule.mapValues { $0.map(\.text) }, forKey: .excludeByRule)
        // A list of one-key mappings keeps the owners' order.
        try container.encode(owners.map { [$0.name: $0.selectors.map(\.text)] }, forKey: .owners)
        try container.encode(output, forKey: .output)
        try container.encode(components, forKey: .components)
        // Only `audit` changes what a crawl records (shells audited); `fail` and `skip` differ in
        // the gate alone. Written only then, so the configuration digest of others stays as it was.
        if clientRendered == .audit { try container.encode(clientRendered.rawValue, forKey: .clientRendered) }
        // Frames change what is recorded; written only when off, so others' digests stay as they were.
        if !frames { try container.encode(frames, forKey: .frames) }
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
