/// An absolute http(s) URL in Canopy's normal form, so that every spelling of one
/// address compares equal: lowercase scheme and host, no default port, no dot
/// segments, path at least "/", no fragment, percent-encoding normalized, and the
/// query rules of the `URLNormalizer` that made it applied.
///
/// Make one with `URLNormalizer.normalize(_:)` or `resolve(_:against:)` (or
/// `CrawlURL(_:)` for a normalizer without query rules).
public struct CrawlURL: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// "http" or "https".
    public let scheme: String
    /// ASCII letters lowercased; other characters (IDN labels) as given.
    /// An IPv6 address keeps its brackets.
    public let host: String
    /// Only a port other than the scheme's default; nil for 80 on http and 443 on https.
    public let port: Int?
    /// Starts with "/"; percent-encoded where needed.
    public let path: String
    /// Without the "?"; nil when there is none or nothing is left after stripping.
    public let query: String?
    /// The whole URL, e.g. "https://example.com:8443/a/b?x=1".
    public let string: String

    init(scheme: String, host: String, port: Int?, path: String, query: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        // Written once into a string of the right size: every link of every page makes one, and
        // appending the pieces to a string was a quarter of resolving a link (callgrind).
        var portText = port.map { String($0) }
        var scheme = scheme, host = host, path = path, query = query
        let capacity = scheme.utf8.count + 3 + host.utf8.count + (portText.map { 1 + $0.utf8.count } ?? 0) + path.utf8.count
            + (query.map { 1 + $0.utf8.count } ?? 0)
        string = String(unsafeUninitializedCapacity: capacity) { buffer in
            var length = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
                (buffer.baseAddress! + length).update(from: source, count: bytes.count)
                length += bytes.count
            }
            func put(_ separator: StaticString) { separator.withUTF8Buffer(put) }
            scheme.withUTF8(put)
            put("://")
            host.withUTF8(put)
            if portText != nil {
                put(":")
                portText!.withUTF8(put)
            }
            path.withUTF8(put)
            if query != nil {
                put("?")
                query!.withUTF8(put)
            }
            return length
        }
    }

    /// Parses and normalizes an absolute http(s) URL with no query rules.
    public init(_ text: String) throws(URLRejection) {
        self = try URLNormalizer().normalize(text)
    }

    /// The port requests go to, default ports included.
    public var effectivePort: Int { port ?? CrawlURL.defaultPort(forScheme: scheme) }

    public var origin: Origin { Origin(scheme: scheme, host: host, port: effectivePort) }

    /// What a request line carries, and what robots.txt rules are matched against.
    public var pathAndQuery: String {
        guard let query else { return path }
        return path + "?" + query
    }

    public var description: String { string }

    static func defaultPort(forScheme scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    public static func == (lhs: CrawlURL, rhs: CrawlURL) -> Bool { lhs.string == rhs.string }
    public func hash(into hasher: inout Hasher) { hasher.combine(string) }
    public static func < (lhs: CrawlURL, rhs: CrawlURL) -> Bool { lhs.string < rhs.string }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try CrawlURL(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}

/// Scheme, host and port: what "same site" means for scope and credentials.
public struct Origin: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public let scheme: String
    public let host: String
    /// Always set, default ports included, so http://a and http://a:80 are one origin.
    public let port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The origin of an absolute http(s) URL such as "https://cdn.example.com".
    public init(_ text: String) throws(URLRejection) {
        self = try CrawlURL(text).origin
    }

    /// "https://example.com", with the port only when it is not the default.
    public var description: String {
        let defaultPort = CrawlURL.defaultPort(forScheme: scheme)
        return port == defaultPort ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }

    public static func < (lhs: Origin, rhs: Origin) -> Bool { lhs.description < rhs.description }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try Origin(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a link or configured address cannot become a `CrawlURL`. Hashable, so a
/// crawl can count skipped links by reason.
public enum URLRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// A scheme other than http or https (lowercased), e.g. "javascript", "mailto", "data".
    case unsupportedScheme(String)
    /// A relative reference with no base URL to resolve it against.
    case relativeWithoutBase
    /// "http://" with nothing, or only a port, for a host.
    case missingHost
    /// A host with characters no host name can have (spaces, "<", "^", ...).
    case invalidHost(String)
    /// A port that is not a number from 0 to 65535.
    case invalidPort(String)
    /// "user:password@" in the URL: Canopy refuses it so that credentials never
    /// reach a report; configured credentials belong under `auth`.
    case credentialsInURL

    /// A short stable label for counters and logs, e.g. "scheme:mailto", "invalid-host".
    public var label: String {
        switch self {
        case .unsupportedScheme(let scheme): return "scheme:\(scheme)"
        case .relativeWithoutBase: return "relative-without-base"
        case .missingHost: return "missing-host"
        case .invalidHost: return "invalid-host"
        case .invalidPort: return "invalid-port"
        case .credentialsInURL: return "credentials-in-url"
        }
    }

    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme):
            return "unsupported scheme \"\(scheme):\"; only http and https URLs are crawled"
        case .relativeWithoutBase:
            return "a relative URL needs a base; expected an absolute http or https URL"
        case .missingHost:
            return "the URL has no host"
        case .invalidHost(let host):
            return "invalid host \"\(host)\""
        case .invalidPort(let port):
            return "invalid port \"\(port)\"; expected a number from 0 to 65535"
        case .credentialsInURL:
            return "the URL contains a user name or password; put credentials under `auth` instead"
        }
    }
}
