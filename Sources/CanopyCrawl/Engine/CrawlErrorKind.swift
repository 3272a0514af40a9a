/// The kind of a page's error, the key coverage counts failed pages by: a crawl records each
/// failure as text (`CrawledPage.error`), and a run's coverage groups them by what went wrong
/// rather than by their exact words.
///
/// Known failures of the crawl get their own names (`HTTP 404`, `timeout`, `too large`,
/// `redirect loop`...). Any other error is grouped by the words before its first colon, so a
/// failure another part of Canopy records as "sign-in lost: …" is counted as `sign-in lost`
/// without this list knowing it.
public enum CrawlErrorKind {
    public static func of(error: String, statusCode: Int?) -> String {
        if error.hasPrefix("HTTP "), let statusCode { return "HTTP \(statusCode)" }
        for (prefix, kind) in knownPrefixes where error.hasPrefix(prefix) { return kind }
        let head = error.prefix { $0 != ":" }
        guard head.count < error.count, head.count <= 40, !head.isEmpty else { return "other" }
        return String(head)
    }

    /// The starts of the crawl's own error texts (`FetchError.description`, the redirect
    /// checks of `SiteCrawler`), in the order they are tried.
    static let knownPrefixes: [(String, String)] = [
        ("the request timed out", "timeout"),
        ("response body is larger than", "too large"),
        ("could not connect to", "could not connect"),
        ("cannot fetch", "unsupported scheme"),
        ("invalid URL", "invalid URL"),
        ("invalid request header", "invalid header"),
        ("transfer failed", "transfer failed"),
        ("redirect loop", "redirect loop"),
        ("more than", "too many redirects"),
        ("redirect to", "redirect refused"),
        ("internal error", "internal error"),
    ]
}
