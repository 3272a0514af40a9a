import CanopyCrawl
import CanopyRules
import Foundation

/// A run's row id in the store.
public struct RunID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: Int64
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: RunID, rhs: RunID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int64.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Where a run stands. Only complete runs count in trends.
public enum RunStatus: String, Sendable, Codable {
    case running, complete, interrupted
}

/// What a crawl says about itself when it begins.
public struct RunStart: Sendable {
    public var startedAt: Date
    /// A hash of the effective configuration (scope, excludes, owners...), to flag config changes.
    public var configHash: String
    /// The rule set's name (e.g. `default`).
    public var ruleSetName: String
    /// The ids of the enabled rules; a change between runs is reported rule by rule.
    public var ruleIDs: [String]
    /// A hash of the rule set's effective content (rules and impact overrides).
    public var ruleSetHash: String
    public var canopyVersion: String
    public var startURLs: [String]
    /// Pages known to be planned at the start (e.g. from sitemaps); `finish` may correct it.
    public var pagesPlanned: Int

    public init(
        startedAt: Date = Date(), configHash: String, ruleSetName: String, ruleIDs: [String], ruleSetHash: String,
        canopyVersion: String, startURLs: [String], pagesPlanned: Int = 0
    ) {
        self.startedAt = startedAt
        self.configHash = configHash
        self.ruleSetName = ruleSetName
        self.ruleIDs = ruleIDs
        self.ruleSetHash = ruleSetHash
        self.canopyVersion = canopyVersion
        self.startURLs = startURLs
        self.pagesPlanned = pagesPlanned
    }
}

/// How much of the site a run covered. The crawler gives the counts and the stylesheets when the
/// run ends; the store adds up the rest from the run's pages (`finish`).
public struct RunCoverage: Sendable, Equatable, Codable {
    public var planned: Int
    /// Pages audited (client-rendered pages and pages that were not HTML are not).
    public var crawled: Int
    public var failed: Int
    public var skippedByScope: Int
    public var skippedByRobots: Int
    /// Pages fetched but not audited although nothing failed, by reason (`NotAudited.reason`:
    /// client-rendered, not HTML, a redirect...).
    public var notAudited: [String: Int] = [:]
    /// Pages that failed, by the kind of error (`CrawlErrorKind`: `HTTP 404`, `timeout`, `too large`...).
    public var errors: [String: Int] = [:]
    /// Frames audited with their pages, and frames that could not be (cross-origin, failed).
    public var framesAudited = 0
    public var framesSkipped = 0
    /// The stylesheets the crawl loaded; nil for runs recorded before the store kept them.
    public var stylesheets: StyleSheetCoverage?

    public init(planned: Int, crawled: Int, failed: Int, skippedByScope: Int = 0, skippedByRobots: Int = 0) {
        self.planned = planned
        self.crawled = crawled
        self.failed = failed
        self.skippedByScope = skippedByScope
        self.skippedByRobots = skippedByRobots
    }

    /// Pages fetched that the run has no audit of: not audited for a reason, and failed.
    public var pagesNotAudited: Int { notAudited.values.reduce(0, +) + errors.values.reduce(0, +) }
}

/// Linked and imported stylesheets of a run, each fetched once.
public struct StyleSheetCoverage: Sendable, Equatable, Codable {
    /// Fetched and applied.
    public var loaded: Int
    /// Could not be used (a timeout, a 5xx, off the crawl's origins): the pages using them are
    /// left for review by the rules that read styles.
    public var failed: Int
    /// Gone (404): a browser gets no styles from them either.
    public var missing: Int

    public init(loaded: Int, failed: Int, missing: Int) {
        self.loaded = loaded
        self.failed = failed
        self.missing = missing
    }
}

/// Why a page that was fetched was not audited although nothing failed.
public struct NotAudited: Sendable, Equatable, Codable {
    /// A short stable name, the key coverage counts pages by: `client-rendered`, `not HTML`,
    /// `redirect`, `redirected out of scope`, `redirect disallowed by robots.txt`.
    public var reason: String
    /// What decided it, in words: the signals of a client-rendered page, a content type.
    public var details: [String]

    public init(reason: String, details: [String] = []) {
        self.reason = reason
        self.details = details
    }

    public static let clientRendered = "client-rendered"

    /// The reason and its details in one line, as reports print it.
    public var description: String { details.isEmpty ? reason : "\(reason): \(details.joined(separator: "; "))" }
}

