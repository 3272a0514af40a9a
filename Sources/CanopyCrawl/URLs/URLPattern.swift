/// A URL filter as written in `canopy.yml`: either a path prefix ("/docs/") matched
/// against the path and query, or a regular expression ("re:\.pdf$") searched for in
/// the whole normalized URL.
public struct URLPattern: Sendable, Hashable, CustomStringConvertible, Codable {
    public enum Kind: Sendable, Hashable {
        /// Percent-encoding normalized like a URL path, so "/caf%c3%a9" and "/café" agree.
        case pathPrefix(String)
        /// Swift Regex syntax (Perl-like, as NSRegularExpression); searched for, so
        /// unanchored unless it says ^ or $.
        case regex(String)
    }

    /// The text as written, e.g. "/blog/" or "re:^https://example\.com/(en|fr)/".
    public let text: String
    public let kind: Kind
    private let expression: RegularExpression?

    public static let regexPrefix = "re:"

    /// "/..." is a path prefix, "re:..." a regular expression; anything else is refused.
    public init(_ text: String) throws(URLPatternError) {
        if text.hasPrefix(Self.regexPrefix) {
            try self.init(regex: String(text.dropFirst(Self.regexPrefix.count)))
        } else if text.hasPrefix("/") {
            self.init(pathPrefix: text)
        } else {
            throw URLPatternError(pattern: text, message: "expected a path prefix starting with \"/\" or a regular expression written re:...")
        }
    }

    public init(pathPrefix: String) {
        let (path, query) = pathPrefix.utf8.firstIndex(of: UInt8(ascii: "?")).map {
            (pathPrefix.utf8[..<$0], Optional(pathPrefix.utf8[pathPrefix.utf8.index(after: $0)...]))
        } ?? (pathPrefix.utf8[...], nil)
        var normalized = String(decoding: PercentEncoding.normalize(path, as: .path), as: UTF8.self)
        if let query { normalized += "?" + String(decoding: PercentEncoding.normalize(query, as: .query), as: UTF8.self) }
        text = pathPrefix
        kind = .pathPrefix(normalized)
        expression = nil
    }

    public init(regex: String) throws(URLPatternError) {
        guard !regex.isEmpty else { throw URLPatternError(pattern: Self.regexPrefix, message: "the regular expression is empty") }
        do {
            // Unicode scalar semantics: URLs are ASCII after normalization, and it is faster.
            expression = RegularExpression(try Regex(regex).matchingSemantics(.unicodeScalar))
        } catch {
            throw URLPatternError(pattern: Self.regexPrefix + regex, message: "invalid regular expression: \(error)")
        }
        text = Self.regexPrefix + regex
        kind = .regex(regex)
    }

    public func matches(_ url: CrawlURL) -> Bool {
        switch kind {
        case .pathPrefix(let prefix): return url.pathAndQuery.hasPrefix(prefix)
        case .regex: return expression!.matches(url.string)
        }
    }

    /// For a URL kept as text: false when it is not an http(s) URL at all.
    public func matches(urlString: String) -> Bool {
        guard let url = try? CrawlURL(urlString) else { return false }
        return matches(url)
    }

    public var description: String { text }

    public static func == (lhs: URLPattern, rhs: URLPattern) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

public struct URLPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    public let pattern: String
    public let message: String

    public var description: String { "\"\(pattern)\": \(message)" }
}

/// A compiled Regex is an immutable program; Swift does not mark `Regex<AnyRegexOutput>`
/// Sendable because its output type could hold anything, but matching only reads it.
/// (Foundation's NSRegularExpression is not an option here: Foundation's ICU and the
/// ICU that libxml2's headers include cannot share one module.)
private final class RegularExpression: @unchecked Sendable {
    let expression: Regex<AnyRegexOutput>

    init(_ expression: Regex<AnyRegexOutput>) { self.expression = expression }

    func matches(_ text: String) -> Bool {
        (try? expression.firstMatch(in: text)) != nil
    }
}
