import CanopyDiagnostics
import CanopyCrawl
import CanopyRules
import CanopyStore
import Foundation

/// What one gate run found and decided; written as the gate output JSON (`--output`), which
/// `canopy baseline create/update` read back. docs/gate.md describes the fields.
public struct GateReport: Sendable, Codable, Equatable {
    public static let currentVersion = 1

    public enum Result: String, Sendable, Codable {
        case passed, failed
        case couldNotAudit = "could-not-audit"
    }

    public struct Page: Sendable, Codable, Equatable {
        public var url: String
        public var status: Int?
        /// Why a page that should have been audited could not be (unreachable, an HTTP error,
        /// a listed page that is not HTML or redirects to another host): the gate exits 3.
        public var error: String?
        public var audited: Bool
        /// Why a page the crawl came across was left out by design (a linked PDF, a link
        /// redirecting out of scope): reported, not a failure.
        public var skipped: String?
        public var pageType: String?
        /// Component candidates on the page (keys), to tell a fixed issue from one not looked at.
        public var components: [String]
        /// Rules that applied to the page (with a finding or a passing element).
        public var rules: [String]
        public var seconds: Double?
    }

    /// Whether a finding is known.
    public enum Status: String, Sendable, Codable {
        /// Not in the baseline.
        case new
        /// Matched by a baseline entry that has not expired.
        case baselined
        /// Matched only by baseline entries whose waiver has expired: it counts as new.
        case expiredWaiver = "expired-waiver"
    }

    /// A finding as the gate judged it: the rule's finding, where it is (page, type, component)
    /// and what the baseline and policy made of it.
    @dynamicMemberLookup
    public struct Finding: Sendable, Codable, Equatable {
        public var finding: CanopyRules.Finding
        public var url: String
        public var pageType: String
        public var owner: String?
        public var signature: String
        public var component: String?
        public var componentSignature: String?
        public var componentSiteWide: Bool
        public var fingerprint: String
        public var status: Status
        /// This finding fails the gate.
        public var fails: Bool
        /// Why a new finding does not fail (below threshold, vendor, budget...), or what the
        /// waiver said; nil otherwise.
        public var note: String?

        public init(
            _ finding: CanopyRules.Finding, url: String, pageType: String, owner: String? = nil, signature: String, component: String? = nil,
            componentSignature: String? = nil, componentSiteWide: Bool, fingerprint: String, status: Status, fails: Bool, note: String? = nil
        ) {
            self.finding = finding
            self.url = url
            self.pageType = pageType
            self.owner = owner
            self.signature = signature
            self.component = component
            self.componentSignature = componentSignature
            self.componentSiteWide = componentSiteWide
            self.fingerprint = fingerprint
            self.status = status
            self.fails = fails
            self.note = note
        }

        public subscript<Value>(dynamicMember keyPath: KeyPath<CanopyRules.Finding, Value>) -> Value { finding[keyPath: keyPath] }

        /// The rule's id, as the gate output names it.
        public var rule: String { finding.ruleID }

