import CanopyDiagnostics
import CanopyCrawl
import CanopyStore
import Foundation

/// The known issues a deploy gate tolerates: a reviewable JSON file meant to live in the team's
/// repository (docs/gate.md describes the schema). Entries are sorted and the keys written in a
/// fixed order, so that a change to the file is a small diff a reviewer can read.
public struct Baseline: Sendable, Equatable, Codable {
    public static let currentVersion = 1

    public struct Entry: Sendable, Equatable, Codable {
        /// The issue's identity: the run store's issue key (docs/fingerprints.md).
        public var fingerprint: String
        public var rule: String
        /// `violation` or `incomplete`.
        public var outcome: String
        public var impact: String?
        /// For an issue inside a site-wide component: the component's key (`footer`,
        /// `div#chat-widget`); the entry then matches on every page.
        public var component: String?
        /// For an issue seen on one page: that page; the entry matches it only (after rewrites).
        public var url: String?
        /// For an issue of a template: the page type (`/product/*`); the entry matches every
        /// page of the type. Informational when `url` or `component` is set.
        public var pageType: String?
        /// The element's signature: on its page, or inside the component for component entries.
        public var signature: String
        /// Where it was: informational, the signature is what matches.
        public var target: String
        public var snippet: String
        /// Pages the issue was seen on when the entry was written.
        public var instances: Int?
        /// The vendor owning the element, if any.
        public var owner: String?
        public var reason: String?
        /// YYYY-MM-DD: the waiver holds through that day; after it, the issue fails the gate again.
        public var expires: String?

        public init(
            fingerprint: String, rule: String, outcome: String, impact: String?, component: String?, url: String?, pageType: String?,
            signature: String, target: String, snippet: String, instances: Int?, owner: String?, reason: String? = nil, expires: String? = nil
        ) {
            self.fingerprint = fingerprint
            self.rule = rule
            self.outcome = outcome
            self.impact = impact
            self.component = component
            self.url = url
            self.pageType = pageType
            self.signature = signature
            self.target = target
            self.snippet = snippet
            self.instances = instances
            self.owner = owner
            self.reason = reason
            self.expires = expires
        }

        /// The order entries are written in: by rule, then where, then signature.
        public var sortKey: [String] {
            [rule, component.map { "0" + $0 } ?? url.map { "1" + $0 } ?? "2" + (pageType ?? ""), signature, outcome, fingerprint]
        }

        /// What the entry covers, for messages.
        public var scopeDescription: String {
            if let component { return "component \(component)" }
            if let url { return url }
            return "pages \(pageType ?? "?")"
        }
    }

    public var version: Int
    /// ISO 8601 date and time.
    public var created: String
    /// Where the entries came from (a run of a store, a gate output file).
    public var source: String
    public var entries: [Entry]

