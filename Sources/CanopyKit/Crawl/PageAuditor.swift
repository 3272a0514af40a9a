import CanopyCrawl
import CanopyHTML
import CanopyReports
import CanopyRules
import CanopyStore
import Foundation

/// Parses one fetched page, audits it with the plan's rules, exclusions and owners, and keeps
/// only what the crawl needs afterwards, so the Document can be freed at once.
struct PageAuditor: Sendable {
    struct AuditedPage: Sendable {
        var title: String?
        var canonicalURL: String?
        var links: [CrawlURL] = []
        var findings: [FindingRecord] = []
        var passCounts: [String: Int] = [:]
        var axeJSONLine: [UInt8]?
        var components: [ComponentCandidate] = []
        var seconds: Double = 0
    }

    let plan: CrawlPlan
    private let parser = HTMLParser()
    private let lineWriter: AxeJSONLineWriter

    init(plan: CrawlPlan) {
        self.plan = plan
        self.lineWriter = AxeJSONLineWriter(rules: plan.auditor.rules.map(\.metadata))
    }

    func audit(_ response: FetchResponse, url: String) -> AuditedPage {
        let clock = ContinuousClock()
        let start = clock.now
        let document = parser.parse(bytes: response.body, contentType: response.contentType, url: url)
        var page = audit(document, url: url)
        let (seconds, attoseconds) = (clock.now - start).components
        page.seconds = Double(seconds) + Double(attoseconds) / 1e18
        return page
    }

    func audit(_ document: Document, url: String) -> AuditedPage {
        let scope = AuditScope(exclude: plan.exclusions(forURL: url))
        let result = plan.auditor.audit(document, scope: scope, ruleExclusions: plan.ruleExclusions)
        var page = AuditedPage(title: document.title)
        let fingerprinter = PageFingerprinter(document: document, componentRoots: ownerRoots(in: document))
        for rule in result.rules {
            for node in rule.nodes {
                let outcome: FindingOutcome
                let message: String
                switch node.outcome {
                case .pass:
                    page.passCounts[rule.metadata.id, default: 0] += 1
                    continue
                case .violation(let text): (outcome, message) = (.violation, text)
                case .incomplete(let text): (outcome, message) = (.incomplete, text)
                }
                page.findings.append(FindingRecord(
                    ruleID: rule.metadata.id, impact: rule.metadata.impact, outcome: outcome,
                    target: node.target, snippet: node.html, message: message,
                    owner: owner(of: node.element), identity: fingerprinter.identity(of: node.element),
                    sourceLine: FindingRecord.sourceLine(of: node.element)
                ))
            }
        }
        page.components = fingerprinter.components
        if let base = try? plan.normalizer.normalize(url) {
            let links = LinkExtractor(normalizer: plan.normalizer).extract(from: document, pageURL: base)
            page.links = links.followableURLs(honouringNoFollow: !plan.followsNofollow)
            page.canonicalURL = links.canonical?.string
        }
        // Passing rules are listed without nodes: describing a passing node costs a unique
        // selector, and the line is about what needs fixing.
        var line: [UInt8] = []
        lineWriter.appendLine(
            url: url, timestamp: AxeTimestamp.string(result.date), findings: page.findings, passingRules: Set(page.passCounts.keys), to: &line
        )
        page.axeJSONLine = line
        return page
    }

    /// Vendor widgets are components of their own, whatever their markup.
    private func ownerRoots(in document: Document) -> [Element] {
        guard !plan.owners.isEmpty else { return [] }
        return plan.owners.flatMap { owner in owner.selectors.flatMap { document.querySelectorAll($0) } }
    }

    /// The vendor whose selector matches the element or one of its ancestors.
    private func owner(of element: Element) -> String? {
        plan.owners.first { owner in owner.selectors.contains { element.closest($0) != nil } }?.name
    }
}