        // The gate output (docs/gate.md) keeps the finding's fields beside the gate's: one flat object.
        private enum CodingKeys: String, CodingKey {
            case url, pageType, rule, impact, outcome, target, snippet, line, message, owner, signature, component, componentSignature
            case componentSiteWide, fingerprint, status, fails, note
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            finding = CanopyRules.Finding(
                ruleID: try container.decode(String.self, forKey: .rule), impact: try container.decode(Impact.self, forKey: .impact),
                outcome: try container.decode(FindingOutcome.self, forKey: .outcome), target: try container.decode(String.self, forKey: .target),
                snippet: try container.decode(String.self, forKey: .snippet), message: try container.decode(String.self, forKey: .message),
                sourceLine: try container.decodeIfPresent(Int.self, forKey: .line)
            )
            url = try container.decode(String.self, forKey: .url)
            pageType = try container.decode(String.self, forKey: .pageType)
            owner = try container.decodeIfPresent(String.self, forKey: .owner)
            signature = try container.decode(String.self, forKey: .signature)
            component = try container.decodeIfPresent(String.self, forKey: .component)
            componentSignature = try container.decodeIfPresent(String.self, forKey: .componentSignature)
            componentSiteWide = try container.decode(Bool.self, forKey: .componentSiteWide)
            fingerprint = try container.decode(String.self, forKey: .fingerprint)
            status = try container.decode(Status.self, forKey: .status)
            fails = try container.decode(Bool.self, forKey: .fails)
            note = try container.decodeIfPresent(String.self, forKey: .note)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(pageType, forKey: .pageType)
            try container.encode(finding.ruleID, forKey: .rule)
            try container.encode(finding.impact, forKey: .impact)
            try container.encode(finding.outcome, forKey: .outcome)
            try container.encode(finding.target, forKey: .target)
            try container.encode(finding.snippet, forKey: .snippet)
            try container.encodeIfPresent(finding.sourceLine, forKey: .line)
            try container.encode(finding.message, forKey: .message)
            try container.encodeIfPresent(owner, forKey: .owner)
            try container.encode(signature, forKey: .signature)
            try container.encodeIfPresent(component, forKey: .component)
            try container.encodeIfPresent(componentSignature, forKey: .componentSignature)
            try container.encode(componentSiteWide, forKey: .componentSiteWide)
            try container.encode(fingerprint, forKey: .fingerprint)
            try container.encode(status, forKey: .status)
            try container.encode(fails, forKey: .fails)
            try container.encodeIfPresent(note, forKey: .note)
        }
    }

    public struct ExpiredWaiver: Sendable, Codable, Equatable {
        public var fingerprint: String
        public var rule: String
        public var scope: String
        public var expires: String
        public var daysAgo: Int
        public var reason: String?
        /// One of its findings fails the gate. An expired waiver over findings the policy would
        /// not fail anyway (a vendor's, below fail-on...) is reported only.
        public var fails: Bool
        /// Why its findings do not fail, when they do not.
        public var note: String?
    }

    public struct BudgetUse: Sendable, Codable, Equatable {
        public var pattern: String
        public var allowed: Int
        public var used: Int
    }

    public var version = GateReport.currentVersion
    public var created: String
    public var result: Result
    public var exitCode: Int32
    public var failOn: String
    public var baseline: String?
    public var pages: [Page]
    public var findings: [Finding]
    /// Baseline entries whose issue is gone from pages the gate audited: `canopy baseline
    /// update` removes them.
    public var fixed: [Baseline.Entry]
    public var expiredWaivers: [ExpiredWaiver]
    public var budgets: [BudgetUse]
    public var seconds: Double
    /// Page-type and component entries whose issue no audited page of their template shows,
    /// while the gate did not audit the whole site: kept by `canopy baseline update` unless
    /// `--prune-templates`.
    public var notSeen: [Baseline.Entry]?
    /// The rules run on every audited page; an entry of another rule is never taken for fixed.
    public var rulesRun: [String]?
    /// Where the pages came from: listed URLs, a sitemap or a crawl.
    public var pageSource: PageSource?
    /// Why the gate audited fewer pages than its source lists (a sitemap or a crawl past
    /// limits.max-pages); nil when it audited them all.
    public var pageListCut: String?

    public enum PageSource: String, Sendable, Codable {
        case urls, sitemap, crawl
    }

    /// The gate audited every page of the site: a crawl or a whole sitemap, nothing cut, no
    /// page it could not audit. Only such a run confirms a template-wide entry fixed.
    public var coversWholeSite: Bool {
        (pageSource == .crawl || pageSource == .sitemap) && pageListCut == nil && unauditedPages.isEmpty
    }

    public var failing: [Finding] { findings.filter(\.fails) }
    /// Pages that should have been audited and could not be.
    public var unauditedPages: [Page] { pages.filter { !$0.audited && $0.skipped == nil } }
    public var skippedPages: [Page] { pages.filter { !$0.audited && $0.skipped != nil } }