    public init(created: String, source: String, entries: [Entry]) {
        self.version = Self.currentVersion
        self.created = created
        self.source = source
        self.entries = entries.sorted { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
    }

    public static func load(contentsOf path: String) throws(Diagnostic) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .usage("\(path): " + (FileManager.default.fileExists(atPath: path) ? "the baseline cannot be read" : "no such baseline file"))
        }
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch let error as DecodingError {
            throw .usage("\(path): not a Canopy baseline: \(Self.describe(error))")
        } catch {
            throw .usage("\(path): not a Canopy baseline: \(error)")
        }
        guard baseline.version == currentVersion else {
            throw .usage("\(path): baseline version \(baseline.version) is not supported (this Canopy reads version \(currentVersion))")
        }
        for (index, entry) in baseline.entries.enumerated() {
            let at = "\(path): entries[\(index)]"
            guard entry.outcome == "violation" || entry.outcome == "incomplete" else {
                throw .usage("\(at).outcome: expected violation or incomplete, found \"\(entry.outcome)\"")
            }
            guard !entry.signature.isEmpty else { throw .usage("\(at).signature: empty") }
            guard entry.component != nil || entry.url != nil || entry.pageType != nil else {
                throw .usage("\(at): needs one of component, url or pageType to say where the issue is")
            }
            if let pageType = entry.pageType, !pageType.hasPrefix("/") {
                throw .usage("\(at).pageType: \"\(pageType)\" is not a page type (it starts with /)")
            }
            if let expires = entry.expires {
                do {
                    _ = try WaiverDate.parse(expires)
                } catch {
                    throw .usage("\(at).expires: \(error)")
                }
            }
        }
        return baseline
    }

    public func write(to path: String) throws(Diagnostic) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var sorted = self
        sorted.entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        do {
            try (try encoder.encode(sorted) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .usage("cannot write the baseline to \(path): \(error.localizedDescription)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue): missing".drop { $0 == "." }.description
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "invalid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A finding as the baseline sees it, whether it comes from a gate run or a stored run.
public struct BaselineCandidate: Sendable {
    public var pageURL: String
    public var pageType: String
    public var rule: String
    public var outcome: String
    public var impact: String
    public var signature: String
    public var componentKey: String?
    public var componentSignature: String?
    public var inSiteWideComponent: Bool
    public var target: String
    public var snippet: String
    public var owner: String?

    /// The run store's issue key for this finding (RunAnalysis), so a baseline written from a
    /// gate output and one written from a stored run name the same issue alike.
    public var fingerprint: String {
        if inSiteWideComponent, let componentKey, let componentSignature {
            return StableHasher.hex(of: "component", rule, outcome, componentKey, componentSignature)
        }
        return StableHasher.hex(of: "page", rule, outcome, pageType, signature)
    }

    public init(pageURL: String, pageType: String, rule: String, outcome: String, impact: String, signature: String, componentKey: String? = nil, componentSignature: String? = nil, inSiteWideComponent: Bool, target: String, snippet: String, owner: String? = nil) {
        self.pageURL = pageURL
        self.pageType = pageType
        self.rule = rule
        self.outcome = outcome
        self.impact = impact
        self.signature = signature
        self.componentKey = componentKey
        self.componentSignature = componentSignature
        self.inSiteWideComponent = inSiteWideComponent
        self.target = target
        self.snippet = snippet
        self.owner = owner
    }
}

extension Baseline.Entry {
    /// Whether this entry describes the finding. Matching never reads selectors or markup, only
    /// the rule, the outcome, the element's signature (robust to unrelated markup changes,
    /// docs/fingerprints.md) and where it is: the component, the page (after rewrites) or the
    /// page type.
    public func matches(_ candidate: BaselineCandidate, rewrites: [URLRewrite]) -> Bool {
        guard rule == candidate.rule, outcome == candidate.outcome else { return false }
        if let component {
            return candidate.componentKey == component && candidate.componentSignature == signature
        }
        guard candidate.signature == signature else { return false }
        if let url { return Self.sameURL(rewrites.apply(url), candidate.pageURL) }
        guard let pageType, let pattern = try? PathPattern(rewrites.applyToPageType(pageType)) else { return false }
        return pattern.matches(url: candidate.pageURL)
    }

    /// Whether a page was looked at in a way that would have found this entry's issue: its URL,
    /// a page of its type, or a page holding its component.
    public func isCovered(byPage url: String, components: Set<String>, rewrites: [URLRewrite]) -> Bool {
        if let component { return components.contains(component) }
        if let entryURL = self.url { return Self.sameURL(rewrites.apply(entryURL), url) }
        guard let pageType, let pattern = try? PathPattern(rewrites.applyToPageType(pageType)) else { return false }
        return pattern.matches(url: url)
    }

    /// URLs compare as the crawler normalizes them (case of scheme and host, default ports,
    /// fragments), so a hand-written baseline URL still matches.
    public static func sameURL(_ a: String, _ b: String) -> Bool {
        a == b || canonical(a) == canonical(b)
    }

    private static func canonical(_ url: String) -> String {
        (try? URLNormalizer().normalize(url).string) ?? url
    }

    /// Built from the findings of one issue.
    public static func make(from group: [BaselineCandidate]) -> Baseline.Entry {
        let first = group[0]
        let pages = Set(group.map(\.pageURL))
        let inComponent = first.inSiteWideComponent && first.componentKey != nil && first.componentSignature != nil
        return Baseline.Entry(
            fingerprint: first.fingerprint, rule: first.rule, outcome: first.outcome, impact: first.impact,
            component: inComponent ? first.componentKey : nil,
            url: !inComponent && pages.count == 1 ? first.pageURL : nil,
            pageType: inComponent ? nil : first.pageType,
            signature: inComponent ? first.componentSignature! : first.signature,
            target: first.target, snippet: String(first.snippet.prefix(160)), instances: pages.count, owner: first.owner
        )
    }
}

/// A waiver's expiry day, compared as calendar dates in UTC.
public struct WaiverDate: Comparable {
    public let year: Int, month: Int, day: Int

    /// nil unless `text` is `YYYY-MM-DD` and names a day of the Gregorian calendar.
    public init?(_ text: String) {
        guard let date = try? Self.parse(text) else { return nil }
        self = date
    }

    private init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The date, or why `text` is not one, in words for an error message.
    public static func parse(_ text: String) throws(Diagnostic) -> WaiverDate {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), day >= 1
        else { throw .usage("expected a date as YYYY-MM-DD, found \"\(text)\"") }
        let length = daysInMonth(month, of: year)
        guard day <= length else {
            throw .usage("\"\(text)\" is not a day of the calendar (\(monthNames[month - 1]) \(parts[0]) has \(length) days)")
        }
        return WaiverDate(year: year, month: month, day: day)
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    private static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        (year, month, day) = (parts.year!, parts.month!, parts.day!)
    }

    public static func < (lhs: WaiverDate, rhs: WaiverDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Whole days from `self` to `later`.
    public func days(until later: WaiverDate) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let from = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        let to = calendar.date(from: DateComponents(year: later.year, month: later.month, day: later.day))!
        return calendar.dateComponents([.day], from: from, to: to).day ?? 0
    }
}
