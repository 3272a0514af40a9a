/// What to fetch and the limits that protect the crawler while fetching it.
public struct FetchRequest: Sendable {
    public static let defaultUserAgent = "Canopy/0.1 (+accessibility audit)"
    public static let defaultMaxBodyBytes = 10 * 1024 * 1024

    /// An absolute http or https URL.
    public var url: String
    /// Extra request headers, sent in this order. A header with an empty value
    /// is sent empty rather than dropped.
    public var headers: [HTTPHeader]
    /// Limit for the whole transfer, redirects included, in seconds.
    /// `.infinity` means no limit.
    public var timeout: Double
    /// Limit for establishing each connection, in seconds.
    public var connectTimeout: Double
    /// Largest body accepted, counted after decoding; a longer one fails with
    /// `bodyTooLarge`. A Content-Length above it is refused before the body is
    /// read, and a body of unknown length is cut off as soon as it passes it.
    public var maxBodyBytes: Int
    /// Most redirects followed; one more fails with `tooManyRedirects`.
    public var maxRedirects: Int
    public var userAgent: String
    /// Ask for gzip/deflate/brotli/zstd and hand back the decoded body.
    public var acceptCompressed: Bool
    /// When false, a 3xx response is the final response (its `Location` is for the caller to
    /// follow), so a crawler can check scope and choose the headers for every hop itself.
    public var followRedirects: Bool
    /// When set, the request is a POST of these bytes (a webhook), not a GET.
    public var postBody: [UInt8]?

    public init(
        url: String,
        headers: [HTTPHeader] = [],
        timeout: Double = 30,
        connectTimeout: Double = 10,
        maxBodyBytes: Int = FetchRequest.defaultMaxBodyBytes,
        maxRedirects: Int = 10,
        userAgent: String = FetchRequest.defaultUserAgent,
        acceptCompressed: Bool = true,
        followRedirects: Bool = true,
        postBody: [UInt8]? = nil
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
        self.acceptCompressed = acceptCompressed
        self.followRedirects = followRedirects
        self.postBody = postBody
    }
}
