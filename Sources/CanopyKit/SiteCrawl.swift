import CanopyDiagnostics
import CanopyCrawl
import CanopyReports
import CanopyRules
import CanopyHistory
import CanopyStore
import Foundation

/// What `canopy crawl` does: read the configuration, crawl and audit the site, record the run in
/// the store, and write the run's files under the reports folder.
public struct SiteCrawl: Sendable {
    public struct Options: Sendable {
        /// canopy.yml; nil when the crawl is described by the command line alone.
        public var configPath: String?
        public var overrides: CrawlOverrides
        public var verbosity: Verbosity
        /// Resolves `${NAME}` in credentials.
        public var environment: [String: String]
        /// Continue an interrupted run of the store instead of starting a new one.
        public var resume: ResumeRequest?

        public init(
            configPath: String? = nil, overrides: CrawlOverrides = CrawlOverrides(), verbosity: Verbosity = .normal,
            environment: [String: String] = [:], resume: ResumeRequest? = nil
        ) {
            self.configPath = configPath
            self.overrides = overrides
            self.verbosity = verbosity
            self.environment = environment
            self.resume = resume
        }
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        /// Lines for the log: errors, or where the results went.
        public var messages: [OutcomeLine]
        public var summary: RunSummary?
        public var run: RunID?
        public var storePath: String?
        public var reportsFolder: String?
        /// The reports written at the end of the crawl (index.html, trend.json, ...).
        public var report: ReportWriter.Output?
        /// Stopped by the `Stopper` before the crawl was done: the run is marked interrupted.
        public var interrupted = false
        /// The digest reached the configured webhook; nil when none is configured.
        public var notified: Bool?
    }

    /// Lets a signal handler stop a running crawl; the crawl then records what it finished.
    public final class Stopper: @unchecked Sendable {
        private let lock = NSLock()
        private var crawler: SiteCrawler<PageAudit>?
        private var stopped = false

        public init() {}

        public func stop() {
            let crawler = lock.withLock { stopped = true; return self.crawler }
            crawler?.stop()
        }

        var wasStopped: Bool { lock.withLock { stopped } }

        func attach(_ crawler: SiteCrawler<PageAudit>) -> Bool {
            lock.withLock {
                self.crawler = crawler
                return !stopped
            }
        }
    }

    private let progress: CrawlProgressReporter?
    private let now: @Sendable () -> Date
    private let notifier: DigestNotifier

    public init(progress: CrawlProgressReporter? = nil, now: @escaping @Sendable () -> Date = Date.init, notifier: DigestNotifier = DigestNotifier()) {
        self.progress = progress
        self.now = now
        self.notifier = notifier
    }

