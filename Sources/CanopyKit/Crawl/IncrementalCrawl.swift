import CanopyCrawl
import CanopyHistory
import CanopyStore
import Foundation

/// Whether a crawl compares with the previous run, and how a page found unchanged keeps that
/// run's audit. A page is carried over only when its audit now would give what it gave then:
/// the same markup (the server's 304, the same bytes, or a sitemap `lastmod` before that run),
/// the same stylesheets, and the same rules, configuration and Canopy; anything else is audited.
public enum IncrementalCrawl {
    /// What the crawl compares with, or why it audits every page.
    public enum Decision: Sendable {
        case incremental(Baseline)
        case full(reason: String)
    }

    /// The previous complete run and its pages that can be carried over.
    public struct Baseline: Sendable {
        public let run: StoredRun
        let pages: [String: BaselinePage]
        let store: RunStore
        let now: @Sendable () -> Date
        private let counts = Counts()

        /// Pages whose markup had not changed but whose stylesheets had, so they were audited again.
        public var restyledPages: Int { counts.restyled }

        /// The hooks the crawler calls for each page.
        func crawlerBaseline(auditor: PageAuditor) -> IncrementalBaseline<PageAudit> {
            IncrementalBaseline(
                previousRunStarted: run.startedAt,
                validators: { url in pages[url]?.revision.validators },
                carryOver: { url, contentDigest in carryOver(url, contentDigest: contentDigest, auditor: auditor) }
            )
        }

        private func carryOver(_ url: String, contentDigest: String?, auditor: PageAuditor) -> CarriedPage<PageAudit>? {
            guard let page = pages[url] else { return nil }
            let revision = page.revision
            if let contentDigest, contentDigest != revision.contentDigest { return nil }
            // Sheets and frames are fetched once per crawl whatever the number of pages asking.
            let sheets = auditor.resourceDigest(of: revision.stylesheetURLs)
            guard sheets == revision.stylesheetDigest else {
                counts.addRestyled()
                return nil
            }
            // A page whose record cannot be read is audited again rather than lost.
            guard let recorded = try? store.carriedAudit(page: page.pageID) else { return nil }
            var audit = PageAudit(
                title: recorded.title, findings: recorded.findings, passCounts: recorded.passCounts, components: recorded.components
            )
            audit.axeJSONLine = auditor.axeJSONLine(url: url, date: now(), findings: recorded.findings, passingRules: Set(recorded.passCounts.keys))
            audit.stylesheetURLs = revision.stylesheetURLs
            audit.stylesheetDigest = sheets
            audit.carriedFrom = page.auditedIn
            let normalizer = auditor.crawl.normalizer
            return CarriedPage(
                result: audit, links: recorded.links.compactMap { try? normalizer.normalize($0) }, canonicalURL: revision.canonicalURL,
                statusCode: page.statusCode, contentType: page.contentType, bytes: page.bytes,
                validators: revision.validators, contentDigest: revision.contentDigest
            )
        }
    }

    /// Incremental when asked (the default) and the store's latest complete run was crawled from
    /// the same start URLs with the same configuration, rules and Canopy version; otherwise a
    /// full audit, with the reason.
    public static func decide(enabled: Bool, store: RunStore, start: RunStart, now: @escaping @Sendable () -> Date) throws -> Decision {
        guard enabled else { return .full(reason: "incremental crawling is off") }
        guard let previous = try store.latestCompleteRun() else { return .full(reason: "no earlier complete run to compare with") }
        let run = "run \(previous.id)"
        if previous.startURLs != start.startURLs { return .full(reason: "the start URLs differ from \(run)'s") }
        if previous.ruleIDs != start.ruleIDs || previous.ruleSetHash != start.ruleSetHash {
            return .full(reason: "the rules changed since \(run)")
        }
        if previous.configHash != start.configHash { return .full(reason: "the configuration changed since \(run)") }
        if previous.canopyVersion != start.canopyVersion {
            return .full(reason: "\(run) was crawled by Canopy \(previous.canopyVersion), this is \(start.canopyVersion)")
        }
        let pages = try store.baselinePages(run: previous.id)
        guard !pages.isEmpty else { return .full(reason: "\(run) kept nothing to compare pages with (recorded by an older Canopy)") }
        return .incremental(Baseline(run: previous, pages: pages, store: store, now: now))
    }

    /// Pages audited again for their styles, counted from the crawl's worker threads.
    private final class Counts: @unchecked Sendable {
        // @unchecked: `restyled` is only touched under `lock`.
        private let lock = NSLock()
        private var restyledPages = 0

        func addRestyled() { lock.withLock { restyledPages += 1 } }
        var restyled: Int { lock.withLock { restyledPages } }
    }
}