    public static func load(contentsOf path: String) throws(Diagnostic) -> GateReport {
        guard let data = FileManager.default.contents(atPath: path) else { throw .usage("\(path): no such gate output file") }
        do {
            let report = try JSONDecoder().decode(GateReport.self, from: data)
            guard report.version == currentVersion else { throw Diagnostic(.usage, "\(path): gate output version \(report.version) is not supported") }
            return report
        } catch let error as Diagnostic {
            throw error
        } catch {
            throw .usage("\(path): not a Canopy gate output: \(error)")
        }
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (try encoder.encode(self) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
    }

    public init(created: String, result: Result, exitCode: Int32, failOn: String, baseline: String? = nil, pages: [Page], findings: [Finding], fixed: [Baseline.Entry], expiredWaivers: [ExpiredWaiver], budgets: [BudgetUse], seconds: Double, notSeen: [Baseline.Entry]? = nil, rulesRun: [String]? = nil, pageSource: PageSource? = nil, pageListCut: String? = nil) {
        self.created = created
        self.result = result
        self.exitCode = exitCode
        self.failOn = failOn
        self.baseline = baseline
        self.pages = pages
        self.findings = findings
        self.fixed = fixed
        self.expiredWaivers = expiredWaivers
        self.budgets = budgets
        self.seconds = seconds
        self.notSeen = notSeen
        self.rulesRun = rulesRun
        self.pageSource = pageSource
        self.pageListCut = pageListCut
    }
}

extension GateReport.Finding {
    public var candidate: BaselineCandidate {
        BaselineCandidate(
            pageURL: url, pageType: pageType, rule: rule, outcome: finding.outcome.rawValue, impact: finding.impact.rawValue,
            signature: signature, componentKey: component, componentSignature: componentSignature, inSiteWideComponent: componentSiteWide,
            target: finding.target, snippet: finding.snippet, owner: owner
        )
    }
}

/// Compares a gate run's pages with the baseline and applies the policy. Pure: pages in,
/// report out, so every rule of the policy is testable without a server.
public struct GateEvaluator {
    public let policy: GatePolicy
    public let baseline: Baseline?
    public let today: WaiverDate
    /// Share of the audited pages a component must be on to be site-wide (as in the store).
    public let componentShare: Double
    /// The rules run on every audited page.
    public let rulesRun: Set<String>
    /// The pages came from a source that holds the whole site (a crawl, a sitemap) and were
    /// not cut short; with every page audited, the gate saw the whole site.
    public let sourceCoversSite: Bool
    /// The listed pages, or a crawl's start URLs: such a page not audited, for whatever
    /// reason, is a failure; a page the crawl only came across may be skipped by design.
    public let requestedURLs: Set<String>

    public struct Evaluation {
        public var pages: [GateReport.Page]
        public var findings: [GateReport.Finding]
        public var fixed: [Baseline.Entry]
        public var notSeen: [Baseline.Entry]
        public var expired: [GateReport.ExpiredWaiver]
        public var budgets: [GateReport.BudgetUse]
    }

