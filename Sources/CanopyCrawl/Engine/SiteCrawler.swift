import Foundation

/// Receives what a crawl produces, in the order pages finish. Called from one thread at a time.
public protocol CrawlSink<Result>: AnyObject, Sendable {
    associatedtype Result: Sendable
    func record(_ page: CrawledPage<Result>)
}

/// Hands every page to several sinks in turn.
public final class CombinedSink<Result: Sendable>: CrawlSink, @unchecked Sendable {
    // @unchecked: immutable; each sink is called from the crawl's one sink thread at a time.
    private let sinks: [any CrawlSink<Result>]

    public init(_ sinks: [any CrawlSink<Result>]) {
        self.sinks = sinks
    }

    public func record(_ page: CrawledPage<Result>) {
        for sink in sinks { sink.record(page) }
    }
}

/// What a whole crawl did.
public struct CrawlSummary: Sendable, Codable, Equatable {
    public var startURLs: [String] = []
    /// Pages handed to the page processor (parsed and audited, for Canopy).
    public var pagesAudited = 0
    public var pagesFailed = 0
    /// Fetched but not HTML (PDFs, images, ...): recorded, not audited.
    public var pagesNotHTML = 0
    /// Answered with 4xx/5xx: recorded as broken, not audited.
    public var pagesWithErrorStatus = 0
    /// Redirects that led to a page audited under another URL.
    public var duplicatesByRedirect = 0
    public var skippedByScope: [String: Int] = [:]
    public var skippedByRobots = 0
    public var skippedByLimit = 0
    public var sitemapsRead = 0
    public var urlsFromSitemaps = 0
    public var bytes = 0
    public var seconds: Double = 0
    /// Nothing could be audited because no start URL answered.
    public var startUnreachable = false
    /// Pages a resumed run had already recorded: counted above, not fetched again.
    public var resumedPages = 0
    /// How many of those were processed.
    public var resumedAudited = 0
    /// Pages of an incremental crawl whose result was carried over from the previous run
    /// (counted in `pagesAudited` too), by how they were known to be unchanged
    /// (`UnchangedEvidence` raw values).
    public var pagesUnchanged: [String: Int] = [:]
    /// Successful form sign-ins (`auth.login`), the first one included; 0 without one.
    public var signIns = 0
    /// Times the session was found lost during the crawl; each cost one sign-in again.
    public var sessionLosses = 0
    /// Pages that showed the sign-in page and could not be recovered: recorded as not audited,
    /// with an error starting "sign-in lost" (counted in `pagesFailed` or
    /// `pagesWithErrorStatus` too).
    public var pagesSignInLost = 0
    /// Why the crawl stopped because it could not sign in (at the start, or again after the
    /// session was lost); nil when it did not.
    public var signInFailure: String?

    public init() {}

    /// Pages audited per second by this crawl (a resumed run's earlier pages took no time here).
    public var pagesPerSecond: Double { seconds > 0 ? Double(pagesAudited - resumedAudited) / seconds : 0 }
}

/// Crawls a site: robots.txt and sitemaps first, then breadth-first from the start URLs within
/// scope, fetching on one libcurl event loop and processing pages on every core, with each page
/// handed to the sink as soon as it is done. What processing a page means (for Canopy: parse,
/// audit, fingerprint) is the `process` closure's business; the crawler only needs the links it
/// gives back. Memory stays bounded: a page's body lives only while its worker processes it, and
/// at most a few dozen fetched bodies wait for a worker.
public final class SiteCrawler<Result: Sendable>: @unchecked Sendable {
    // @unchecked: the mutable crawl state below is only touched under `lock`; the plan is
    // immutable; the sink is called under `sinkLock`.
    private enum JobKind: Sendable {
        /// `redirects` counts the hops already followed to reach this request.
        case robots(Origin, redirects: Int)
        case sitemap(depth: Int, redirects: Int)
        case page(depth: Int, requested: CrawlURL, chain: [Redirect], mode: PageFetch = .plain)
    }

    private enum PageFetch: Sendable {
        case plain
        /// With the previous run's validators: a 304 means the page has not changed.
        case conditional
        /// Again without validators, after a 304 for a page that must be processed afresh.
        case refetch
    }

    /// A redirect hop to fetch next, with the record its page has so far.
    private struct Hop: Sendable {
        var target: CrawlURL
        var depth: Int
        var requested: CrawlURL
        /// The redirects so far, the one to `target` included.
        var chain: [Redirect]
        var page: CrawledPage<Result>
    }

    /// Waits for its origin's robots.txt: a URL to admit, or a redirect hop to send on.
    private enum Parked: Sendable {
        case url(CrawlURL, depth: Int)
        case hop(Hop)
    }

