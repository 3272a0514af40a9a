import CanopyCrawl
import CanopyRules
import CanopyStore

/// What Canopy keeps of a crawled page once it is parsed and audited: only what the run store,
/// results.jsonl and the gate need afterwards, so the Document can be freed at once.
public struct PageAudit: Sendable {
    public var title: String?
    public var findings: [FindingRecord] = []
    public var passCounts: [String: Int] = [:]
    /// The page's axe-shaped result (violations and incomplete in full), one line of JSON as UTF-8 bytes.
    public var axeJSONLine: [UInt8] = []
    public var components: [ComponentCandidate] = []
    public var seconds: Double = 0
    /// The linked and imported stylesheets the page's styles came from, then the frame documents
    /// audited with it (each marked `frame `), and one digest of them as this crawl found them: a
    /// change in any re-audits the page in the next incremental crawl.
    public var stylesheetURLs: [String] = []
    public var stylesheetDigest: String?
    /// Frames audited with the page, and frames that could not be (cross-origin, failed):
    /// coverage adds them up.
    public var frames = FrameCounts()
    /// The run whose audit this is, when the page was unchanged since and its result carried over.
    public var carriedFrom: RunID?
    /// Set when the page was parsed but not audited: a client-rendered shell (its signals in
    /// `details`). Such a page has no findings, and the run keeps its last audit's (`RunAnalysis`).
    public var notAudited: NotAudited?

    public init(
        title: String? = nil, findings: [FindingRecord] = [], passCounts: [String: Int] = [:], axeJSONLine: [UInt8] = [],
        components: [ComponentCandidate] = [], seconds: Double = 0
    ) {
        self.title = title
        self.findings = findings
        self.passCounts = passCounts
        self.axeJSONLine = axeJSONLine
        self.components = components
        self.seconds = seconds
    }

    public var audited: Bool { notAudited == nil }
    public var violationCount: Int { count(of: .violation) }
    public var incompleteCount: Int { count(of: .incomplete) }

    /// By index: counting over the records copied each one, a retain of each of its strings,
    /// twice for every finding of a crawl.
    private func count(of outcome: FindingOutcome) -> Int {
        findings.indices.count { findings[$0].finding.outcome == outcome }
    }
}

/// What a crawl, a gate and `canopy check` do with a page whose content depends on scripts
/// (`ClientRenderingDetector`): canopy.yml's `client-rendered`.
public enum ClientRenderedPages: String, Sendable, CaseIterable {
    /// Reported as not audited; the gate and `canopy check` count it as a page they could not
    /// audit (exit 3).
    case fail
    /// Reported as not audited, and never a failure.
    case skip
    /// Audited as it is, shell and all (no detection).
    case audit
}

/// A crawled page with Canopy's audit of it.
public typealias AuditedPage = CrawledPage<PageAudit>