    public func run(_ options: Options, stopper: Stopper = Stopper()) -> Outcome {
        FreedMemory.mapLargeBlocksApart()
        var outcome = Outcome(exitStatus: .passed, messages: [])
        let configuration: CrawlConfiguration
        let plan: CrawlPlan
        let audit: AuditPlan
        do throws(Diagnostic) {
            let base = try options.configPath.map { path throws(Diagnostic) in
                try CrawlConfiguration.load(contentsOf: path, environment: options.environment)
            } ?? CrawlConfiguration(startURLs: [])
            configuration = try base.applying(options.overrides)
            plan = try CrawlPlan(configuration: configuration)
            audit = try AuditPlan(configuration: configuration)
        } catch {
            outcome.exitStatus = .usageError
            outcome.messages = [.problem(error)]
            return outcome
        }

        let reports = configuration.output.reports
        outcome.reportsFolder = reports
        outcome.storePath = configuration.output.storePath
        let start = RunStart(
            startedAt: now(), configHash: configuration.configHash, ruleSetName: ruleSetName(configuration),
            ruleIDs: audit.auditor.rules.map(\.metadata.id), ruleSetHash: Self.ruleSetHash(audit.auditor.rules),
            canopyVersion: CanopyVersion.current, startURLs: plan.startURLs.map(\.string)
        )
        let resultsPath = (reports as NSString).appendingPathComponent("results.jsonl")
        let store: RunStore, run: RunID, storeSink: StoreSink, lines: JSONLinesSink
        var finished: [RecordedPage] = []
        // Held until the run is recorded and reported: a second crawl of the same store is refused.
        let writer: StoreWriterLock
        do {
            writer = try StoreWriterLock(storePath: configuration.output.storePath)
        } catch {
            outcome.exitStatus = .usageError
            outcome.messages.append(.problem(Diagnostic(.store, "\(error)")))
            return outcome
        }
        defer { writer.release() }
        do {
            store = try RunStore(path: configuration.output.storePath, analysis: AnalysisOptions(componentPageShare: configuration.components.minShare))
            _ = try store.interruptAbandonedRuns(at: now())
            if let request = options.resume {
                switch ResumeSelection.choose(request, among: try store.runs(), for: start, store: configuration.output.storePath) {
                case .failure(let refusal):
                    outcome.exitStatus = .usageError
                    outcome.messages = [.problem(refusal)]
                    return outcome
                case .success(let resumed):
                    run = resumed.id
                }
                // Read before the run is taken over, so that nothing is left half done if this fails.
                finished = try store.recordedPages(run: run)
                lines = try JSONLinesSink(resuming: resultsPath, keeping: Set(finished.map(\.url)))
                try store.resume(run)
                outcome.messages.append("resuming run \(run): \(finished.count) pages already recorded are not fetched again")
                if lines.missingLines > 0 {
                    outcome.messages.append("note: \(lines.missingLines) of them had no line left in \(resultsPath); their results are in the store")
                }
            } else {
                lines = try JSONLinesSink(path: resultsPath)
                run = try store.begin(start)
            }
            storeSink = StoreSink(store: store, run: run)
        } catch {
            outcome.exitStatus = .usageError
            outcome.messages.append(.problem(Diagnostic(.store, "cannot write the run's results: \(error)")))
            return outcome
        }
        outcome.run = run

        let comparison: IncrementalCrawl.Decision
        do {
            comparison = try IncrementalCrawl.decide(enabled: configuration.incremental, store: store, start: start, now: now)
        } catch {
            comparison = .full(reason: "the store's latest run could not be read (\(error))")
        }
        let previous: IncrementalCrawl.Baseline? = if case .incremental(let baseline) = comparison { baseline } else { nil }
        let tally = AuditTally(resumed: finished)
        let session = SignInSession(crawl: plan)
        let stylesheets = PageAuditor.styleSheetFetcher(for: plan, session: session)
        let crawler = PageAuditor.crawler(
            crawl: plan, audit: audit, sink: CombinedSink<PageAudit>([storeSink, lines, tally]), progress: progress,
            resuming: finished.map(\.page), stylesheets: stylesheets, previous: previous, session: session
        )
        guard stopper.attach(crawler) else {
            // Stopped (a signal) between opening the store and the first request: nothing was crawled.
            try? store.markInterrupted(run, at: now())
            outcome.interrupted = true
            outcome.exitStatus = .couldNotAudit
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "stopped before the crawl began")))
            return outcome
        }
        var summary: RunSummary
        do throws(FetchError) {
            summary = RunSummary(crawl: try crawler.run(), tally: tally, stylesheets: stylesheets.statistics)
            switch comparison {
            case .incremental(let baseline):
                summary.comparedWithRun = baseline.run.id
                summary.pagesRestyled = baseline.restyledPages
            case .full(let reason):
                summary.fullAuditReason = reason
            }
        } catch {
            try? store.markInterrupted(run, at: now())
            outcome.interrupted = stopper.wasStopped
            outcome.exitStatus = .couldNotAudit
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "the crawl could not run: \(error.description)")))
            return outcome
        }
        storeSink.flush()
        // The pages are done: what their audits freed goes back before the run's analysis and
        // reports, which the whole run's peak would otherwise stack on top of.
        FreedMemory.handBack()
        outcome.summary = summary

        var coverage = RunCoverage(
            // Every URL taken in (audited, failed, not HTML, redirected away; when resuming, those
            // recorded before too) and those over max-pages. A client-rendered page was parsed but
            // not audited.
            planned: finished.count + storeSink.pagesReceived + summary.skippedByLimit,
            crawled: summary.pagesAudited - tally.clientRendered, failed: summary.pagesFailed + summary.pagesWithErrorStatus,
            skippedByScope: summary.skippedByScope.values.reduce(0, +), skippedByRobots: summary.skippedByRobots
        )
        let sheets = summary.stylesheets
        coverage.stylesheets = StyleSheetCoverage(loaded: sheets.requested - sheets.failed - sheets.missing, failed: sheets.failed, missing: sheets.missing)
        summary.pagesClientRendered = tally.clientRendered
        summary.clientRenderedExamples = tally.clientRenderedExamples
        var latestResults: LatestResultsFile?
        do {
            if stopper.wasStopped {
                try store.markInterrupted(run, at: now())
                outcome.interrupted = true
                outcome.messages.append(.note(
                    "stopped: \(summary.pagesAudited) pages audited and recorded; run \(run) is marked interrupted and left out of trends; "
                        + "`canopy crawl --resume` with the same configuration continues it"
                ))
            } else if let failure = summary.signInFailure {
                // The rest of the site was not reached: a complete run would show it as vanished.
                try store.markInterrupted(run, at: now())
                outcome.exitStatus = .couldNotAudit
                outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "the crawl stopped: \(failure)")))
                outcome.messages.append(.note(
                    "  \(summary.pagesAudited) pages audited and recorded; run \(run) is marked interrupted and left out of trends"
                ))
            } else {
                // latest-results.jsonl reads nothing the analysis writes: it is written on the
                // other core while the analysis runs, and committed with the reports. Without it
                // (the folder cannot be written) the reports write it themselves, or say why not.
                latestResults = try? LatestResultsFile(store: store, run: run, folder: reports)
                try store.finish(run, coverage: coverage, endedAt: now())
                // As the store counted it: with the pages of a resumed run's first part.
                summary.coverage = try store.run(run)?.coverage
                outcome.summary = summary
            }
        } catch {
            latestResults?.discard()
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "could not complete the run record: \(error)")))
            outcome.exitStatus = .couldNotAudit
            return outcome
        }
        // The run is on record: a summary file that cannot be written (a full disk) is said, and
        // the reports are still tried.
        do {
            try writeSummary(summary, run: run, to: reports)
        } catch {
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "could not write \(reports)/run-summary.json: \(error.localizedDescription)")))
            outcome.exitStatus = .couldNotAudit
        }
        // The reports cover complete runs only, so an interrupted crawl leaves them showing the
        // last complete run; written either way so Reports/ always matches the store.
        do {
            outcome.report = try ReportWriter(store: store, now: now).write(to: reports, latestResults: latestResults)
        } catch {
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "could not write the reports to \(reports): \(error)")))
            outcome.exitStatus = .couldNotAudit
        }
        if let writeError = storeSink.writeError {
            outcome.messages.append(.problem(Diagnostic(.couldNotComplete, "some pages could not be stored: \(writeError)")))
            outcome.exitStatus = .couldNotAudit
        }
        if let writeError = lines.writeError {
            outcome.messages.append(.problem(Diagnostic(
                .couldNotComplete,
                "\(lines.linesNotWritten) pages have no whole line in \(resultsPath) (\(writeError.localizedDescription)); their results are in the store"
            )))
            outcome.exitStatus = .couldNotAudit
        }
        if summary.startUnreachable {
            outcome.messages.append(.problem(Diagnostic(.pageNotAudited, "no page could be audited: the start URL did not answer (see \(reports)/results.jsonl and the store)")))
            outcome.exitStatus = .couldNotAudit
        }
        // As the README's table says: violations found (and recorded) is 1, the normal outcome of
        // a scheduled crawl; a worse code (2, 3) wins.
        if summary.violations > 0 { outcome.exitStatus = outcome.exitStatus.combined(with: .violationsFound) }
        outcome.messages.append(.note(Self.describe(summary, run: run, reports: reports, store: configuration.output.storePath)))
        if let report = outcome.report {
            outcome.messages.append("  report: \(report.htmlPath)")
            if report.digest != nil { outcome.messages.append("  digest: \((reports as NSString).appendingPathComponent(ReportWriter.digestFile))") }
        }
        if let url = configuration.notify.url, let report = outcome.report, let digest = report.digest, let markdown = report.digestMarkdown {
            // After the run is recorded and reported: a chat outage never costs a run.
            let delivery = notifier.post(markdown: markdown, digest: digest, to: configuration.notify)
            let target = DigestNotifier.describe(url)
            outcome.messages.append(.note(
                delivery.delivered
                    ? "  digest posted to \(target)"
                    : "warning: the digest could not be posted to \(target) (\(delivery.lastProblem ?? "no answer") after \(delivery.attempts) attempt\(delivery.attempts == 1 ? "" : "s")); the run and its reports are unaffected"
            ))
            outcome.notified = delivery.delivered
        }
        return outcome
    }

    private func ruleSetName(_ configuration: CrawlConfiguration) -> String {
        guard let path = configuration.rules.set else { return "default" }
        return (try? RuleSet.load(contentsOf: path).name) ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    /// Changes when a rule is added, removed, or its impact overridden: a jump in a trend can
    /// then be put down to the rules rather than the site.
    static func ruleSetHash(_ rules: [any Rule]) -> String {
        SHA256.hexDigest(Array(rules.map { "\($0.metadata.id):\($0.metadata.impact.rawValue)" }.joined(separator: "\n").utf8))
    }

    private func writeSummary(_ summary: RunSummary, run: RunID, to folder: String) throws {
        struct RunSummaryFile: Encodable {
            let run: RunID
            let canopyVersion: String
            let summary: RunSummary
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(RunSummaryFile(run: run, canopyVersion: CanopyVersion.current, summary: summary))
        try data.write(to: URL(fileURLWithPath: folder).appendingPathComponent("run-summary.json"))
    }

    static func describe(_ summary: RunSummary, run: RunID, reports: String, store: String) -> String {
        var lines = [
            String(format: "run %@: %d pages audited in %.1f s (%.0f pages/s), %d violations, %d to review",
                   run.description, summary.pagesAudited, summary.seconds, summary.pagesPerSecond, summary.violations, summary.incomplete),
        ]
        if summary.signIns > 0 || summary.signInFailure != nil {
            var line = "  signed in: \(summary.signIns) time\(summary.signIns == 1 ? "" : "s")"
            if summary.sessionLosses > 0 { line += ", the session was lost \(summary.sessionLosses) time\(summary.sessionLosses == 1 ? "" : "s")" }
            if summary.pagesSignInLost > 0 { line += "; \(summary.pagesSignInLost) page\(summary.pagesSignInLost == 1 ? "" : "s") not audited (sign-in lost)" }
            lines.append(line)
        }
        if summary.resumedPages > 0 {
            lines.append("  resumed: \(summary.resumedPages) pages (\(summary.resumedAudited) audited) were recorded before the interruption")
        }
        if let previous = summary.comparedWithRun {
            let unchanged = summary.pagesUnchanged.values.reduce(0, +)
            let how = UnchangedEvidence.allCases.compactMap { evidence in
                summary.pagesUnchanged[evidence.rawValue].map { "\($0) \(evidence.phrase)" }
            }
            var line = "  incremental: \(unchanged) pages unchanged since run \(previous) kept its findings"
            if !how.isEmpty { line += " (\(how.joined(separator: ", ")))" }
            line += "; \(summary.pagesAudited - summary.resumedAudited - unchanged) audited"
            if summary.pagesRestyled > 0 { line += ", \(summary.pagesRestyled) of them for changed stylesheets" }
            lines.append(line)
        } else if let reason = summary.fullAuditReason {
            lines.append("  full audit: \(reason)")
        }
        let skippedByScope = summary.skippedByScope.values.reduce(0, +)
        lines.append("  failed \(summary.pagesFailed), error status \(summary.pagesWithErrorStatus), not HTML \(summary.pagesNotHTML); "
            + "skipped: \(skippedByScope) out of scope, \(summary.skippedByRobots) by robots.txt, \(summary.skippedByLimit) over max-pages")
        if let coverage = summary.coverage { lines.append("  coverage: " + CoverageText.line(coverage)) }
        if summary.pagesClientRendered > 0 {
            let more = summary.pagesClientRendered > summary.clientRenderedExamples.count
                ? ", and \(summary.pagesClientRendered - summary.clientRenderedExamples.count) more" : ""
            lines.append(
                "  not audited, client-rendered (their content depends on scripts; see docs on `client-rendered`): "
                    + summary.clientRenderedExamples.joined(separator: ", ") + more
            )
        }
        let sheets = summary.stylesheets
        if sheets.requested > 0 {
            var line = "  stylesheets: \(sheets.requested) requested once each for the whole crawl"
            if sheets.missing > 0 { line += ", \(sheets.missing) missing (404: browsers get no styles from them either)" }
            if sheets.failed > 0 { line += ", \(sheets.failed) could not be used (the pages that use them are left for review by the rules that read styles)" }
            lines.append(line)
        }
        lines.append("  results: \(reports)/results.jsonl, \(reports)/run-summary.json; history: \(store)")
        return lines.joined(separator: "\n")
    }
}

/// What `canopy crawl` did: the crawl's own summary, and what the audits found.
@dynamicMemberLookup
public struct RunSummary: Sendable, Equatable, Encodable {
    public var crawl: CrawlSummary
    public var violations = 0
    public var incomplete = 0
    /// Linked and imported stylesheets the crawl loaded, each once.
    public var stylesheets = StyleSheetStatistics()
    /// The run an incremental crawl compared with (`crawl.pagesUnchanged` counts what it kept).
    public var comparedWithRun: RunID?
    /// Why every page was audited, when the crawl was not incremental.
    public var fullAuditReason: String?
    /// Pages whose markup had not changed, audited again because their stylesheets had.
    public var pagesRestyled = 0
    /// Pages parsed but not audited because their content depends on scripts, and the first few of them.
    public var pagesClientRendered = 0
    public var clientRenderedExamples: [String] = []
    /// The run's coverage as the store recorded it; nil for a run that did not complete.
    public var coverage: RunCoverage?

    public init(crawl: CrawlSummary, violations: Int = 0, incomplete: Int = 0) {
        self.crawl = crawl
        self.violations = violations
        self.incomplete = incomplete
    }

    init(crawl: CrawlSummary, tally: AuditTally, stylesheets: StyleSheetStatistics) {
        self.init(crawl: crawl, violations: tally.violations, incomplete: tally.incomplete)
        self.stylesheets = stylesheets
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<CrawlSummary, Value>) -> Value { crawl[keyPath: keyPath] }

    private enum CodingKeys: String, CodingKey {
        case violations, incomplete, stylesheets, comparedWithRun, fullAuditReason, pagesRestyled, pagesClientRendered, coverage
    }

    /// One object: the crawl's keys and the audit's side by side, as run-summary.json has them.
    public func encode(to encoder: any Encoder) throws {
        try crawl.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(violations, forKey: .violations)
        try container.encode(incomplete, forKey: .incomplete)
        try container.encode(stylesheets, forKey: .stylesheets)
        try container.encode(comparedWithRun, forKey: .comparedWithRun)
        try container.encode(fullAuditReason, forKey: .fullAuditReason)
        try container.encode(pagesRestyled, forKey: .pagesRestyled)
        try container.encode(pagesClientRendered, forKey: .pagesClientRendered)
        try container.encode(coverage, forKey: .coverage)
    }
}

/// Counts what the audits of a crawl found, the pages a resumed run recorded before included.
final class AuditTally: CrawlSink, @unchecked Sendable {
    // @unchecked: the crawler calls `record` from one thread at a time; read after the crawl.
    typealias Result = PageAudit
    private(set) var violations = 0
    private(set) var incomplete = 0
    private(set) var clientRendered = 0
    private(set) var clientRenderedExamples: [String] = []

    init(resumed: [RecordedPage] = []) {
        for page in resumed {
            violations += page.violations
            incomplete += page.incomplete
            if page.clientRendered { countClientRendered(page.url) }
        }
    }

    func record(_ page: AuditedPage) {
        guard let audit = page.result else { return }
        violations += audit.violationCount
        incomplete += audit.incompleteCount
        if audit.notAudited?.reason == NotAudited.clientRendered { countClientRendered(page.url) }
    }

    private func countClientRendered(_ url: String) {
        clientRendered += 1
        if clientRenderedExamples.count < 5 { clientRenderedExamples.append(url) }
    }
}

extension UnchangedEvidence {
    /// How the crawl's summary line puts it.
    var phrase: String {
        switch self {
        case .notModified: "not modified (304)"
        case .sameContent: "sent again unchanged"
        case .sitemapLastModified: "not requested (sitemap lastmod)"
        }
    }
}