    private let plan: CrawlPlan
    private let process: @Sendable (consuming FetchedPage) -> ProcessedPage<Result>
    private let sink: any CrawlSink<Result>
    private let progress: CrawlProgressReporter?
    private let clock = ContinuousClock()

    private let lock = NSLock()
    /// Every URL the crawl met, with what it did with it (`Met`), packed: the one structure
    /// that grows with the site, a few tens of bytes a URL.
    private var met = URLFlagTable()
    /// Pages an interrupted run recorded, when this crawl resumes it.
    private let finished: [FinishedPage]
    /// Pages admitted and not yet handed to the fetch loop, by origin, mostly on disk: a
    /// breadth-first crawl has most of a large site waiting at once.
    private var frontier: [Origin: FrontierQueue] = [:]
    /// Pages of each origin handed to the fetch loop and not yet handled: at most `pageWindow`,
    /// so the loop's queues stay short and a slow host does not hold up the others.
    private var pagesInLoop: [Origin: Int] = [:]
    private let pageWindow: Int
    /// Jobs handed to the fetch loop and not yet handled.
    private var jobs: [Int: JobKind] = [:]
    private var nextTag = 0
    /// Jobs submitted and not yet fully handled; the crawl ends when it returns to zero.
    private var pendingWork = 0
    private var pagesAdmitted = 0
    private var robots: [Origin: RobotsTxt] = [:]
    /// URLs and redirect hops waiting for their origin's robots.txt.
    private var parked: [Origin: [Parked]] = [:]
    /// The plan's scope, widened when a start URL redirects to its own site on another scheme,
    /// port or `www.` host (see `widenScope`).
    private var scope: CrawlScope
    private var sitemapsRequested = 0
    private var summary = CrawlSummary()
    private var progressState = CrawlProgress()
    private var started: ContinuousClock.Instant?
    private var loop: FetchLoop?
    private var stopped = false
    private var workers: WorkerPool<FetchCompletion>?
    private let sinkLock = NSLock()
    /// The previous run of an incremental crawl.
    private let baseline: IncrementalBaseline<Result>?
    /// The `<lastmod>` sitemaps gave pages (only with a baseline to compare it with).
    private var sitemapLastModified: [String: Date] = [:]
    /// The signed-in session, when the plan signs in through a form.
    private let session: SignInSession?
    /// How each page job's request was sent with the session, by tag.
    private var sentWith: [Int: SessionUse] = [:]

    /// - Parameters:
    ///   - process: called on a worker thread for every HTML page fetched with a 2xx status. The
    ///     page is handed over: the crawler keeps no reference to its body, so a processor that
    ///     lets go of it after parsing frees it (6 MB on javadoc's largest page) for the audit.
    ///   - baseline: the previous run, for an incremental crawl: pages that did not change since
    ///     keep its results instead of being processed.
    ///   - session: the session of a plan that signs in, when the caller shares it (with the
    ///     stylesheet fetcher); by default the crawler makes its own.
    public init(
        plan: CrawlPlan, process: @escaping @Sendable (consuming FetchedPage) -> ProcessedPage<Result>, sink: any CrawlSink<Result>,
        progress: CrawlProgressReporter? = nil, resuming finished: [FinishedPage] = [], baseline: IncrementalBaseline<Result>? = nil,
        session: SignInSession? = nil
    ) {
        self.plan = plan
        self.session = session ?? SignInSession(crawl: plan)
        self.baseline = baseline
        self.process = process
        self.scope = plan.scope
        self.finished = finished
        self.sink = sink
        self.progress = progress
        self.pageWindow = max(16, plan.fetchPolicy.maxPerHost * 4)
    }

    /// Crawls until the frontier is empty or a limit is reached, and says what happened.
    public func run() throws(FetchError) -> CrawlSummary {
        if let session {
            // Signed in before anything else is fetched, so no page is ever seen signed out.
            do throws(SignInFailure) {
                try session.signIn()
            } catch {
                return lock.withLock {
                    summary.startURLs = plan.startURLs.map(\.string)
                    summary.signInFailure = "signing in at \(session.plan.url) failed: \(error.message)"
                    return summary
                }
            }
        }
        let loop = try FetchLoop(policy: plan.fetchPolicy) { [unowned self] (completion: consuming FetchCompletion) in
            // Handed on, not copied: the worker must be the only owner of the page's body.
            self.workers?.submit(consume completion)
        }
        // Bodies waiting for a worker are bounded in bytes too: a run of megabyte pages (a
        // site's index pages) would otherwise queue tens of megabytes on top of those in work.
        let workers = WorkerPool<FetchCompletion>(
            workers: plan.workerThreads, capacity: plan.workerThreads * 4, weight: { $0.queuedBytes }, maximumWeight: 8 << 20,
            name: "canopy-audit"
        ) { [unowned self] (completion: consuming FetchCompletion) in
            self.handle(consume completion)
        }
        lock.withLock {
            self.loop = loop
            self.workers = workers
            started = clock.now
            summary.startURLs = plan.startURLs.map(\.string)
            pendingWork += 1  // held until the seeds are in, so the crawl cannot end early
        }
        restoreFinished()
        progress?.start { [weak self] in self?.lock.withLock { self?.currentProgress() } }
        seed()
        replayFinishedLinks()
        workDone()
        loop.run()
        workers.close()
        workers.wait()
        let (result, final) = lock.withLock {
            summary.seconds = elapsedSeconds()
            summary.startUnreachable = summary.pagesAudited == 0 && summary.pagesFailed + summary.pagesWithErrorStatus > 0
                && summary.signInFailure == nil
            if let statistics = session?.currentStatistics {
                summary.signIns = statistics.signIns
                summary.sessionLosses = statistics.sessionLosses
            }
            self.loop = nil
            self.workers = nil
            return (summary, currentProgress())
        }
        // Outside the lock: finishing waits for the progress heartbeat, which takes the lock.
        progress?.finish(final)
        return result
    }

