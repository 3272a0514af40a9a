/// The part of a robots.txt (RFC 9309) that applies to one crawler: the rules of the
/// groups naming its product token (or of the `*` groups when none does), their
/// Crawl-delay, and the file's Sitemap lines.
///
/// Matching follows RFC 9309 §2.2.2: rules match the path and query from their start,
/// `*` matches any run of characters, a final `$` anchors the end, the longest
/// matching rule wins, and `allow` wins a tie. Paths and rules are compared after the
/// same percent-encoding normalization. `/robots.txt` itself is always allowed.
public struct RobotsTxt: Sendable {
    /// RFC 9309 §2.5 asks crawlers to read at least 500 KiB; the rest is ignored.
    public static let defaultMaxBytes = 512 * 1024

    /// Seconds between requests asked for by the chosen group, if it says so.
    public let crawlDelay: Double?
    /// `Sitemap:` values in file order, as written (they apply to every crawler).
    public let sitemaps: [String]
    private let rules: [Rule]

    /// Parses `text` for the crawler whose User-Agent header is `userAgent`
    /// (its product token, e.g. "Canopy" in "Canopy/0.1 (+…)", picks the group).
    public init(_ text: String, userAgent: String) {
        self.init(bytes: Array(text.utf8), userAgent: userAgent)
    }

    public init(bytes: [UInt8], userAgent: String, maxBytes: Int = RobotsTxt.defaultMaxBytes) {
        let parsed = RobotsTxtParser.parse(bytes, maxBytes: maxBytes)
        let token = Self.productToken(from: userAgent)
        var chosen = parsed.groups.filter { group in group.agents.contains { $0 == token } }
        if chosen.isEmpty { chosen = parsed.groups.filter { $0.agents.contains("*") } }
        rules = chosen.flatMap(\.rules)
        crawlDelay = chosen.lazy.compactMap(\.crawlDelay).first
        sitemaps = parsed.sitemaps
    }

    private init(rules: [Rule]) {
        self.rules = rules
        crawlDelay = nil
        sitemaps = []
    }

    /// No robots.txt, or one the server says does not exist: everything is allowed.
    public static let allowAll = RobotsTxt(rules: [])
    /// A robots.txt that could not be read: RFC 9309 §2.3.1.3 says assume complete disallow.
    public static let disallowAll = RobotsTxt(rules: [Rule(allows: false, value: Array("/".utf8))])

    /// Redirects a crawler follows for robots.txt before treating it as unavailable: RFC 9309
    /// §2.3.1.2 asks for at least five consecutive ones.
    public static let maxRedirects = 5

    /// The rules a fetched robots.txt means (RFC 9309 §2.3.1): a success is parsed,
    /// 4xx means "no rules" (except 429, which like 5xx means "unreachable": disallow
    /// everything for now). Redirects are the caller's to follow, up to `maxRedirects`; a
    /// redirect that reaches this function could not be followed (no Location, too many
    /// hops, a non-http target), and §2.3.1.2 lets the crawler take the file as unavailable,
    /// which like 4xx means no rules. Any other status is treated as unreachable.
    public static func forResponse(status: Int, body: [UInt8], userAgent: String) -> RobotsTxt {
        switch status {
        case 200..<300: return RobotsTxt(bytes: body, userAgent: userAgent)
        case 300..<400: return .allowAll
        case 429: return .disallowAll
        case 400..<500: return .allowAll
        default: return .disallowAll
        }
    }

    /// The lowercased product token that robots.txt groups are matched against: the
    /// leading letters, "-" and "_" of a User-Agent ("Canopy/0.1 (+…)" → "canopy").
    public static func productToken(from userAgent: String) -> String {
        let trimmed = ASCII.trimmed(userAgent)
        if trimmed == "*" { return "*" }
        return String(decoding: ASCII.lowercased(trimmed.utf8.prefix(while: RobotsTxtParser.isProductTokenByte)), as: UTF8.self)
    }

    /// Whether the crawler may fetch `path` (path and query, e.g. "/a/b?c=d").
    public func isAllowed(path: String) -> Bool {
        let normalized = PercentEncoding.normalize(path.utf8, as: .robotsPattern)
        if normalized.elementsEqual("/robots.txt".utf8) { return true }
        var best: Rule?
        for rule in rules where rule.matches(normalized) {
            guard let current = best else { best = rule; continue }
            if rule.length > current.length || (rule.length == current.length && rule.allows && !current.allows) {
                best = rule
            }
        }
        return best?.allows ?? true
    }

