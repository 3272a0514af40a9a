/// One redirect that was followed on the way to the final response.
public struct Redirect: Sendable, Hashable {
    /// The URL that answered with a redirect.
    public var from: String
    /// Its status, e.g. 301 or 302.
    public var status: Int
    /// The absolute URL requested next.
    public var to: String

    public init(from: String, status: Int, to: String) {
        self.from = from
        self.status = status
        self.to = to
    }
}

/// The final response of a fetch. Any HTTP status, 4xx and 5xx included, is a
/// response rather than an error: an error page can still be audited.
public struct FetchResponse: Sendable {
    public var requestedURL: String
    /// The URL of the final response, after redirects.
    public var finalURL: String
    public var status: Int
    /// Headers of the final response only, in the order received.
    public var headers: [HTTPHeader]
    /// The body, already decoded when it was sent compressed.
    public var body: [UInt8]
    /// Redirects followed, in order; empty when the first response was final.
    public var redirectChain: [Redirect]
    /// Wall-clock seconds for the whole fetch, redirects included.
    public var elapsed: Double

    public init(
        requestedURL: String,
        finalURL: String,
        status: Int,
        headers: [HTTPHeader],
        body: [UInt8],
        redirectChain: [Redirect] = [],
        elapsed: Double = 0
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.status = status
        self.headers = headers
        self.body = body
        self.redirectChain = redirectChain
        self.elapsed = elapsed
    }

    /// The final response's Content-Type, e.g. "text/html; charset=utf-8".
    public var contentType: String? { header("Content-Type") }

    /// The first value of the named header, matching the name case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.hasName(name) }?.value
    }

    /// Every value of the named header, in order (e.g. several Set-Cookie lines).
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.hasName(name) }.map(\.value)
    }
}