    /// Stops early (SIGINT/SIGTERM): transfers are abandoned, finished pages stay recorded.
    public func stop() {
        lock.withLock { stopped = true; return loop }?.stop()
    }

    // MARK: - Frontier

    private func seed() {
        let origins = Set(plan.startURLs.map(\.origin))
        for origin in origins.sorted() {
            if plan.honoursRobots {
                lock.withLock { parked[origin] = [] }
                if let robotsURL = originURL(origin, "/robots.txt") { submit(url: robotsURL, kind: .robots(origin, redirects: 0)) }
            } else if plan.sitemaps == .auto {
                if let sitemap = originURL(origin, "/sitemap.xml") { requestSitemap(sitemap, depth: 0) }
            }
        }
        if case .listed(let sitemaps) = plan.sitemaps {
            for sitemap in sitemaps { requestSitemap(sitemap, depth: 0) }
        }
        for url in plan.startURLs { admit(url, depth: 0) }
    }

    /// Takes a URL into the crawl if it is new, in scope, allowed and within the limits. True
    /// when this is the first time the URL was offered.
    @discardableResult
    private func admit(_ url: CrawlURL, depth: Int) -> Bool {
        let origin = url.origin
        var firstOffer = false
        let admission: Admission = lock.withLock {
            let before = met.insert(Met.offered, for: url.string)
            firstOffer = before & Met.offered == 0
            guard before & (Met.taken | Met.turnedAway) == 0 else { return .rejected }
            let decision = scope.decision(for: url)
            guard decision == .inScope else {
                met.insert(Met.turnedAway, for: url.string)
                summary.skippedByScope[decision.description, default: 0] += 1
                return .rejected
            }
            if let avoided = avoidance(of: url) {
                met.insert(Met.turnedAway, for: url.string)
                summary.skippedByScope[avoided, default: 0] += 1
                return .rejected
            }
            if plan.honoursRobots {
                guard let rules = robots[origin] else {
                    // Its robots.txt is on the way, or this is the first URL of another allowed origin.
                    let firstOfOrigin = parked[origin] == nil
                    parked[origin, default: []].append(.url(url, depth: depth))
                    return firstOfOrigin ? .waitsForRobots(origin) : .rejected
                }
                guard rules.isAllowed(path: url.pathAndQuery) else {
                    met.insert(Met.turnedAway, for: url.string)
                    summary.skippedByRobots += 1
                    return .rejected
                }
            }
            guard pagesAdmitted < plan.maxPages else {
                met.insert(Met.turnedAway, for: url.string)
                summary.skippedByLimit += 1
                return .rejected
            }
            pagesAdmitted += 1
            met.insert(Met.taken, for: url.string)
            progressState.queued += 1
            let queue = frontier[origin] ?? FrontierQueue(memoryLimit: plan.frontierMemory, directory: plan.frontierDirectory)
            frontier[origin] = queue
            queue.push(FrontierQueue.Entry(url: url.string, depth: depth))
            pendingWork += 1  // until the page is handled, after its turn in the frontier
            return .accepted
        }
        switch admission {
        case .rejected: break
        case .accepted: pump(origin)
        case .waitsForRobots(let origin): if let robotsURL = originURL(origin, "/robots.txt") { submit(url: robotsURL, kind: .robots(origin, redirects: 0)) }
        }
        return firstOffer
    }

    private func requestSitemap(_ url: CrawlURL, depth: Int) {
        let allowed: Bool = lock.withLock {
            // Sitemap indexes can nest and point at one another; a cap keeps that finite.
            guard sitemapsRequested < plan.maxSitemaps, met.insert(Met.taken, for: url.string) & Met.taken == 0 else { return false }
            sitemapsRequested += 1
            return true
        }
        if allowed { submit(url: url, kind: .sitemap(depth: depth, redirects: 0)) }
    }

