import CanopyCrawl
import CanopyHTML
import CanopyRules
import CanopyStore
import Foundation

/// Receives what a crawl produces, in the order pages finish. Called from one thread at a time.
public protocol CrawlSink: AnyObject, Sendable {
    func record(_ page: CrawledPage)
}

/// What a whole crawl did.
public struct CrawlSummary: Sendable, Codable, Equatable {
    public var startURLs: [String] = []
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
    public var violations = 0
    public var incomplete = 0
    /// Nothing could be audited because no start URL answered.
    public var startUnreachable = false

    public var pagesPerSecond: Double { seconds > 0 ? Double(pagesAudited) / seconds : 0 }
}

/// Crawls a site: robots.txt and sitemaps first, then breadth-first from the start URLs within
/// scope, fetching on one libcurl event loop and parsing and auditing on every core, with
/// each page handed to the sink as soon as it is done. Memory stays bounded: a page's
/// Document lives only while its worker audits it, and at most a few dozen fetched bodies
/// wait for a worker.
public final class SiteCrawler: @unchecked Sendable {
    // @unchecked: the mutable crawl state below is only touched under `lock`; the plan is
    // immutable; the sink is called under `sinkLock`.
    private enum JobKind: Sendable {
        case robots(Origin)
        case sitemap(depth: Int)
        case page(depth: Int, requested: CrawlURL, chain: [Redirect])
    }

    private let plan: CrawlPlan
    private let sink: any CrawlSink
    private let progress: CrawlProgressReporter?
    private let pageAuditor: PageAuditor
    private let clock = ContinuousClock()

    private let lock = NSLock()
    private var seen: Set<CrawlURL> = []
    /// URLs turned away (scope, robots, limit), so each is counted once however often linked.
    private var turnedAway: Set<CrawlURL> = []
    private var jobs: [Int: JobKind] = [:]
    private var nextTag = 0
    /// Jobs submitted and not yet fully handled; the crawl ends when it returns to zero.
    private var pendingWork = 0
    private var pagesAdmitted = 0
    private var robots: [Origin: RobotsTxt] = [:]
    /// URLs waiting for their origin's robots.txt.
    private var parked: [Origin: [(CrawlURL, Int)]] = [:]
    private var sitemapsRequested = 0
    private var summary = CrawlSummary()
    private var progressState = CrawlProgress()
    private var started: ContinuousClock.Instant?
    private var loop: FetchLoop?
    private var workers: WorkerPool<FetchCompletion>?
    private let sinkLock = NSLock()

    public init(plan: CrawlPlan, sink: any CrawlSink, progress: CrawlProgressReporter? = nil) {
        self.plan = plan
        self.sink = sink
        self.progress = progress
        self.pageAuditor = PageAuditor(plan: plan)
    }

    /// Crawls until the frontier is empty or a limit is reached, and says what happened.
    public func run() throws(FetchError) -> CrawlSummary {
        let loop = try FetchLoop(policy: plan.fetchPolicy) { [unowned self] completion in
            self.workers?.submit(completion)
        }
        let workers = WorkerPool<FetchCompletion>(
            workers: plan.auditThreads, capacity: plan.auditThreads * 4, name: "canopy-audit"
        ) { [unowned self] completion in
            self.handle(completion)
        }
        lock.withLock {
            self.loop = loop
            self.workers = workers
            started = clock.now
            summary.startURLs = plan.startURLs.map(\.string)
            pendingWork += 1  // held until the seeds are in, so the crawl cannot end early
        }
        seed()
        workDone()
        loop.run()
        workers.close()
        workers.wait()
        return lock.withLock {
            summary.seconds = elapsedSeconds()
            summary.startUnreachable = summary.pagesAudited == 0 && summary.pagesFailed + summary.pagesWithErrorStatus > 0
            progress?.finish(currentProgress())
            self.loop = nil
            self.workers = nil
            return summary
        }
    }

    /// Stops early (SIGINT/SIGTERM): transfers are abandoned, finished pages stay recorded.
    public func stop() {
        lock.withLock { loop }?.stop()
    }

    // MARK: - Frontier

    private func seed() {
        let origins = Set(plan.startURLs.map(\.origin))
        for origin in origins.sorted() {
            if plan.honoursRobots {
                lock.withLock { parked[origin] = [] }
                if let robotsURL = originURL(origin, "/robots.txt") { submit(url: robotsURL, kind: .robots(origin)) }
            } else if plan.sitemaps == .auto {
                if let sitemap = originURL(origin, "/sitemap.xml") { requestSitemap(sitemap, depth: 0) }
            }
        }
        if case .listed(let sitemaps) = plan.sitemaps {
            for sitemap in sitemaps { requestSitemap(sitemap, depth: 0) }
        }
        for url in plan.startURLs { admit(url, depth: 0) }
    }