    public func evaluate(_ crawled: [AuditedPage]) -> Evaluation {
        // A page that redirects to another listed page is audited under that one's URL.
        let crawled = crawled.filter {
            if case .redirectsToCrawledPage = $0.skip, $0.error == nil { return false }
            return true
        }.sorted { $0.url < $1.url }
        let audited = crawled.filter { $0.result?.audited == true }
        let pageTypes = PageTypeClassifier().pageTypes(for: audited.map(\.url))
        let siteWide = siteWideComponents(audited)

        var pages: [GateReport.Page] = []
        var findings: [GateReport.Finding] = []
        for page in crawled {
            let audit = page.result
            var rules = Set((audit?.passCounts ?? [:]).filter { $0.value > 0 }.keys)
            rules.formUnion((audit?.findings ?? []).map(\.ruleID))
            let wasAudited = audit?.audited == true
            let (error, skipped) = wasAudited ? (nil, nil) : whyNotAudited(page)
            pages.append(GateReport.Page(
                url: page.url, status: page.statusCode, error: error, audited: wasAudited, skipped: skipped,
                pageType: pageTypes[page.url],
                components: Array(Set((audit?.components ?? []).map(\.key))).sorted(), rules: rules.sorted(),
                seconds: audit?.seconds
            ))
            for finding in audit?.findings ?? [] {
                let placement = finding.identity.component
                findings.append(GateReport.Finding(
                    finding.finding, url: page.url, pageType: pageTypes[page.url] ?? "/",
                    owner: finding.owner, signature: finding.identity.elementSignature, component: placement?.candidate.key,
                    componentSignature: placement?.elementSignature,
                    componentSiteWide: placement.map { siteWide.contains($0.candidate) } ?? false,
                    fingerprint: "", status: .new, fails: false, note: nil
                ))
                findings[findings.count - 1].fingerprint = findings[findings.count - 1].candidate.fingerprint
            }
        }

        // Baseline matching.
        let entries = baseline?.entries ?? []
        var matchedEntries = Set<Int>()
        // Expired entries and the findings only they match (no live entry does).
        var expiredMatches: [Int: [Int]] = [:]
        for index in findings.indices {
            let candidate = findings[index].candidate
            var live: Baseline.Entry?
            var expired: [Int] = []
            for (entryIndex, entry) in entries.enumerated() where entry.matches(candidate, rewrites: policy.rewrites) {
                matchedEntries.insert(entryIndex)
                if isExpired(entry) {
                    expired.append(entryIndex)
                } else if live == nil {
                    live = entry
                }
            }
            if let live {
                findings[index].status = .baselined
                findings[index].note = live.reason.map { "known: \($0)" }
            } else if let first = expired.first {
                findings[index].status = .expiredWaiver
                findings[index].note = "waiver expired on \(entries[first].expires ?? "?")" + (entries[first].reason.map { " (\($0))" } ?? "")
                for entryIndex in expired { expiredMatches[entryIndex, default: []].append(index) }
            }
        }

        // Policy, then budgets over what the policy would fail.
        var budgetCandidates: [Int: [Int]] = [:]
        var policyNotes: [Int: String] = [:]
        for index in findings.indices where findings[index].status != .baselined {
            let (fails, note, budgetable) = verdict(findings[index])
            policyNotes[index] = note
            findings[index].fails = fails
            if let note { findings[index].note = [findings[index].note, note].compactMap { $0 }.joined(separator: "; ") }
            if fails, budgetable, let budget = policy.budgets.firstIndex(where: { $0.pattern.matches(url: findings[index].url) }) {
                budgetCandidates[budget, default: []].append(index)
            }
        }
        var budgetUses: [GateReport.BudgetUse] = []
        for (budgetIndex, budget) in policy.budgets.enumerated() {
            let used = budgetCandidates[budgetIndex] ?? []
            budgetUses.append(GateReport.BudgetUse(pattern: budget.pattern.text, allowed: budget.allowed, used: used.count))
            guard used.count <= budget.allowed else { continue }
            for index in used {
                findings[index].fails = false
                findings[index].note = "within the budget of \(budget.allowed) for \(budget.pattern.text) (\(used.count) used)"
            }
        }

        // Fixed: entries matching nothing although the gate looked for their issue.
        let coverage = BaselineCoverage(
            pages: Dictionary(
                pages.filter(\.audited).map { ($0.url, BaselineCoverage.Page(components: Set($0.components), rules: rulesRun)) },
                uniquingKeysWith: { first, _ in first }
            ),
            // Pages skipped by design (a PDF, a link leaving the site) are not pages of the site.
            coversWholeSite: sourceCoversSite && pages.allSatisfy { $0.error == nil }
        )
        var fixed: [Baseline.Entry] = [], notSeen: [Baseline.Entry] = []
        for (entryIndex, entry) in entries.enumerated() where !matchedEntries.contains(entryIndex) {
            switch coverage.verdict(forUnmatched: entry, rewrites: policy.rewrites) {
            case .fixed: fixed.append(entry)
            case .notConfirmed: notSeen.append(entry)
            case .notLookedAt: break
            }
        }
        let expired = expiredMatches.keys.sorted().map { index in
            let entry = entries[index]
            let matched = expiredMatches[index] ?? []
            let fails = matched.contains { findings[$0].fails }
            return GateReport.ExpiredWaiver(
                fingerprint: entry.fingerprint, rule: entry.rule, scope: entry.scopeDescription, expires: entry.expires ?? "",
                daysAgo: WaiverDate(entry.expires ?? "").map { $0.days(until: today) } ?? 0, reason: entry.reason,
                fails: fails, note: fails ? nil : matched.lazy.compactMap { policyNotes[$0] }.first
            )
        }
        return Evaluation(pages: pages, findings: findings, fixed: fixed, notSeen: notSeen, expired: expired, budgets: budgetUses)
    }