    /// Hands a request to the fetch loop. `counted`: its work was already counted in
    /// `pendingWork` (a page from the frontier).
    /// `afterLoss`: the page is fetched again after its session was lost.
    private func submit(url: CrawlURL, kind: JobKind, counted: Bool = false, validators: PageValidators? = nil, afterLoss: Bool = false) {
        var request = plan.request(for: url)
        request.headers += validators?.conditionalHeaders ?? []
        let use = session.map { SessionUse(session: $0.authorize(&request, for: url), afterLoss: afterLoss) }
        let tag: Int = lock.withLock {
            nextTag += 1
            jobs[nextTag] = kind
            if let use, case .page = kind { sentWith[nextTag] = use }
            if !counted { pendingWork += 1 }
            return nextTag
        }
        lock.withLock { loop }?.submit(FetchJob(request: request, tag: tag))
    }

    /// Why a signed-in crawl never requests `url` (the key it is counted under in
    /// `skippedByScope`), or nil. Called under `lock`.
    private func avoidance(of url: CrawlURL) -> String? {
        if session?.isSignInEndpoint(url) == true { return "sign-in-page" }
        if plan.avoid.contains(where: { $0.matches(url) }) { return "avoided-link" }
        return nil
    }

    /// Moves pages of `origin` from the frontier to the fetch loop while it has fewer than
    /// `pageWindow` of them.
    private func pump(_ origin: Origin) {
        let entries: [FrontierQueue.Entry] = lock.withLock {
            guard !stopped, let queue = frontier[origin] else { return [] }
            var taken: [FrontierQueue.Entry] = []
            while pagesInLoop[origin, default: 0] < pageWindow, let entry = queue.pop() {
                pagesInLoop[origin, default: 0] += 1
                taken.append(entry)
            }
            if queue.isEmpty { frontier[origin] = nil }
            return taken
        }
        for entry in entries {
            // A normalized URL normalizes to itself; the frontier keeps only its text.
            guard let url = try? plan.normalizer.normalize(entry.url) else {
                var page = CrawledPage<Result>(url: entry.url, depth: entry.depth, attempts: 0)
                page.error = "internal error: the queued URL could not be read back"
                releasePage(of: origin)
                lock.withLock { progressState.queued -= 1 }
                finishPage(page)
                workDone()
                continue
            }
            if let baseline {
                if let carried = carriedBySitemap(url, baseline: baseline) {
                    releasePage(of: origin)
                    lock.withLock { progressState.queued -= 1 }
                    var page = CrawledPage<Result>(url: url.string, depth: entry.depth, attempts: 0)
                    carryOver(carried, as: .sitemapLastModified, into: &page, depth: entry.depth)
                    finishPage(page)
                    workDone()
                    continue
                }
                if let validators = baseline.validators(url.string) {
                    submit(url: url, kind: .page(depth: entry.depth, requested: url, chain: [], mode: .conditional), counted: true, validators: validators)
                    continue
                }
            }
            submit(url: url, kind: .page(depth: entry.depth, requested: url, chain: []), counted: true)
        }
    }

    /// The previous run's result for a page its sitemap dates before that run began.
    private func carriedBySitemap(_ url: CrawlURL, baseline: IncrementalBaseline<Result>) -> CarriedPage<Result>? {
        guard let modified = lock.withLock({ sitemapLastModified[url.string] }), modified < baseline.previousRunStarted else { return nil }
        return baseline.carryOver(url.string, nil)
    }

    /// Gives `page` the previous run's result and follows the links it had then.
    private func carryOver(_ carried: CarriedPage<Result>, as evidence: UnchangedEvidence, into page: inout CrawledPage<Result>, depth: Int) {
        if evidence != .sameContent {
            // No page came back (a 304 has no body; the sitemap spared the request): the
            // previous response stands for it.
            page.statusCode = carried.statusCode
            page.contentType = carried.contentType
            page.bytes = carried.bytes
            page.validators = carried.validators
            page.contentDigest = carried.contentDigest
        }
        page.result = carried.result
        page.canonicalURL = carried.canonicalURL
        page.unchanged = evidence
        page.links = carried.links.map(\.string)
        lock.withLock { summary.pagesUnchanged[evidence.rawValue, default: 0] += 1 }
        if depth < plan.maxDepth {
            page.discoveredLinks = carried.links.filter { admit($0, depth: depth + 1) }.map(\.string)
        }
    }

    /// A page taken from the frontier was handled: its origin may send another.
    private func releasePage(of origin: Origin) {
        lock.withLock { pagesInLoop[origin, default: 1] -= 1 }
        pump(origin)
    }

    /// One job fully handled; the last one ends the crawl.
    private func workDone() {
        let loop: FetchLoop? = lock.withLock {
            pendingWork -= 1
            return pendingWork == 0 ? self.loop : nil
        }
        loop?.finish()
    }