    /// Takes a URL into the crawl if it is new, in scope, allowed and within the limits.
    private func admit(_ url: CrawlURL, depth: Int) {
        enum Admission { case rejected, accepted, waitsForRobots(Origin) }
        let origin = url.origin
        let admission: Admission = lock.withLock {
            guard !seen.contains(url), !turnedAway.contains(url) else { return .rejected }
            let decision = plan.scope.decision(for: url)
            guard decision == .inScope else {
                turnedAway.insert(url)
                summary.skippedByScope[decision.description, default: 0] += 1
                return .rejected
            }
            if plan.honoursRobots {
                guard let rules = robots[origin] else {
                    // Its robots.txt is on the way, or this is the first URL of another allowed origin.
                    let firstOfOrigin = parked[origin] == nil
                    parked[origin, default: []].append((url, depth))
                    return firstOfOrigin ? .waitsForRobots(origin) : .rejected
                }
                guard rules.isAllowed(path: url.pathAndQuery) else {
                    turnedAway.insert(url)
                    summary.skippedByRobots += 1
                    return .rejected
                }
            }
            guard pagesAdmitted < plan.maxPages else {
                turnedAway.insert(url)
                summary.skippedByLimit += 1
                return .rejected
            }
            pagesAdmitted += 1
            seen.insert(url)
            progressState.queued += 1
            return .accepted
        }
        switch admission {
        case .rejected: break
        case .accepted: submit(url: url, kind: .page(depth: depth, requested: url, chain: []))
        case .waitsForRobots(let origin): if let robotsURL = originURL(origin, "/robots.txt") { submit(url: robotsURL, kind: .robots(origin)) }
        }
    }

    private func requestSitemap(_ url: CrawlURL, depth: Int) {
        let allowed: Bool = lock.withLock {
            // Sitemap indexes can nest and point at one another; a cap keeps that finite.
            guard sitemapsRequested < plan.maxSitemaps, !seen.contains(url) else { return false }
            seen.insert(url)
            sitemapsRequested += 1
            return true
        }
        if allowed { submit(url: url, kind: .sitemap(depth: depth)) }
    }

