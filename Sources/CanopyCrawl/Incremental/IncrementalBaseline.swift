import Foundation

/// What a server said about a page's version, sent back next time to ask whether it changed
/// (`If-None-Match`, `If-Modified-Since`).
public struct PageValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The validators of a response; nil when it has none.
    public init?(_ response: FetchResponse) {
        self.init(etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
        if etag == nil && lastModified == nil { return nil }
    }

    var conditionalHeaders: [HTTPHeader] {
        var headers: [HTTPHeader] = []
        if let etag { headers.append(HTTPHeader(name: "If-None-Match", value: etag)) }
        if let lastModified { headers.append(HTTPHeader(name: "If-Modified-Since", value: lastModified)) }
        return headers
    }
}

/// How a page was known to be unchanged since the previous run.
public enum UnchangedEvidence: String, Sendable, Codable, CaseIterable {
    /// The server answered 304 Not Modified to a conditional request.
    case notModified
    /// The server sent the page again, byte for byte the same.
    case sameContent
    /// The sitemap dates its last change before the previous run began: not requested at all.
    case sitemapLastModified
}

/// A page's result carried over from the previous run, with what the crawl needs to go on as if
/// the page had been processed now.
public struct CarriedPage<Result: Sendable>: Sendable {
    public var result: Result
    /// The page's followable links as the previous run found them, in document order.
    public var links: [CrawlURL]
    public var canonicalURL: String?
    /// The previous record's response, for a page not requested at all (sitemap `lastmod`).
    public var statusCode: Int
    public var contentType: String?
    public var bytes: Int?
    public var validators: PageValidators?
    public var contentDigest: String?

    public init(
        result: Result, links: [CrawlURL], canonicalURL: String? = nil, statusCode: Int = 200, contentType: String? = nil,
        bytes: Int? = nil, validators: PageValidators? = nil, contentDigest: String? = nil
    ) {
        self.result = result
        self.links = links
        self.canonicalURL = canonicalURL
        self.statusCode = statusCode
        self.contentType = contentType
        self.bytes = bytes
        self.validators = validators
        self.contentDigest = contentDigest
    }
}

/// The previous run an incremental crawl compares with: pages that did not change since keep
/// that run's result without being parsed. Which run qualifies (same rules, configuration and
/// Canopy), and what "the same result" means, is the caller's business; the crawler only asks.
public struct IncrementalBaseline<Result: Sendable>: Sendable {
    /// The validators the previous run got for a page, to send with its request.
    public var validators: @Sendable (_ url: String) -> PageValidators?
    /// The previous run's result for the page at `url`, or nil when it must be processed afresh
    /// (not in that run, or something it depends on besides its markup, such as a stylesheet,
    /// changed). `contentDigest` is the SHA-256 of the page fetched now, to compare with the
    /// previous one; nil when the server or the sitemap said it has not changed.
    public var carryOver: @Sendable (_ url: String, _ contentDigest: String?) -> CarriedPage<Result>?
    /// When the previous run began: a page its sitemap dates before that was crawled unchanged.
    public var previousRunStarted: Date

    public init(
        previousRunStarted: Date, validators: @escaping @Sendable (String) -> PageValidators?,
        carryOver: @escaping @Sendable (String, String?) -> CarriedPage<Result>?
    ) {
        self.previousRunStarted = previousRunStarted
        self.validators = validators
        self.carryOver = carryOver
    }
}