    // MARK: - Completions (on audit worker threads)

    private func handle(_ completion: consuming FetchCompletion) {
        defer { workDone() }
        guard let job = lock.withLock({ () -> (kind: JobKind, use: SessionUse?)? in
            guard let kind = jobs.removeValue(forKey: completion.job.tag) else { return nil }
            return (kind, sentWith.removeValue(forKey: completion.job.tag))
        }) else { return }
        let (kind, use) = job
        // After a stop, the loop fails every transfer it abandons: such a page is not finished,
        // so it gets no record (a resumed run fetches it) and does not count as failed.
        if case .failure = completion.result, lock.withLock({ stopped }) { return }
        switch kind {
        case .robots(let origin, let redirects): handleRobots(completion, origin: origin, redirects: redirects)
        case .sitemap(let depth, let redirects): handleSitemap(completion, depth: depth, redirects: redirects)
        case .page(let depth, let requested, let chain, let mode):
            handlePage(consume completion, depth: depth, requested: requested, chain: chain, mode: mode, sentWith: use)
        }
    }

    private func handleRobots(_ completion: FetchCompletion, origin: Origin, redirects: Int) {
        // RFC 9309: 4xx means no rules; 5xx or 429 means "disallow everything for now". When
        // the host does not answer at all, its pages are tried anyway, so that each gets a
        // record saying why it failed rather than a silent robots skip.
        let rules: RobotsTxt
        switch completion.result {
        case .success(let response):
            // §2.3.1.2: redirects are followed (http → https is common), even to another host,
            // and what they reach holds for this origin. Past the limit, or to a target that
            // is not http(s), forResponse takes the file as unavailable.
            if (300..<400).contains(response.status), redirects < RobotsTxt.maxRedirects,
               let location = response.header("Location"),
               let target = redirectTarget(location, from: completion.job.request.url) {
                submit(url: target, kind: .robots(origin, redirects: redirects + 1))
                return
            }
            rules = RobotsTxt.forResponse(status: response.status, body: response.body, userAgent: plan.userAgent)
        case .failure:
            rules = .allowAll
        }
        if plan.honoursCrawlDelay, let delay = rules.crawlDelay, delay > 0 {
            lock.withLock { loop }?.setMinimumInterval(min(delay, plan.maxCrawlDelay), forHostOf: origin.description)
        }
        let waiting: [Parked] = lock.withLock {
            robots[origin] = rules
            return parked.removeValue(forKey: origin) ?? []
        }
        if plan.sitemaps == .auto {
            let listed = rules.sitemaps.compactMap { try? plan.normalizer.normalize($0) }
            let sitemaps = listed.isEmpty ? [originURL(origin, "/sitemap.xml")].compactMap { $0 } : listed
            for sitemap in sitemaps { requestSitemap(sitemap, depth: 0) }
        }
        for item in waiting {
            switch item {
            case .url(let url, let depth): admit(url, depth: depth)
            case .hop(let hop): advance(hop)
            }
        }
    }

    private func handleSitemap(_ completion: FetchCompletion, depth: Int, redirects: Int) {
        guard case .success(let response) = completion.result else { return }
        if (300..<400).contains(response.status) {
            // Moved sitemaps are followed hop by hop like pages, so each hop is http(s) only and
            // gets only its own host's credentials; `met` and the hop limit keep loops finite.
            guard redirects < plan.maxRedirects, let location = response.header("Location"),
                  let target = redirectTarget(location, from: completion.job.request.url),
                  lock.withLock({ met.insert(Met.taken, for: target.string) & Met.taken == 0 })
            else { return }
            submit(url: target, kind: .sitemap(depth: depth, redirects: redirects + 1))
            return
        }
        guard (200..<300).contains(response.status) else { return }
        guard let sitemap = try? SitemapParser().parse(response.body) else { return }
        lock.withLock {
            summary.sitemapsRead += 1
            summary.urlsFromSitemaps += sitemap.pageURLs.count
        }
        for child in sitemap.sitemapURLs {
            if let url = try? plan.normalizer.normalize(child) { requestSitemap(url, depth: depth + 1) }
        }
        for page in sitemap.pageURLs {
            guard let url = try? plan.normalizer.normalize(page) else { continue }
            // Known before the page is admitted, so it is there when the page's turn comes.
            if baseline != nil, let modified = sitemap.lastModified[page] {
                lock.withLock { sitemapLastModified[url.string] = modified }
            }
            admit(url, depth: 0)
        }
    }