    private func submit(url: CrawlURL, kind: JobKind) {
        let tag: Int = lock.withLock {
            nextTag += 1
            jobs[nextTag] = kind
            pendingWork += 1
            return nextTag
        }
        lock.withLock { loop }?.submit(FetchJob(request: plan.request(for: url), tag: tag))
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

    private func handle(_ completion: FetchCompletion) {
        defer { workDone() }
        guard let kind = lock.withLock({ jobs.removeValue(forKey: completion.job.tag) }) else { return }
        switch kind {
        case .robots(let origin): handleRobots(completion, origin: origin)
        case .sitemap(let depth): handleSitemap(completion, depth: depth)
        case .page(let depth, let requested, let chain): handlePage(completion, depth: depth, requested: requested, chain: chain)
        }
    }

    private func handleRobots(_ completion: FetchCompletion, origin: Origin) {
        // RFC 9309: 4xx means no rules; 5xx or 429 means "disallow everything for now". When
        // the host does not answer at all, its pages are tried anyway, so that each gets a
        // record saying why it failed rather than a silent robots skip.
        let rules: RobotsTxt
        switch completion.result {
        case .success(let response):
            rules = RobotsTxt.forResponse(status: response.status, body: response.body, userAgent: plan.userAgent)
        case .failure:
            rules = .allowAll
        }
        if plan.honoursCrawlDelay, let delay = rules.crawlDelay, delay > 0 {
            lock.withLock { loop }?.setMinimumInterval(min(delay, plan.maxCrawlDelay), forHostOf: origin.description)
        }
        let waiting: [(CrawlURL, Int)] = lock.withLock {
            robots[origin] = rules
            return parked.removeValue(forKey: origin) ?? []
        }
        if plan.sitemaps == .auto {
            let listed = rules.sitemaps.compactMap { try? plan.normalizer.normalize($0) }
            let sitemaps = listed.isEmpty ? [originURL(origin, "/sitemap.xml")].compactMap { $0 } : listed
            for sitemap in sitemaps { requestSitemap(sitemap, depth: 0) }
        }
        for (url, depth) in waiting { admit(url, depth: depth) }
    }

    private func handleSitemap(_ completion: FetchCompletion, depth: Int) {
        guard case .success(let response) = completion.result, (200..<300).contains(response.status) else { return }
        guard let sitemap = try? SitemapParser().parse(response.body) else { return }
        lock.withLock {
            summary.sitemapsRead += 1
            summary.urlsFromSitemaps += sitemap.pageURLs.count
        }
        for child in sitemap.sitemapURLs {
            if let url = try? plan.normalizer.normalize(child) { requestSitemap(url, depth: depth + 1) }
        }
        for page in sitemap.pageURLs {
            if let url = try? plan.normalizer.normalize(page) { admit(url, depth: 0) }
        }
    }

    private func handlePage(_ completion: FetchCompletion, depth: Int, requested: CrawlURL, chain: [Redirect]) {
        let url = lock.withLock { () -> String in
            progressState.queued -= 1
            return completion.job.request.url
        }
        var page = CrawledPage(url: requested.string, depth: depth, attempts: completion.attempts)
        page.setRedirects(chain)
        switch completion.result {
        case .failure(let error):
            page.record.error = error.description
        case .success(let response):
            page.record.statusCode = response.status
            page.record.contentType = response.contentType
            page.record.bytes = response.body.count
            page.record.fetchMilliseconds = response.elapsed * 1000
            if (300..<400).contains(response.status), let location = response.header("Location") {
                guard followRedirect(from: url, status: response.status, location: location, depth: depth, requested: requested, chain: chain, page: &page) else { break }
                return  // the target carries the chain on; this URL gets no record of its own
            }
            if !(200..<300).contains(response.status) {
                page.record.error = "HTTP \(response.status)"
            } else if !ContentTypes.isHTML(response.contentType, body: response.body) {
                page.skippedReason = "not HTML (\(response.contentType ?? "no Content-Type"))"
            } else {
                let audited = pageAuditor.audit(response, url: url)
                page.merge(audited)
                if depth < plan.maxDepth {
                    for link in audited.links { admit(link, depth: depth + 1) }
                }
            }
        }
        finishPage(page)
    }

    /// Follows a redirect at the crawl's level, so every hop passes the scope, robots and
    /// scheme checks and gets only the credentials meant for its host. False when the
    /// redirect ends here (off scope, bad target, too many hops, already crawled), with the
    /// reason in `page`.
    private func followRedirect(
        from url: String, status: Int, location: String, depth: Int, requested: CrawlURL, chain: [Redirect], page: inout CrawledPage
    ) -> Bool {
        let base = (try? plan.normalizer.normalize(url)) ?? requested
        let target: CrawlURL
        do throws(URLRejection) {
            target = try plan.normalizer.resolve(location, against: base)
        } catch {
            page.record.error = "redirect to \(location) refused: \(error.description)"
            return false
        }
        let hop = Redirect(from: url, status: status, to: target.string)
        page.setRedirects(chain + [hop])
        guard chain.count < plan.maxRedirects else {
            page.record.error = "more than \(plan.maxRedirects) redirects"
            return false
        }
        let (decision, alreadySeen) = lock.withLock { (plan.scope.decision(for: target), seen.contains(target)) }
        guard decision == .inScope else {
            page.redirectedOutOfScope = decision
            page.skippedReason = "redirected out of scope (\(decision.description)) to \(target.string)"
            return false
        }
        guard !alreadySeen else {
            lock.withLock { summary.duplicatesByRedirect += 1 }
            page.skippedReason = "redirects to \(target.string), crawled under that URL"
            return false
        }
        lock.withLock { seen.insert(target); progressState.queued += 1 }
        submit(url: target, kind: .page(depth: depth, requested: requested, chain: chain + [hop]))
        return true
    }

    private func finishPage(_ page: CrawledPage) {
        let snapshot: CrawlProgress = lock.withLock {
            if page.error != nil {
                if page.record.statusCode.map({ $0 >= 400 }) == true { summary.pagesWithErrorStatus += 1 } else { summary.pagesFailed += 1 }
                progressState.failed += 1
            } else if page.audited {
                summary.pagesAudited += 1
                summary.violations += page.violationCount
                summary.incomplete += page.incompleteCount
            } else if page.skippedReason?.hasPrefix("not HTML") == true {
                summary.pagesNotHTML += 1
            }
            summary.bytes += page.record.bytes ?? 0
            progressState.pagesDone += 1
            progressState.bytes += page.record.bytes ?? 0
            return currentProgress()
        }
        sinkLock.withLock { sink.record(page) }
        progress?.report(snapshot)
        if let error = page.error { progress?.note("\(page.url): \(error)") }
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