/// One fetched (or failed) page and what its audit found.
public struct PageRecord: Sendable {
    /// The URL as the crawl planned it (the key for resuming a run).
    public var url: String
    /// Where redirects ended, when different from `url`.
    public var finalURL: String?
    /// The HTTP status, nil when no response came (DNS, timeout...).
    public var statusCode: Int?
    /// Each URL redirected through, in order, not including `url`.
    public var redirectChain: [String]
    public var contentType: String?
    public var bytes: Int?
    /// Link depth from a start URL (0 for start URLs and sitemap entries).
    public var depth: Int
    public var title: String?
    public var fetchMilliseconds: Double?
    public var auditMilliseconds: Double?
    /// Why the page could not be audited, nil when it was. A page with an error counts as failed.
    public var error: String?
    /// Violations and incomplete nodes; passes are counted in `passCounts`.
    public var findings: [FindingRecord]
    /// Passing nodes per rule id (rules with no passing node may be left out).
    public var passCounts: [String: Int]
    /// The page's component candidates (`PageFingerprinter.components`), so the store can tell
    /// which subtrees repeat across the site, including on pages where they have no finding.
    public var components: [ComponentCandidate]
    /// The URLs this page's links brought into the crawl first. Stored with the page until its
    /// run completes, so that a resumed run rebuilds its frontier without fetching the page again.
    public var discoveredLinks: [String]
    /// What the next incremental crawl compares the page with; nil for a page not audited.
    public var revision: PageRevision?
    /// The run whose audit this page carries, when it was unchanged since (nil: audited now).
    public var unchangedSince: RunID?
    /// Why the page was fetched but not audited (client-rendered, not HTML...); nil when it was
    /// audited or failed (`error`).
    public var notAudited: NotAudited?
    /// Frames audited with the page, and frames that could not be.
    public var framesAudited = 0
    public var framesSkipped = 0

    public init(
        url: String, finalURL: String? = nil, statusCode: Int? = nil, redirectChain: [String] = [], contentType: String? = nil,
        bytes: Int? = nil, depth: Int = 0, title: String? = nil, fetchMilliseconds: Double? = nil, auditMilliseconds: Double? = nil,
        error: String? = nil, findings: [FindingRecord] = [], passCounts: [String: Int] = [:], components: [ComponentCandidate] = [],
        discoveredLinks: [String] = []
    ) {
        self.url = url
        self.finalURL = finalURL
        self.statusCode = statusCode
        self.redirectChain = redirectChain
        self.contentType = contentType
        self.bytes = bytes
        self.depth = depth
        self.title = title
        self.fetchMilliseconds = fetchMilliseconds
        self.auditMilliseconds = auditMilliseconds
        self.error = error
        self.findings = findings
        self.passCounts = passCounts
        self.components = components
        self.discoveredLinks = discoveredLinks
    }
}

/// What an incremental crawl needs of an audited page to tell next time whether it changed, and
/// to go on from it without parsing it if it did not.
public struct PageRevision: Sendable, Equatable {
    /// The server's validators (`ETag`, `Last-Modified`), sent back as a conditional request.
    public var etag: String?
    public var lastModified: String?
    /// SHA-256 of the body, for servers that send an unchanged page again in full.
    public var contentDigest: String?
    /// The linked and imported stylesheets the page's styles came from, and one digest of them all.
    public var stylesheetURLs: [String]
    public var stylesheetDigest: String?
    /// Every followable link of the page, in document order.
    public var links: [String]
    public var canonicalURL: String?
    /// How the page was known unchanged (CanopyCrawl's `UnchangedEvidence`); nil when audited now.
    public var unchanged: String?

    public init(
        etag: String? = nil, lastModified: String? = nil, contentDigest: String? = nil, stylesheetURLs: [String] = [],
        stylesheetDigest: String? = nil, links: [String] = [], canonicalURL: String? = nil, unchanged: String? = nil
    ) {
        self.etag = etag
        self.lastModified = lastModified
        self.contentDigest = contentDigest
        self.stylesheetURLs = stylesheetURLs
        self.stylesheetDigest = stylesheetDigest
        self.links = links
        self.canonicalURL = canonicalURL
        self.unchanged = unchanged
    }
}

extension PageRevision {
    /// The validators to send back with the next request for the page; nil when the server gave none.
    public var validators: PageValidators? {
        etag == nil && lastModified == nil ? nil : PageValidators(etag: etag, lastModified: lastModified)
    }
}

/// An audited page of the run an incremental crawl compares with.
public struct BaselinePage: Sendable, Equatable {
    /// Its row, to read its findings back (`RunStore.carriedAudit(page:)`).
    public var pageID: Int64
    public var statusCode: Int
    public var contentType: String?
    public var bytes: Int?
    /// Without its links (`links` is empty): they are read with the page's audit when it is
    /// carried over. Held for every page through the crawl, the whole javadoc site's 318,000
    /// links were 35 MB of an incremental crawl's memory.
    public var revision: PageRevision
    /// The run the page was last audited in (its own, or the one it was carried over from).
    public var auditedIn: RunID
}

/// What a page's audit recorded, read back to carry it over to a run where the page is unchanged.
public struct CarriedAudit: Sendable {
    public var title: String?
    public var findings: [FindingRecord]
    public var passCounts: [String: Int]
    public var components: [ComponentCandidate]
    /// The page's followable links, in document order.
    public var links: [String]
}