    private func handlePage(_ completion: consuming FetchCompletion, depth: Int, requested: CrawlURL, chain: [Redirect], mode: PageFetch, sentWith use: SessionUse?) {
        let url = lock.withLock { () -> String in
            progressState.queued -= 1
            return completion.job.request.url
        }
        // The first request of a page came from the frontier; redirect hops and refetches did not.
        if chain.isEmpty && mode != .refetch { releasePage(of: requested.origin) }
        var page = CrawledPage<Result>(url: requested.string, depth: depth, attempts: completion.attempts)
        page.redirects = chain
        let refusedRetryAfter = completion.refusedRetryAfter
        // Bound outside the switch, so that the response has one owner when it is handed over.
        let response: FetchResponse
        switch completion.takeResult() {
        case .failure(let error):
            page.error = error.description
            finishPage(page)
            return
        case .success(let fetched):
            response = fetched
        }
        page.statusCode = response.status
        page.contentType = response.contentType
        page.bytes = response.body.count
        page.fetchMilliseconds = response.elapsed * 1000
        if let session, let use {
            let fetched = chain.last.flatMap { try? plan.normalizer.normalize($0.to) } ?? requested
            session.receive(response, from: fetched)
            if let sign = session.lossSign(response, at: fetched) {
                // A page forbidden to this account stays forbidden with a fresh session: it is
                // then recorded with its status like any other.
                let forbiddenAfterRenewal = use.afterLoss && sign == .status(response.status)
                if !forbiddenAfterRenewal {
                    recoverSession(lost: sign, at: fetched, use: use, session: session, page: &page, depth: depth, requested: requested, chain: chain)
                    return
                }
            } else if (200..<300).contains(response.status) {
                session.noteSignedInPage(session: use.session)
            }
        }
        if mode == .conditional, response.status == 304, let baseline {
            guard let carried = baseline.carryOver(requested.string, nil) else {
                // Unchanged markup, but something else it depends on changed: fetch it whole.
                lock.withLock { progressState.queued += 1 }
                submit(url: requested, kind: .page(depth: depth, requested: requested, chain: [], mode: .refetch))
                return
            }
            carryOver(carried, as: .notModified, into: &page, depth: depth)
            // A 304 may update the validators; those it leaves out stay as they were.
            if let fresh = PageValidators(response) {
                page.validators = PageValidators(etag: fresh.etag ?? carried.validators?.etag, lastModified: fresh.lastModified ?? carried.validators?.lastModified)
            }
            finishPage(page)
            return
        }
        if (300..<400).contains(response.status), let location = response.header("Location") {
            guard let hop = redirectHop(from: url, status: response.status, location: location, depth: depth, requested: requested, chain: chain, page: &page) else {
                finishPage(page)
                return
            }
            advance(hop)  // the target carries the chain on, or records why it ends
            return
        }
        if !(200..<300).contains(response.status) {
            page.error = "HTTP \(response.status)"
            if let wait = refusedRetryAfter {
                page.error! += String(
                    format: ": Retry-After asks for %.0f s, more than the %.0f s the crawl waits at most; not retried",
                    wait, plan.fetchPolicy.maxBackoff
                )
            }
        } else if !ContentTypes.isHTML(response.contentType, body: response.body) {
            page.skip = .notHTML(contentType: response.contentType)
        } else {
            page.validators = PageValidators(response)
            page.contentDigest = SHA256.hexDigest(response.body)
            if chain.isEmpty, mode != .refetch, let baseline, let carried = baseline.carryOver(requested.string, page.contentDigest) {
                carryOver(carried, as: .sameContent, into: &page, depth: depth)
            } else {
                let processed = process(FetchedPage(url: url, response: consume response, depth: depth))
                page.result = processed.result
                page.canonicalURL = processed.canonicalURL
                page.links = processed.links.map(\.string)
                if depth < plan.maxDepth {
                    page.discoveredLinks = processed.links.filter { admit($0, depth: depth + 1) }.map(\.string)
                }
            }
        }
        finishPage(page)
    }

    /// A page found the session lost: it is fetched again once the session is renewed, or, when
    /// that cannot be done (signing in again failed, the page is still signed out, the site keeps
    /// dropping the session), recorded as not audited ("sign-in lost") and the crawl stops.
    private func recoverSession(
        lost sign: SignInSession.LossSign, at url: CrawlURL, use: SessionUse, session: SignInSession, page: inout CrawledPage<Result>,
        depth: Int, requested: CrawlURL, chain: [Redirect]
    ) {
        let reason: String
        switch session.recover(lostWith: use.session, afterLoss: use.afterLoss) {
        case .refetch:
            lock.withLock { progressState.queued += 1 }
            submit(url: url, kind: .page(depth: depth, requested: requested, chain: chain, mode: .refetch), afterLoss: true)
            return
        case .giveUp(let why):
            reason = why
        }
        let sentence = "the session was lost at \(url) (\(sign)) and \(reason)"
        page.error = SignInSession.lostPageError + ": " + sentence
        let stopNow: Bool = lock.withLock {
            guard summary.signInFailure == nil else { return false }
            summary.signInFailure = sentence
            return true
        }
        if stopNow { stop() }
        finishPage(page)
    }