    /// A failure (`error`) or a skip by design (`skipped`), in words that say where a
    /// redirect went.
    private func whyNotAudited(_ page: AuditedPage) -> (error: String?, skipped: String?) {
        if let error = page.error { return (error, nil) }
        if let notAudited = page.result?.notAudited {
            // Its content depends on scripts: a failure unless canopy.yml says to skip such pages.
            let reason = "not audited: " + notAudited.description
            return clientRendered == .skip ? (nil, reason) : (reason, nil)
        }
        var reason = page.skippedReason ?? "not audited"
        if case .redirectedOutOfScope(.offOrigin, let target) = page.skip,
           let from = try? CrawlURL(page.url), let to = try? CrawlURL(target), from.host != to.host {
            reason = "redirected to another host: \(target)"
        }
        return requestedURLs.contains(page.url) ? (reason, nil) : (nil, reason)
    }

    private func isExpired(_ entry: Baseline.Entry) -> Bool {
        guard let expires = entry.expires, let date = WaiverDate(expires) else { return false }
        return date < today
    }

    /// Whether a new finding fails, why not, and whether a budget may absorb it.
    private func verdict(_ finding: GateReport.Finding) -> (fails: Bool, note: String?, budgetable: Bool) {
        let override = policy.rules[finding.rule]
        if override == .never { return (false, "rule \(finding.rule) never fails (gate.rules)", false) }
        if let owner = finding.owner, !policy.failOnVendors { return (false, "owned by \(owner)", false) }
        if finding.outcome == .incomplete, !policy.failOnIncomplete { return (false, "needs review", false) }
        if override == .always { return (true, nil, false) }
        let impact = finding.impact
        if impact < policy.failOn { return (false, "below fail-on \(policy.failOn.rawValue)", false) }
        // An expired waiver is a debt come due: no budget absorbs it.
        return (true, nil, finding.status == .new)
    }

    private func siteWideComponents(_ audited: [AuditedPage]) -> Set<ComponentCandidate> {
        var counts: [ComponentCandidate: Int] = [:]
        for page in audited {
            for component in Set(page.result?.components ?? []) { counts[component, default: 0] += 1 }
        }
        // The store's rule (RunAnalysis): on the configured share of pages, and on 3 at least.
        let needed = max(3, Int((Double(audited.count) * componentShare).rounded(.up)))
        return Set(counts.filter { $0.value >= needed }.keys)
    }

    /// What a client-rendered page is to the gate: a page it could not audit, or a skip.
    public let clientRendered: ClientRenderedPages

    public init(
        policy: GatePolicy, baseline: Baseline? = nil, today: WaiverDate, componentShare: Double, rulesRun: Set<String>, sourceCoversSite: Bool,
        requestedURLs: Set<String>, clientRendered: ClientRenderedPages = .fail
    ) {
        self.clientRendered = clientRendered
        self.policy = policy
        self.baseline = baseline
        self.today = today
        self.componentShare = componentShare
        self.rulesRun = rulesRun
        self.sourceCoversSite = sourceCoversSite
        self.requestedURLs = requestedURLs
    }
}
