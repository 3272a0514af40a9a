import CanopyDiagnostics
import CanopyCrawl
import CanopyHTML
import CanopyStyle
import Foundation

/// Command-line values that override `canopy.yml`; nil leaves the file's value (or the
/// default). Paths stay as given, relative to the current directory.
public struct CrawlOverrides: Sendable {
    /// Replace `start`.
    public var startURLs: [String]?
    /// Replace `sitemaps`: ["auto"], ["none"] or sitemap URLs.
    public var sitemaps: [String]?
    /// Added to `scope.include` / `scope.exclude` ("/prefix" or "re:regex").
    public var includePatterns: [String] = []
    public var excludePatterns: [String] = []
    public var followNofollow: Bool?
    public var maxPages: Int?
    public var maxDepth: Int?
    public var maxBytes: Int?
    public var timeout: Double?
    public var connectTimeout: Double?
    public var retries: Int?
    public var maxRedirects: Int?
    public var concurrency: Int?
    public var perHost: Int?
    public var requestsPerSecond: Double?
    public var robots: Bool?
    public var crawlDelay: Bool?
    public var userAgent: String?
    /// `--viewport` and `--no-styles`.
    public var viewport: Viewport?
    public var stylesEnabled: Bool?
    /// Replace `rules.set` (a rule set file).
    public var ruleSet: String?
    /// Replace `rules.only`.
    public var onlyRules: [String]?
    /// Added to the global `exclude` selectors.
    public var excludeSelectors: [String] = []
    public var reports: String?
    public var store: String?
    /// Replaces `incremental`.
    public var incremental: Bool?
    /// Replaces `frames`.
    public var frames: Bool?
    /// Replace `notify.url`, `notify.timeout` and `notify.retries`.
    public var notifyURL: String?
    public var notifyTimeout: Double?
    public var notifyRetries: Int?

    public init() {}
}

extension CrawlConfiguration {
    /// This configuration with `overrides` applied and checked as the file's values are;
    /// an error names `<command line>` and the configuration key.
    public func applying(_ overrides: CrawlOverrides) throws(Diagnostic) -> CrawlConfiguration {
        var result = self
        func failure(_ key: String, _ message: String) -> Diagnostic {
            Diagnostic.configuration(file: SourceLocation.commandLine, line: nil, keyPath: key, message: message)
        }
        func at(_ key: String, least minimum: Int, _ value: Int?) throws(Diagnostic) -> Int? {
            guard let value else { return nil }
            guard value >= minimum else { throw failure(key, "expected a whole number of at least \(minimum), found \(value)") }
            return value
        }
        func seconds(_ key: String, _ value: Double?) throws(Diagnostic) -> Double? {
            guard let value else { return nil }
            guard value > 0, value.isFinite else { throw failure(key, "expected a number of seconds above 0, found \(value)") }
            return value
        }
        func urls(_ key: String, _ texts: [String]) throws(Diagnostic) -> [CrawlURL] {
            var urls: [CrawlURL] = []
            for text in texts {
                do {
                    let url = try result.normalizer.normalize(text)
                    if !urls.contains(url) { urls.append(url) }
                } catch {
                    throw failure(key, "\"\(text)\" is not a usable URL: \(error)")
                }
            }
            return urls
        }
        func patterns(_ key: String, _ texts: [String]) throws(Diagnostic) -> [URLPattern] {
            var patterns: [URLPattern] = []
            for text in texts {
                do { patterns.append(try URLPattern(text)) } catch { throw failure(key, error.description) }
            }
            return patterns
        }

        if let start = overrides.startURLs { result.startURLs = try urls("start", start) }
        if let sitemaps = overrides.sitemaps {
            switch sitemaps {
            case ["auto"]: result.sitemaps = .auto
            case ["none"]: result.sitemaps = .none
            default: result.sitemaps = .listed(try urls("sitemaps", sitemaps))
            }
        }
        result.scope.include += try patterns("scope.include", overrides.includePatterns)
        result.scope.exclude += try patterns("scope.exclude", overrides.excludePatterns)
        if let follow = overrides.followNofollow { result.scope.followNofollow = follow }

        if let value = try at("limits.max-pages", least: 1, overrides.maxPages) { result.limits.maxPages = value }
        if let value = try at("limits.max-depth", least: 0, overrides.maxDepth) { result.limits.maxDepth = value }
        if let value = try at("limits.max-bytes", least: 1, overrides.maxBytes) { result.limits.maxBytes = value }
        if let value = try seconds("limits.timeout", overrides.timeout) { result.limits.timeout = value }
        if let value = try seconds("limits.connect-timeout", overrides.connectTimeout) { result.limits.connectTimeout = value }
        if let value = try at("limits.retries", least: 0, overrides.retries) { result.limits.retries = value }
        if let value = try at("limits.max-redirects", least: 0, overrides.maxRedirects) { result.limits.maxRedirects = value }

        if let value = try at("politeness.concurrency", least: 1, overrides.concurrency) { result.politeness.concurrency = value }
        if let value = try at("politeness.per-host", least: 1, overrides.perHost) { result.politeness.perHost = value }
        if let rate = overrides.requestsPerSecond {
            guard rate >= 0, rate.isFinite else {
                throw failure("politeness.requests-per-second", "expected 0 (no limit) or a positive number, found \(rate)")
            }
            result.politeness.requestsPerSecond = rate
        }
        if let robots = overrides.robots { result.politeness.robots = robots }
        if let viewport = overrides.viewport { result.styles.viewport = viewport }
        if let enabled = overrides.stylesEnabled { result.styles.enabled = enabled }
        if let crawlDelay = overrides.crawlDelay { result.politeness.crawlDelay = crawlDelay }
        if let agent = overrides.userAgent {
            guard !agent.isEmpty, HTTPToken.isValidHeaderValue(agent) else {
                throw failure("politeness.user-agent", "expected a non-empty user agent on one line")
            }
            result.politeness.userAgent = agent
        }

        if let set = overrides.ruleSet { result.rules.set = set }
        if let only = overrides.onlyRules { result.rules.only = only }
        for text in overrides.excludeSelectors {
            do {
                result.exclude.append(try SelectorList(text))
            } catch {
                throw failure("exclude", "invalid CSS selector: \(error)")
            }
        }
        if let incremental = overrides.incremental { result.incremental = incremental }
        if let frames = overrides.frames { result.frames = frames }
        if let reports = overrides.reports { result.output.reports = reports }
        if let store = overrides.store { result.output.store = store }
        if let text = overrides.notifyURL {
            guard let url = CrawlConfiguration.Notify.webhook(text) else { throw failure("notify.url", "expected an http or https webhook address") }
            result.notify.url = url
        }
        if let timeout = try seconds("notify.timeout", overrides.notifyTimeout) { result.notify.timeout = timeout }
        if let retries = try at("notify.retries", least: 0, overrides.notifyRetries) { result.notify.retries = retries }
        // A new set or list of rules is checked now, rather than when the crawl starts.
        if overrides.ruleSet != nil || overrides.onlyRules != nil {
            do {
                _ = try result.selectedRules()
            } catch {
                throw Diagnostic.configuration(file: SourceLocation.commandLine, line: nil, keyPath: error.keyPath, message: error.message)
            }
        }
        return result
    }
}
