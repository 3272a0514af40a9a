import Foundation

/// The cookies of a signed-in crawl, taken from responses and sent back as a browser would
/// (RFC 6265: host-only or domain cookies, path, Secure, expiry), but only ever to the hosts
/// the crawl's credentials may go to: a cookie is neither taken from nor sent to another host,
/// whatever its Domain attribute says, also after a redirect.
///
/// Written here rather than using libcurl's cookie engine: the crawl follows redirects itself
/// hop by hop, on easy handles of a multi loop and on worker threads fetching stylesheets, so
/// libcurl's jar would have to be a share handle with C lock callbacks, and it would still send
/// a cookie to any host its Domain matches; the host restriction, the session checks (was a
/// cookie of this name set?) and keeping values out of every log are easier to keep true in a
/// small jar of our own. Thread-safe: the crawl's threads share one jar.
public final class CookieJar: @unchecked Sendable {
    // @unchecked: `cookies` is only touched under `lock`.
    struct Cookie {
        var name: String
        var value: String
        /// Lowercase; the host that set it for a host-only cookie.
        var domain: String
        var hostOnly: Bool
        var path: String
        var secure: Bool
        var expires: Date?
    }

    private let lock = NSLock()
    private var cookies: [Cookie] = []
    private let mayHold: @Sendable (CrawlURL) -> Bool
    private let now: @Sendable () -> Date

    /// - Parameter mayHold: whether cookies may be taken from and sent to a URL's host.
    public init(now: @escaping @Sendable () -> Date = Date.init, mayHold: @escaping @Sendable (CrawlURL) -> Bool) {
        self.mayHold = mayHold
        self.now = now
    }

    /// Takes the cookies of a response from `url`'s host (its `Set-Cookie` headers); a cookie
    /// already held under the same name, domain and path is replaced, or removed when expired.
    public func store(setCookieHeaders headers: [String], from url: CrawlURL) {
        guard !headers.isEmpty, mayHold(url) else { return }
        let parsed = headers.compactMap { Self.parse($0, from: url) }
        let moment = now()
        lock.withLock {
            for cookie in parsed {
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if let expires = cookie.expires, expires <= moment { continue }
                cookies.append(cookie)
            }
        }
    }

    public func store(_ response: FetchResponse, from url: CrawlURL) {
        store(setCookieHeaders: response.headerValues("Set-Cookie"), from: url)
    }

    /// The `Cookie` header value for a request to `url`, nil when no cookie goes there. Longer
    /// paths first, as RFC 6265 §5.4 orders them.
    public func cookieHeader(for url: CrawlURL) -> String? {
        guard mayHold(url) else { return nil }
        let moment = now()
        let matching: [Cookie] = lock.withLock {
            cookies.removeAll { $0.expires.map { $0 <= moment } ?? false }
            return cookies.filter { cookie in
                (cookie.hostOnly ? url.host == cookie.domain : Self.domainMatches(url.host, cookie.domain))
                    && Self.pathMatches(url.path, cookie.path)
                    && (!cookie.secure || url.scheme == "https")
            }
        }
        guard !matching.isEmpty else { return nil }
        return matching.sorted { $0.path.count > $1.path.count }.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Whether a cookie of this name is held for `url`'s host (any path).
    public func hasCookie(named name: String, for url: CrawlURL) -> Bool {
        let moment = now()
        return lock.withLock {
            cookies.contains { cookie in
                cookie.name == name && (cookie.expires.map { $0 > moment } ?? true)
                    && (cookie.hostOnly ? url.host == cookie.domain : Self.domainMatches(url.host, cookie.domain))
            }
        }
    }

    /// Forgets every cookie (before signing in afresh).
    public func clear() {
        lock.withLock { cookies.removeAll() }
    }

    // MARK: - Parsing (RFC 6265 §5.2)

    static func parse(_ header: String, from url: CrawlURL) -> Cookie? {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
        let name = first[..<equals].trimmingCharacters(in: .whitespaces)
        var value = first[first.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: value, domain: url.host, hostOnly: true, path: defaultPath(url.path), secure: false)
        var maxAge: Double?
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
            switch key {
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A site may only set a cookie for its own domain or a parent of it.
                guard domainMatches(url.host, domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                if argument.hasPrefix("/") { cookie.path = argument }
            case "secure":
                cookie.secure = true
            case "max-age":
                if let seconds = Double(argument) { maxAge = seconds }
            case "expires":
                if let date = HTTPCookieDate.parse(argument) { cookie.expires = date }
            default:
                continue
            }
        }
        // Max-Age wins over Expires (§5.3 step 3).
        if let maxAge { cookie.expires = Date(timeIntervalSinceNow: maxAge) }
        return cookie
    }

    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        host == domain || (host.hasSuffix("." + domain) && !host.allSatisfy { $0.isNumber || $0 == "." })
    }

    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }

    /// The directory of the request path (§5.1.4).
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}

/// The date formats `Expires` comes in: the HTTP date, and the dashed and two-digit-year
/// variants old servers still send.
enum HTTPCookieDate {
    static func parse(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
