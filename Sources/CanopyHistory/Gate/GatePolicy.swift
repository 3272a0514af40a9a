import CanopyDiagnostics
import CanopyStore
import CanopyRules
import Foundation

/// What makes `canopy gate` fail, from canopy.yml's `gate:` section and the command line
/// (docs/configuration.md, docs/gate.md).
public struct GatePolicy: Sendable, Equatable {
    /// A rule's own verdict, whatever its impact.
    public enum RuleOverride: String, Sendable, Equatable, CaseIterable {
        /// Reported, never fails the gate.
        case never
        /// A new finding fails the gate whatever its impact, and budgets do not absorb it.
        case always
    }

    /// New violations at or above this impact fail the gate.
    public var failOn: Impact = .serious
    /// Findings inside an owner's selector fail too (by default they are reported only: a team
    /// cannot fix a vendor's widget before its deploy).
    public var failOnVendors = false
    /// "Needs review" findings fail too (by default they never do: they are not known failures).
    public var failOnIncomplete = false
    public var rules: [String: RuleOverride] = [:]
    /// New failing violations allowed per page type, in the order given: a page counts against
    /// the first budget whose pattern matches its path.
    public var budgets: [PageBudget] = []
    /// Production-to-deploy URL rewrites, applied to baseline URLs, sitemap URLs and page URLs.
    public var rewrites: [URLRewrite] = []
    /// The baseline file, resolved; nil for none (every finding is new).
    public var baseline: String?

    public init() {}
}

/// A number of new failing violations tolerated on the pages whose path matches `pattern`.
public struct PageBudget: Sendable, Equatable {
    public var pattern: PathPattern
    public var allowed: Int

    public init(pattern: PathPattern, allowed: Int) {
        self.pattern = pattern
        self.allowed = allowed
    }
}

/// A URL path pattern: `*` stands for any characters within one segment, `**` for any number of
/// whole segments; everything else is literal. A query (`?q=*`) matches the URL's query
/// parameter names, as page types write them. A leading `//host` (page types of a run over
/// several hosts) matches the URL's host.
public struct PathPattern: Sendable, Equatable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) throws(Diagnostic) {
        guard text.hasPrefix("/") else { throw Diagnostic(.usage, "\"\(text)\" is not a path pattern: it must start with /") }
        self.text = text
    }

    public var description: String { text }

    /// Whether the URL (absolute) fits the pattern.
    public func matches(url: String) -> Bool {
        guard let components = URLComponents(string: url) else { return false }
        var pattern = Substring(text)
        var queryPattern: Substring?
        if let mark = pattern.firstIndex(of: "?") {
            queryPattern = pattern[pattern.index(after: mark)...]
            pattern = pattern[..<mark]
        }
        var segments = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if pattern.hasPrefix("//") {
            segments.insert("//" + (components.host ?? "").lowercased(), at: 0)
        }
        var patternSegments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if pattern.hasPrefix("//"), !patternSegments.isEmpty { patternSegments[0] = "//" + patternSegments[0].lowercased() }
        guard Self.match(patternSegments[...], segments[...]) else { return false }
        guard let queryPattern else { return true }
        let names = { (query: Substring) in Set(query.split(separator: "&").map { String($0.split(separator: "=", maxSplits: 1).first ?? "") }) }
        return names(queryPattern) == names(Substring(components.percentEncodedQuery ?? ""))
    }

    private static func match(_ pattern: ArraySlice<String>, _ segments: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return segments.isEmpty }
        if first == "**" {
            for skip in 0...segments.count where match(pattern.dropFirst(), segments.dropFirst(skip)) { return true }
            return false
        }
        guard let segment = segments.first, glob(first[...], segment[...]) else { return false }
        return match(pattern.dropFirst(), segments.dropFirst())
    }

    /// `*` matches any run of characters (within a segment, which never holds `/`).
    private static func glob(_ pattern: Substring, _ text: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return pattern == text }
        let head = pattern[..<star]
        guard text.hasPrefix(head) else { return false }
        let rest = pattern[pattern.index(after: star)...]
        var remainder = text.dropFirst(head.count)
        while true {
            if glob(rest, remainder) { return true }
            guard !remainder.isEmpty else { return false }
            remainder = remainder.dropFirst()
        }
    }
}

/// Maps one URL prefix to another: production URLs in a baseline or sitemap to the deploy's.
public struct URLRewrite: Sendable, Equatable, CustomStringConvertible {
    public let from: String
    public let to: String

    /// `https://www.example.com=https://staging.example.com`.
    public init(parsing text: String) throws(Diagnostic) {
        guard let equals = text.firstIndex(of: "=") else {
            throw Diagnostic(.usage, "--rewrite \"\(text)\": expected FROM=TO, e.g. https://www.example.com=https://staging.example.com")
        }
        try self.init(from: String(text[..<equals]), to: String(text[text.index(after: equals)...]))
    }

    public init(from: String, to: String) throws(Diagnostic) {
        for side in [from, to] {
            guard let url = URLComponents(string: side), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false
            else {
                throw Diagnostic(.usage, "rewrite \"\(from)\" → \"\(to)\": \"\(side)\" is not an http(s) URL prefix")
            }
        }
        self.from = from
        self.to = to
    }

    public var description: String { "\(from)=\(to)" }

    /// The URL with the prefix replaced; nil when it does not start with `from`. Scheme and
    /// host compare case-insensitively, as URLs do, the path exactly. The prefix must end at a
    /// boundary of the URL, so `https://example.com` rewrites neither
    /// `https://example.com.evil.net/` nor `https://example.community/`, and `/shop` not `/shopping`.
    public func apply(_ url: String) -> String? {
        let (fromOrigin, fromPath) = Self.splitOrigin(from)
        let (urlOrigin, urlPath) = Self.splitOrigin(url)
        guard urlOrigin.lowercased() == fromOrigin.lowercased(), urlPath.hasPrefix(fromPath) else { return nil }
        let rest = urlPath.dropFirst(fromPath.count)
        guard fromPath.hasSuffix("/") || rest.first.map({ "/?#".contains($0) }) ?? true else { return nil }
        return to + rest
    }

    /// `scheme://authority` and what follows it (path, query, fragment).
    private static func splitOrigin(_ url: String) -> (origin: Substring, rest: Substring) {
        guard let separator = url.range(of: "://") else { return (url[...], "") }
        let end = url[separator.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        return (url[..<end], url[end...])
    }
}

extension [URLRewrite] {
    /// The first rewrite that applies, or the URL as it is.
    public func apply(_ url: String) -> String {
        for rewrite in self { if let rewritten = rewrite.apply(url) { return rewritten } }
        return url
    }

    /// A `//host` page type with its host rewritten, as URLs are.
    public func applyToPageType(_ pageType: String) -> String {
        guard pageType.hasPrefix("//") else { return pageType }
        let rest = pageType.dropFirst(2)
        let host = rest.prefix { $0 != "/" && $0 != "?" }
        for scheme in ["https://", "http://"] {
            let rewritten = apply(scheme + host + "/")
            if rewritten != scheme + host + "/", let newHost = URLComponents(string: rewritten)?.host {
                return "//" + newHost + rest.dropFirst(host.count)
            }
        }
        return pageType
    }
}