/// What resuming a run needs of a page the run already recorded: what the crawl needs to count it
/// and to find the pages it led to without fetching it again, and what its audit found.
@dynamicMemberLookup
public struct RecordedPage: Sendable, Equatable {
    public var page: FinishedPage
    public var violations: Int
    public var incomplete: Int
    /// Parsed, but not audited: its content depends on scripts.
    public var clientRendered: Bool

    public init(_ page: FinishedPage, violations: Int = 0, incomplete: Int = 0, clientRendered: Bool = false) {
        self.page = page
        self.violations = violations
        self.incomplete = incomplete
        self.clientRendered = clientRendered
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<FinishedPage, Value>) -> Value { page[keyPath: keyPath] }
}

/// A finding of a crawled page as the store takes it: the rule's finding, with who owns the
/// element and its fingerprint.
@dynamicMemberLookup
public struct FindingRecord: Sendable {
    public var finding: Finding
    /// nil for first-party markup; otherwise the vendor whose selector holds the element.
    public var owner: String?
    /// The element's fingerprint (CanopyHistory's `PageFingerprinter.identity(of:)`).
    public var identity: FindingIdentity

    public init(_ finding: Finding, owner: String? = nil, identity: FindingIdentity) {
        self.finding = finding
        self.owner = owner
        self.identity = identity
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Finding, Value>) -> Value {
        get { finding[keyPath: keyPath] }
        set { finding[keyPath: keyPath] = newValue }
    }
}

/// A run as stored.
public struct StoredRun: Sendable, Equatable {
    public let id: RunID
    public let startedAt: Date
    public let endedAt: Date?
    public let status: RunStatus
    public let configHash: String
    public let ruleSetName: String
    public let ruleIDs: [String]
    public let ruleSetHash: String
    public let canopyVersion: String
    public let startURLs: [String]
    public var coverage: RunCoverage
}

/// A page as stored (without its findings).
public struct StoredPage: Sendable, Equatable {
    public let url: String
    public let finalURL: String?
    public let statusCode: Int?
    public let redirectChain: [String]
    public let contentType: String?
    public let bytes: Int?
    public let depth: Int
    public let title: String?
    /// The URL template, set when the run finishes (nil before).
    public let pageType: String?
    public let fetchMilliseconds: Double?
    public let auditMilliseconds: Double?
    public let error: String?
    /// Why the page was not audited although nothing failed; nil for an audited or failed page.
    public var notAudited: NotAudited? = nil
}

/// A finding as stored (its source line is not kept), with its page, owner and fingerprint, and
/// its issue key once the run has finished.
@dynamicMemberLookup
public struct StoredFinding: Sendable, Equatable {
    public let pageURL: String
    public let finding: Finding
    public let owner: String?
    public let elementSignature: String
    public let componentKey: String?
    /// The issue this finding is an instance of; nil until the run finishes.
    public let issueKey: String?

    public init(pageURL: String, finding: Finding, owner: String?, elementSignature: String, componentKey: String?, issueKey: String?) {
        self.pageURL = pageURL
        self.finding = finding
        self.owner = owner
        self.elementSignature = elementSignature
        self.componentKey = componentKey
        self.issueKey = issueKey
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<Finding, Value>) -> Value { finding[keyPath: keyPath] }
}

/// The identity of a failing element, computed when its page is audited (CanopyHistory's
/// `PageFingerprinter`, docs/fingerprints.md) and stored with the finding.
public struct FindingIdentity: Sendable, Hashable {
    /// The element on its page, as 16 hex digits.
    public let elementSignature: String
    /// The outermost component candidate holding the element (or being it), if any.
    public let component: ComponentPlacement?

    public init(elementSignature: String, component: ComponentPlacement?) {
        self.elementSignature = elementSignature
        self.component = component
    }
}

/// A subtree that might repeat across the site's pages: its name and the hash of its shape.
public struct ComponentCandidate: Sendable, Hashable {
    /// A readable name that stays the same while the component changes: `footer`,
    /// `nav[aria-label="main"]`, `div#chat-widget`; `(2)` marks a second one of the same name.
    public let key: String
    /// Hash of the subtree's shape (tags, roles, input types; no text, classes or URLs, runs of
    /// same-shaped siblings counted once), equal on every page where the component is the same.
    public let structureHash: String

    public init(key: String, structureHash: String) {
        self.key = key
        self.structureHash = structureHash
    }
}

/// Where a failing element sits in a component candidate.
public struct ComponentPlacement: Sendable, Hashable {
    public let candidate: ComponentCandidate
    /// The element's signature computed inside the component subtree only.
    public let elementSignature: String

    public init(candidate: ComponentCandidate, elementSignature: String) {
        self.candidate = candidate
        self.elementSignature = elementSignature
    }
}