    /// The next hop of a redirect, followed at the crawl's level so every hop passes the scope,
    /// robots and scheme checks and gets only the credentials meant for its host. Nil when the
    /// redirect ends here (bad target, a loop, too many hops), with the reason in `page`.
    private func redirectHop(
        from url: String, status: Int, location: String, depth: Int, requested: CrawlURL, chain: [Redirect], page: inout CrawledPage<Result>
    ) -> Hop? {
        let base = (try? plan.normalizer.normalize(url)) ?? requested
        let target: CrawlURL
        do throws(URLRejection) {
            target = try plan.normalizer.resolve(location, against: base)
        } catch {
            page.error = "redirect to \(location) refused: \(error.description)"
            return nil
        }
        let hop = Redirect(from: url, status: status, to: target.string)
        page.redirects = chain + [hop]
        // A chain that comes back to a URL it passed never reaches a page: nothing was audited.
        let visited = [requested.string] + chain.map(\.to)
        guard !visited.contains(target.string) else {
            page.error = "redirect loop: " + (visited + [target.string]).joined(separator: " → ")
            return nil
        }
        guard chain.count < plan.maxRedirects else {
            page.error = "more than \(plan.maxRedirects) redirects"
            return nil
        }
        return Hop(target: target, depth: depth, requested: requested, chain: chain + [hop], page: page)
    }

    /// Fetches a redirect hop when its target is in scope, not yet crawled and allowed by its
    /// origin's robots.txt (parking the hop until that robots.txt is in, as `admit` does);
    /// otherwise the page is recorded with the reason.
    private func advance(_ hop: Hop) {
        let target = hop.target
        let next: HopStep<Result> = lock.withLock {
            var page = hop.page
            if hop.chain.count == 1, plan.startURLs.contains(hop.requested) { widenScope(from: hop.requested, to: target) }
            let decision = scope.decision(for: target)
            guard decision == .inScope else {
                page.skip = .redirectedOutOfScope(decision, to: target.string)
                return .end(page)
            }
            if let avoided = avoidance(of: target) {
                summary.skippedByScope[avoided, default: 0] += 1
                page.skip = .redirectAvoided(target.string)
                return .end(page)
            }
            guard met.flags(target.string) & Met.taken == 0 else {
                summary.duplicatesByRedirect += 1
                page.skip = .redirectsToCrawledPage(target.string)
                return .end(page)
            }
            if plan.honoursRobots {
                guard let rules = robots[target.origin] else {
                    let firstOfOrigin = parked[target.origin] == nil
                    parked[target.origin, default: []].append(.hop(hop))
                    return .waitForRobots(fetchIt: firstOfOrigin)
                }
                guard rules.isAllowed(target) else {
                    summary.skippedByRobots += 1
                    page.skip = .redirectDisallowedByRobots(target.string)
                    return .end(page)
                }
            }
            met.insert(Met.taken, for: target.string)
            progressState.queued += 1
            return .fetch
        }
        switch next {
        case .fetch:
            submit(url: target, kind: .page(depth: hop.depth, requested: hop.requested, chain: hop.chain))
        case .waitForRobots(let fetchIt):
            if fetchIt, let robotsURL = originURL(target.origin, "/robots.txt") { submit(url: robotsURL, kind: .robots(target.origin, redirects: 0)) }
        case .end(let page):
            finishPage(page)
        }
    }

    /// `canopy crawl http://shop.example` usually lands on https://shop.example or
    /// https://www.shop.example: the site the user meant, so its origin joins the scope. A start
    /// URL redirecting to any other host (a login service, a parked domain) does not widen it.
    /// Called under `lock`.
    private func widenScope(from start: CrawlURL, to target: CrawlURL) {
        let from = start.origin.host, to = target.origin.host
        guard from == to || from == "www." + to || to == "www." + from else { return }
        scope.addOrigin(target.origin)
    }

    /// A Location header resolved against the URL that sent it; nil unless it is http(s).
    private func redirectTarget(_ location: String, from url: String) -> CrawlURL? {
        guard let base = try? plan.normalizer.normalize(url) else { return nil }
        return try? plan.normalizer.resolve(location, against: base)
    }

    private func finishPage(_ page: CrawledPage<Result>) {
        let snapshot: CrawlProgress = lock.withLock {
            if page.error?.hasPrefix(SignInSession.lostPageError) == true { summary.pagesSignInLost += 1 }
            if page.error != nil {
                if page.statusCode.map({ $0 >= 400 }) == true { summary.pagesWithErrorStatus += 1 } else { summary.pagesFailed += 1 }
                progressState.failed += 1
            } else if page.processed {
                summary.pagesAudited += 1
            } else if case .notHTML = page.skip {
                summary.pagesNotHTML += 1
            }
            summary.bytes += page.bytes ?? 0
            progressState.pagesDone += 1
            progressState.bytes += page.bytes ?? 0
            return currentProgress()
        }
        sinkLock.withLock { sink.record(page) }
        progress?.report(snapshot)
        if let error = page.error { progress?.note("\(page.url): \(error)") }
    }

