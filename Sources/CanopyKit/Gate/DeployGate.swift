import CanopyDiagnostics
import CanopyCrawl
import CanopyReports
import CanopyRules
import CanopyHistory
import CanopyStore
import Foundation

/// What `canopy gate` does: audit a deploy's pages with the crawl's fetcher, rules, exclusions
/// and owners, compare the findings with the baseline, apply the policy, and write the outputs.
/// Exit status: 0 passed, 1 new failures, 2 bad usage or configuration, 3 a page that should
/// have been audited could not be (a failure of the gate, never a pass); pages a crawl leaves
/// out by design are reported as skipped.
public struct DeployGate: Sendable {
    public struct Options: Sendable {
        public var configPath: String?
        /// Page URLs given on the command line.
        public var urls: [String] = []
        /// A file of URLs, one a line; `#` starts a comment.
        public var urlsFile: String?
        /// A sitemap (or sitemap index) listing the pages.
        public var sitemap: String?
        /// Crawl as the configuration says instead of auditing a list of pages.
        public var crawl = false
        public var baselinePath: String?
        public var failOn: Impact?
        public var failOnVendors: Bool?
        public var failOnIncomplete: Bool?
        /// `FROM=TO` prefixes, added before the configuration's.
        public var rewrites: [String] = []
        public var outputPath: String?
        public var junitPath: String?
        public var sarifPath: String?
        public var summaryPath: String?
        /// Rule set, rules, concurrency, timeouts... as for `canopy crawl`.
        public var overrides = CrawlOverrides()
        public var environment: [String: String] = [:]

        public init() {}
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        /// The human summary and any errors, for standard error.
        public var messages: [OutcomeLine]
        public var report: GateReport?
    }

    private let progress: CrawlProgressReporter?
    private let now: @Sendable () -> Date

    public init(progress: CrawlProgressReporter? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.progress = progress
        self.now = now
    }

