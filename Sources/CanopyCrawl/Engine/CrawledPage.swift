/// A fetched page the crawl hands its page processor: HTML (by Content-Type or by sniffing),
/// answered with a 2xx status.
public struct FetchedPage: Sendable {
    /// The URL the content came from (after redirects).
    public let url: String
    public let response: FetchResponse
    /// Link depth from a start URL (0 for start URLs and sitemap entries).
    public let depth: Int

    /// The body, taken out of the page, which is gone after: when the crawler handed the page
    /// over, the caller is then its only owner and can free it once parsed.
    public consuming func takeBody() -> [UInt8] { response.body }
}

/// What the page processor tells the crawl about a page: where it leads, and its result.
public struct ProcessedPage<Result: Sendable>: Sendable {
    /// Links the crawl may follow, in document order.
    public var links: [CrawlURL]
    public var canonicalURL: String?
    public var result: Result

    public init(links: [CrawlURL] = [], canonicalURL: String? = nil, result: Result) {
        self.links = links
        self.canonicalURL = canonicalURL
        self.result = result
    }
}

/// One URL of a crawl and what became of it: fetched and processed, skipped with a reason, or
/// failed with an error. Every URL the crawl takes in gets exactly one.
public struct CrawledPage<Result: Sendable>: Sendable {
    /// The URL as the crawl planned it (the key for resuming a run).
    public var url: String
    /// Link depth from a start URL (0 for start URLs and sitemap entries).
    public var depth: Int
    /// Requests sent for the last hop (more than 1 after retries).
    public var attempts: Int
    /// The HTTP status of the last hop, nil when no response came (DNS, timeout...).
    public var statusCode: Int?
    public var contentType: String?
    public var bytes: Int?
    public var fetchMilliseconds: Double?
    /// Why the page could not be processed; a page with an error counts as failed.
    public var error: String?
    /// Why a fetched page was not processed although nothing failed.
    public var skip: Skip?
    public var canonicalURL: String?
    /// The full redirect chain with statuses.
    public var redirects: [Redirect] = []
    /// The URLs this page's links brought into the crawl first, from which a resumed run
    /// rebuilds its frontier without fetching the page again.
    public var discoveredLinks: [String] = []
    /// The page processor's result; nil when the page was not processed.
    public var result: Result?
    /// Every followable link of a processed page (normalized, in document order): what an
    /// incremental crawl follows from the page when it has not changed.
    public var links: [String] = []
    /// What the server said of the page's version, to ask next time whether it changed.
    public var validators: PageValidators?
    /// SHA-256 of the body of a processed page (hex), to tell next time whether it changed.
    public var contentDigest: String?
    /// Set when `result` was carried over from the previous run rather than processed now.
    public var unchanged: UnchangedEvidence?

    public init(url: String, depth: Int, attempts: Int) {
        self.url = url
        self.depth = depth
        self.attempts = attempts
    }

    public var processed: Bool { result != nil }
    /// `skip` in words, as logs and results.jsonl give it.
    public var skippedReason: String? { skip?.description }
    /// Each URL redirected through, in order, not including `url`.
    public var redirectChain: [String] { redirects.map(\.to) }
    /// Where redirects ended, when there were any.
    public var finalURL: String? { redirects.last?.to }
}

/// Why a fetched page was not handed to the page processor although nothing failed.
public enum Skip: Sendable, Equatable, CustomStringConvertible {
    /// Not HTML (a PDF, an image...): recorded, not processed.
    case notHTML(contentType: String?)
    /// A redirect to a page the crawl fetches under its own URL.
    case redirectsToCrawledPage(String)
    /// A redirect to a URL outside the crawl's scope, and why it is outside.
    case redirectedOutOfScope(CrawlScope.Decision, to: String)
    /// A redirect to a URL robots.txt disallows.
    case redirectDisallowedByRobots(String)
    /// A redirect to a sign-out or destructive link (`auth.avoid`) or to the sign-in page,
    /// which a signed-in crawl never requests.
    case redirectAvoided(String)

    /// The short name coverage counts such pages by (its details are in `description`).
    public var reason: String {
        switch self {
        case .notHTML: "not HTML"
        case .redirectsToCrawledPage: "redirect"
        case .redirectedOutOfScope: "redirected out of scope"
        case .redirectDisallowedByRobots: "redirect disallowed by robots.txt"
        case .redirectAvoided: "redirect to an avoided link"
        }
    }

    public var description: String {
        switch self {
        case .notHTML(let contentType): "not HTML (\(contentType ?? "no Content-Type"))"
        case .redirectsToCrawledPage(let target): "redirects to \(target), crawled under that URL"
        case .redirectedOutOfScope(let decision, let target): "redirected out of scope (\(decision.description)) to \(target)"
        case .redirectDisallowedByRobots(let target): "redirects to \(target), which robots.txt disallows"
        case .redirectAvoided(let target): "redirects to \(target), which a signed-in crawl never requests"
        }
    }
}

/// What resuming a crawl needs of a page an interrupted run already recorded: enough to count it
/// and to find the pages it led to, without fetching it again.
public struct FinishedPage: Sendable, Equatable {
    public var url: String
    public var depth: Int
    public var statusCode: Int?
    /// Each URL redirected through, not including `url`.
    public var redirectChain: [String]
    public var bytes: Int?
    public var error: String?
    /// Handed to the page processor (as opposed to failed, not HTML, or redirected elsewhere).
    public var processed: Bool
    public var discoveredLinks: [String]

    public init(
        url: String, depth: Int = 0, statusCode: Int? = nil, redirectChain: [String] = [], bytes: Int? = nil, error: String? = nil,
        processed: Bool = false, discoveredLinks: [String] = []
    ) {
        self.url = url
        self.depth = depth
        self.statusCode = statusCode
        self.redirectChain = redirectChain
        self.bytes = bytes
        self.error = error
        self.processed = processed
        self.discoveredLinks = discoveredLinks
    }

    /// Where the page's redirects ended: the URL its content and results are under.
    public var finalURL: String { redirectChain.last ?? url }
}