    // MARK: - Resuming

    // Rebuilding the frontier: a finished page is neither fetched nor parsed again; the links it
    // was first to offer were stored with it (in the same transaction), and are offered again
    // here. Every page the run still lacks is then found again: either a stored list names it,
    // or the page that found it was not recorded (e.g. lost with the last batch) and is crawled
    // again, back to the start URLs, robots.txt and sitemaps, which are always fetched afresh.
    // Storing only first offers keeps this to about one URL per page, not every link of every page.

    /// Counts the finished pages as this crawl's own and marks them (and their redirect targets) seen.
    private func restoreFinished() {
        guard !finished.isEmpty else { return }
        lock.withLock {
            for page in finished {
                if let url = try? plan.normalizer.normalize(page.url) {
                    met.insert(Met.taken, for: url.string)
                    // The scope this run had: widened by its start URL's first redirect.
                    if plan.startURLs.contains(url), let first = page.redirectChain.first, let target = try? plan.normalizer.normalize(first) {
                        widenScope(from: url, to: target)
                    }
                }
                // The hops this page fetched, as `advance` marked them. A last hop it did not
                // fetch (the page ends on a 3xx: skipped, or past the redirect limit) stays unseen:
                // if it is a page of its own that the kill lost, it must be crawled again.
                let endsOnRedirect = page.statusCode.map { (300..<400).contains($0) } ?? false
                let fetchedLastHop = !endsOnRedirect || (page.error != nil && page.redirectChain.count <= plan.maxRedirects)
                for (index, hop) in page.redirectChain.enumerated() where index < page.redirectChain.count - 1 || fetchedLastHop {
                    if let url = try? plan.normalizer.normalize(hop) { met.insert(Met.taken, for: url.string) }
                }
                pagesAdmitted += 1
                if page.error != nil {
                    if page.statusCode.map({ $0 >= 400 }) == true { summary.pagesWithErrorStatus += 1 } else { summary.pagesFailed += 1 }
                    progressState.failed += 1
                } else if page.processed {
                    summary.pagesAudited += 1
                    summary.resumedAudited += 1
                } else if page.statusCode.map({ (200..<300).contains($0) }) == true {
                    summary.pagesNotHTML += 1
                } else if let target = try? plan.normalizer.normalize(page.finalURL), scope.decision(for: target) == .inScope {
                    // Not audited after an in-scope redirect: its target was crawled under its own URL.
                    summary.duplicatesByRedirect += 1
                }
                summary.bytes += page.bytes ?? 0
                progressState.pagesDone += 1
                progressState.bytes += page.bytes ?? 0
            }
            summary.resumedPages = finished.count
        }
    }

    private func replayFinishedLinks() {
        for page in finished {
            for link in page.discoveredLinks {
                if let url = try? plan.normalizer.normalize(link) { admit(url, depth: page.depth + 1) }
            }
        }
    }

    private func originURL(_ origin: Origin, _ path: String) -> CrawlURL? {
        try? plan.normalizer.normalize(origin.description + path)
    }

    private func currentProgress() -> CrawlProgress {
        var current = progressState
        current.elapsed = elapsedSeconds()
        return current
    }

    private func elapsedSeconds() -> Double {
        guard let started else { return 0 }
        let (seconds, attoseconds) = (clock.now - started).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// What the crawl did with a URL it met (flags in `met`).
private enum Met {
    /// Offered to `admit`, whatever became of it: a page keeps the links it was first to offer
    /// (`CrawledPage.discoveredLinks`), from which a resumed run rebuilds its frontier.
    static let offered: UInt8 = 1
    /// Taken in to be fetched (a page, a sitemap, a redirect target).
    static let taken: UInt8 = 2
    /// Turned away (scope, robots, limit), so each is counted once however often linked.
    static let turnedAway: UInt8 = 4
}

/// - Parameter finished: the pages an interrupted run already recorded, to resume it: they are
///   not fetched again, and their stored links stand in for the links they would give.

/// How a page's request went with the signed-in session: which session (`SignInSession`
/// generation) it carried, and whether it was already a second try after a loss.
private struct SessionUse: Sendable {
    var session: Int
    var afterLoss: Bool
}

/// What `admit` decided about a URL.
private enum Admission { case rejected, accepted, waitsForRobots(Origin) }

/// What `advance` does with a redirect hop.
private enum HopStep<Result: Sendable> { case fetch, waitForRobots(fetchIt: Bool), end(CrawledPage<Result>) }