    public func run(_ options: Options) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        let configuration: CrawlConfiguration
        let policy: GatePolicy
        let baseline: Baseline?
        do {
            (configuration, policy) = try resolveConfiguration(options)
            baseline = try policy.baseline.map { path throws(Diagnostic) in try Baseline.load(contentsOf: path) }
        } catch let error as Diagnostic {
            return Outcome(exitStatus: .usageError, messages: [.problem(error)])
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(.usage("\(error)"))])
        }

        let pages: PagePlan
        do {
            pages = try makePlan(options, configuration: configuration, policy: policy)
        } catch let failure as Diagnostic {
            return Outcome(exitStatus: failure.exitStatus, messages: [.problem(failure)])
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(.usage("\(error)"))])
        }
        let plan = pages.plan
        let audit: AuditPlan
        do throws(Diagnostic) {
            audit = try AuditPlan(configuration: configuration)
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(error)])
        }

        let sink = GateSink()
        let summary: CrawlSummary
        do throws(FetchError) {
            summary = try PageAuditor.crawler(crawl: plan, audit: audit, sink: sink, progress: progress).run()
        } catch {
            return Outcome(exitStatus: .couldNotAudit, messages: [.problem(Diagnostic(.couldNotComplete, "the gate could not run: \(error.description)"))])
        }
        let limitReached = summary.skippedByLimit > 0
            ? "limits.max-pages (\(plan.maxPages)) was reached: \(summary.skippedByLimit) more pages found were not audited" : nil
        let cuts = [pages.cut, limitReached].compactMap { $0 }
        let cut = cuts.isEmpty ? nil : cuts.joined(separator: "; ")

        let rulesRun = Set(audit.auditor.rules.map(\.metadata.id))
        let evaluator = GateEvaluator(
            policy: policy, baseline: baseline, today: WaiverDate(now()), componentShare: configuration.components.minShare,
            rulesRun: rulesRun, sourceCoversSite: pages.source != .urls && cut == nil, requestedURLs: Set(plan.startURLs.map(\.string)),
            clientRendered: configuration.clientRendered
        )
        let evaluated = evaluator.evaluate(sink.pages)
        var report = GateReport(
            created: ISO8601DateFormatter().string(from: now()), result: .passed, exitCode: 0, failOn: policy.failOn.rawValue,
            baseline: policy.baseline, pages: evaluated.pages, findings: evaluated.findings, fixed: evaluated.fixed,
            expiredWaivers: evaluated.expired, budgets: evaluated.budgets, seconds: 0, notSeen: evaluated.notSeen,
            rulesRun: rulesRun.sorted(), pageSource: pages.source, pageListCut: cut
        )
        let status: ExitStatus
        if !report.pages.contains(where: \.audited) || !report.unauditedPages.isEmpty {
            status = .couldNotAudit
            report.result = .couldNotAudit
        } else if !report.failing.isEmpty {
            status = .violationsFound
            report.result = .failed
        } else {
            status = .passed
        }
        report.exitCode = status.rawValue
        let (seconds, attoseconds) = (clock.now - started).components
        report.seconds = Double(seconds) + Double(attoseconds) / 1e18

        let rules = Dictionary(audit.auditor.rules.map { ($0.metadata.id, $0.metadata) }, uniquingKeysWith: { first, _ in first })
        let outputs = GateOutputs(report: report, rules: rules)
        var messages: [OutcomeLine] = [.note(outputs.text())]
        var finalStatus = status
        if let failure = summary.signInFailure {
            messages.append(.problem(Diagnostic(.couldNotComplete, "the gate stopped: \(failure)")))
            finalStatus = finalStatus.combined(with: .couldNotAudit)
        }
        let writes: [(String?, String, () throws -> Data)] = [
            (options.outputPath, "gate output", { try outputs.json() }),
            (options.junitPath, "JUnit XML", { Data(outputs.junit(hostName: ProcessInfo.processInfo.hostName).utf8) }),
            (options.sarifPath, "SARIF", { try outputs.sarif() }),
            (options.summaryPath, "Markdown summary", { Data(outputs.markdown().utf8) }),
        ]
        for (path, what, make) in writes {
            guard let path else { continue }
            do {
                try make().write(to: URL(fileURLWithPath: path))
            } catch {
                messages.append(.problem(Diagnostic(.couldNotComplete, "cannot write the \(what) to \(path): \(error.localizedDescription)")))
                finalStatus = finalStatus.combined(with: .usageError)
            }
        }
        return Outcome(exitStatus: finalStatus, messages: messages, report: report)
    }

    // MARK: Configuration

    private func resolveConfiguration(_ options: Options) throws -> (CrawlConfiguration, GatePolicy) {
        var base = try options.configPath.map { path throws(Diagnostic) in
            try CrawlConfiguration.load(contentsOf: path, environment: options.environment)
        } ?? CrawlConfiguration(startURLs: [])
        // Start URLs are replaced by the gate's pages later; checked here only with the rest.
        var overrides = options.overrides
        overrides.startURLs = nil
        base = try base.applying(overrides)
        var policy = base.gate
        if let failOn = options.failOn { policy.failOn = failOn }
        if let vendors = options.failOnVendors { policy.failOnVendors = vendors }
        if let incomplete = options.failOnIncomplete { policy.failOnIncomplete = incomplete }
        if let baseline = options.baselinePath { policy.baseline = baseline }
        policy.rewrites = try options.rewrites.map { text throws(Diagnostic) in try URLRewrite(parsing: text) } + policy.rewrites
        // The sign-in page moves with the pages: production's form is signed into on staging.
        if var login = base.auth.login, let url = try? CrawlURL(policy.rewrites.apply(login.url.string)) {
            login.url = url
            base.auth.login = login
        }
        return (base, policy)
    }

    /// The crawl that visits the gate's pages, where they came from, and why the list is
    /// shorter than its source, if it is.
    private struct PagePlan {
        var plan: CrawlPlan
        var source: GateReport.PageSource
        var cut: String?
    }

    private func makePlan(_ options: Options, configuration: CrawlConfiguration, policy: GatePolicy) throws -> PagePlan {
        let listed = !options.urls.isEmpty || options.urlsFile != nil
        let chosen = [listed, options.sitemap != nil, options.crawl].filter { $0 }.count
        guard chosen == 1 else {
            throw Diagnostic(
                .usage,
                chosen == 0
                    ? "say which pages to gate: URLs, --urls FILE, --sitemap URL or --crawl"
                    : "give pages one way: URLs (with or without --urls), --sitemap or --crawl"
            )
        }
        if options.crawl {
            var crawl = configuration
            do {
                var overrides = CrawlOverrides()
                overrides.startURLs = configuration.startURLs.map { policy.rewrites.apply($0.string) }
                crawl = try configuration.applying(overrides)
                return PagePlan(plan: try CrawlPlan(configuration: crawl), source: .crawl)
            } catch {
                throw Diagnostic(.usage, error.description)
            }
        }
        var pages = options.urls
        var cut: String?
        if let file = options.urlsFile { pages += try readURLList(file) }
        if let sitemap = options.sitemap {
            let listed = try sitemapPages(policy.rewrites.apply(sitemap), configuration: configuration, rewrites: policy.rewrites)
            pages += listed.urls
            cut = listed.cut
        }
        pages = pages.map { policy.rewrites.apply($0) }
        guard !pages.isEmpty else { throw Diagnostic(.usage, "no page to gate: the list is empty") }

        var listConfiguration = configuration
        var overrides = CrawlOverrides()
        overrides.startURLs = pages
        do {
            listConfiguration = try configuration.applying(overrides)
        } catch {
            throw Diagnostic(.usage, error.description)
        }
        var plan: CrawlPlan
        do {
            plan = try CrawlPlan(configuration: listConfiguration)
        } catch {
            throw Diagnostic(.usage, error.description)
        }
        // Exactly the listed pages: no links followed, no sitemap, no robots.txt (the team
        // gates its own deploy), no scope pattern turning a listed page away. A listed page may
        // redirect within its host, on any scheme or port (http to https); a redirect to
        // another host (a login service, another site) leaves the page unaudited.
        plan.maxDepth = 0
        plan.sitemaps = .none
        plan.honoursRobots = false
        plan.scope = CrawlScope(startURLs: plan.startURLs)
        for url in plan.startURLs { plan.scope.addHost(url.host) }
        plan.maxPages = max(plan.startURLs.count, 1)
        return PagePlan(plan: plan, source: options.sitemap != nil ? .sitemap : .urls, cut: cut)
    }

    private func readURLList(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Diagnostic(.usage, "\(path): cannot read the URL list")
        }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let url = content.trimmingCharacters(in: .whitespaces)
            return url.isEmpty ? nil : url
        }
    }

    /// The pages a sitemap (or a tree of sitemap indexes) lists, in order, rewritten.
    private func sitemapPages(_ sitemap: String, configuration: CrawlConfiguration, rewrites: [URLRewrite]) throws -> SitemapPageList.Pages {
        let url: CrawlURL
        do {
            url = try configuration.normalizer.normalize(sitemap)
        } catch {
            throw Diagnostic(.usage, "--sitemap \(sitemap): \(error)")
        }
        do {
            return try SitemapPageList(configuration: configuration, sitemap: url, rewrites: rewrites).pages(from: url)
        } catch {
            throw Diagnostic(.couldNotComplete, error.description)
        }
    }
}

/// Keeps the gate's pages; bodies are already gone, a record is a few KB.
final class GateSink: CrawlSink, @unchecked Sendable {
    // @unchecked: `collected` is touched under `lock` only.
    typealias Result = PageAudit
    private let lock = NSLock()
    private var collected: [AuditedPage] = []

    func record(_ page: AuditedPage) {
        var page = page
        page.result?.axeJSONLine = []
        lock.withLock { collected.append(page) }
    }

    var pages: [AuditedPage] { lock.withLock { collected } }
}