    public func isAllowed(_ url: CrawlURL) -> Bool { isAllowed(path: url.pathAndQuery) }

    struct Rule: Sendable {
        let allows: Bool
        /// The normalized rule in octets; its count decides which rule is most specific.
        let length: Int
        /// The rule split at each `*`.
        let pieces: [[UInt8]]
        /// A final `$`: the path must end where the rule ends.
        let anchoredAtEnd: Bool

        init(allows: Bool, value: [UInt8]) {
            self.allows = allows
            length = value.count
            anchoredAtEnd = value.last == UInt8(ascii: "$")
            let body = anchoredAtEnd ? value.dropLast() : value[...]
            pieces = body.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        }

        func matches(_ path: [UInt8]) -> Bool {
            let first = pieces[0]
            guard path.starts(with: first) else { return false }
            if pieces.count == 1 { return !anchoredAtEnd || path.count == first.count }
            var position = first.count
            for piece in pieces.dropFirst().dropLast() {
                guard let found = Self.find(piece, in: path, from: position) else { return false }
                position = found + piece.count
            }
            let last = pieces[pieces.count - 1]
            if anchoredAtEnd {
                return path.count - last.count >= position && path.suffix(last.count).elementsEqual(last)
            }
            return Self.find(last, in: path, from: position) != nil
        }

        /// The first index at or after `start` where `needle` occurs.
        private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
            guard !needle.isEmpty else { return start }
            guard haystack.count >= needle.count else { return nil }
            var index = start
            while index <= haystack.count - needle.count {
                if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }
}

/// Line-level reading of robots.txt: groups of user agents with their rules.
enum RobotsTxtParser {
    struct Group {
        var agents: [String] = []
        var rules: [RobotsTxt.Rule] = []
        var crawlDelay: Double?
        var hasMembers = false
    }

    struct Parsed {
        var groups: [Group] = []
        var sitemaps: [String] = []
    }

    static func parse(_ input: [UInt8], maxBytes: Int) -> Parsed {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.count > maxBytes {
            // Cut at the last line break inside the cap, so no rule is read half-written.
            let capped = bytes.prefix(maxBytes)
            let lastBreak = capped.lastIndex { $0 == 0x0A || $0 == 0x0D } ?? capped.startIndex
            bytes = capped[..<lastBreak]
        }

        var parsed = Parsed()
        var current: Group?
        for line in bytes.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            guard let (key, value) = record(line) else { continue }
            switch key {
            case "user-agent", "useragent", "user agent":
                // A user-agent line after rules starts a new group; consecutive ones share one.
                if let group = current, group.hasMembers {
                    parsed.groups.append(group)
                    current = nil
                }
                let agent = value == "*" ? "*" : RobotsTxt.productToken(from: value)
                if current == nil { current = Group() }
                if !agent.isEmpty { current!.agents.append(agent) }
            case "allow", "disallow", "dissallow", "disalow":
                guard current != nil else { continue }
                current!.hasMembers = true
                // An empty value is no rule at all (RFC 9309 §2.2.2).
                guard !value.isEmpty else { continue }
                var pattern = PercentEncoding.normalize(value.utf8, as: .robotsPattern)
                if pattern.first != UInt8(ascii: "/") && pattern.first != UInt8(ascii: "*") {
                    pattern.insert(UInt8(ascii: "/"), at: 0)
                }
                current!.rules.append(RobotsTxt.Rule(allows: key == "allow", value: pattern))
            case "crawl-delay", "crawldelay":
                guard current != nil else { continue }
                current!.hasMembers = true
                if current!.crawlDelay == nil, let seconds = Double(value), seconds.isFinite, seconds >= 0 {
                    current!.crawlDelay = seconds
                }
            case "sitemap", "site-map":
                if !value.isEmpty { parsed.sitemaps.append(value) }
            default:
                continue  // other records neither belong to nor end a group
            }
        }
        if let current { parsed.groups.append(current) }
        return parsed
    }

    /// "Key: value # comment" → (lowercased key, value), trimmed; nil for lines without a colon.
    private static func record(_ line: ArraySlice<UInt8>) -> (String, String)? {
        let content = line.prefix { $0 != UInt8(ascii: "#") }
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let key = String(decoding: ASCII.lowercased(content[..<colon]), as: UTF8.self)
        let value = String(decoding: content[(colon + 1)...], as: UTF8.self)
        return (ASCII.trimmed(key), ASCII.trimmed(value))
    }

    static func isProductTokenByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
