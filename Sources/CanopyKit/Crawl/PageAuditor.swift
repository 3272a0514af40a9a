import CanopyCrawl
import CanopyHTML
import CanopyReports
import CanopyRules
import CanopyHistory
import CanopyStore
import CanopyStyle
import Foundation

/// Canopy's page processor: parses a fetched page, audits it with the plan's rules, exclusions
/// and owners, fingerprints its findings and finds its links.
public struct PageAuditor: Sendable {
    let crawl: CrawlPlan
    let audit: AuditPlan
    private let parser = HTMLParser()
    private let lineWriter: AxeJSONLineWriter
    private let styles: StyleEnvironment
    /// The plan's auditor, counting passes instead of listing them: a page keeps only their counts.
    private let auditor: Auditor
    let stylesheets: StyleSheetFetcher
    /// Frame documents, each fetched once per crawl.
    let frames: FrameFetcher
    private let largePages = LargePageGate()

    init(crawl: CrawlPlan, audit: AuditPlan, stylesheets: StyleSheetFetcher? = nil, session: SignInSession? = nil) {
        self.crawl = crawl
        self.audit = audit
        self.frames = FrameFetcher(crawl: crawl, session: session)
        self.lineWriter = AxeJSONLineWriter(rules: audit.auditor.rules.map(\.metadata))
        var auditor = audit.auditor
        auditor.listsPassingNodes = false
        self.auditor = auditor
        self.stylesheets = stylesheets ?? Self.styleSheetFetcher(for: crawl)
        self.styles = audit.styleEnvironment(loader: self.stylesheets)
    }

    /// Fetches the crawl's stylesheets as it fetches its pages: on the crawl's origins, with the
    /// crawl's headers, credentials, timeouts and size limit, and the signed-in session's cookies.
    public static func styleSheetFetcher(for crawl: CrawlPlan, session: SignInSession? = nil) -> StyleSheetFetcher {
        StyleSheetFetcher { url in
            guard let crawlURL = try? crawl.normalizer.normalize(url), crawl.scope.allowsResource(crawlURL) else { return nil }
            var request = crawl.request(for: crawlURL)
            session?.authorize(&request, for: crawlURL)
            return request
        }
    }

    /// A crawler that parses, styles and audits every page it fetches; `stylesheets` loads the
    /// sheets they link to (and counts them).
    /// - Parameters:
    ///   - previous: for an incremental crawl, the run to compare with (`IncrementalCrawl`).
    ///   - session: the signed-in session of a plan with a sign-in, shared with `stylesheets` and
    ///     the frame fetcher; made here (and given to the stylesheets made here) when nil.
    public static func crawler(
        crawl: CrawlPlan, audit: AuditPlan, sink: any CrawlSink<PageAudit>, progress: CrawlProgressReporter? = nil,
        resuming finished: [FinishedPage] = [], stylesheets: StyleSheetFetcher? = nil, previous: IncrementalCrawl.Baseline? = nil,
        session: SignInSession? = nil
    ) -> SiteCrawler<PageAudit> {
        let session = session ?? SignInSession(crawl: crawl)
        let auditor = PageAuditor(
            crawl: crawl, audit: audit, stylesheets: stylesheets ?? styleSheetFetcher(for: crawl, session: session), session: session
        )
        return SiteCrawler(
            plan: crawl, process: { auditor.process($0) }, sink: sink, progress: progress, resuming: finished,
            baseline: previous.map { $0.crawlerBaseline(auditor: auditor) }, session: session
        )
    }

    func process(_ page: consuming FetchedPage) -> ProcessedPage<PageAudit> {
        let clock = ContinuousClock()
        let start = clock.now
        let (url, contentType) = (page.url, page.response.contentType)
        var body = (consume page).takeBody()
        var processed = largePages.oneAtATime(ifSized: body.count) {
            var (processed, auditDate) = processWithoutLine(parse(taking: &body, contentType: contentType, url: url), url: url)
            // The document is gone by now: on a page of megabytes, the tree and the axe line
            // (both tens of megabytes) need not be held at once.
            if let auditDate { appendAxeLine(to: &processed, url: url, date: auditDate) }
            return processed
        }
        let (seconds, attoseconds) = (clock.now - start).components
        processed.result.seconds = Double(seconds) + Double(attoseconds) / 1e18
        return processed
    }

    /// Parses the body and lets go of it: the tree is all the audit reads, and on a page of
    /// megabytes the body was held through the audit and the findings' selectors and
    /// fingerprints, where a styled crawl's largest page peaks (javadoc's uses of `String`: 6 MB
    /// of a 58 MB heap peak there).
    private func parse(taking body: inout [UInt8], contentType: String?, url: String) -> Document {
        defer { body = [] }
        return parser.parse(bytes: body, contentType: contentType, url: url)
    }

    func process(_ document: Document, url: String) -> ProcessedPage<PageAudit> {
        var (processed, auditDate) = processWithoutLine(document, url: url)
        if let auditDate { appendAxeLine(to: &processed, url: url, date: auditDate) }
        return processed
    }

    /// The page processed but for its axe line, and when it was audited (nil when it was not).
    /// Each stage lets go of what the next does not need: the audit's nodes, target selectors and
    /// fingerprints before the links are extracted. On a page of megabytes with thousands of
    /// findings each of these is tens of megabytes.
    private func processWithoutLine(_ document: Document, url: String) -> (ProcessedPage<PageAudit>, Date?) {
        if let notAudited = audit.notAudited(document) {
            // The shell's findings would describe the shell, not the page a browser builds.
            var page = PageAudit(title: document.title)
            page.notAudited = notAudited
            let (links, canonical) = links(of: document, url: url)
            return (ProcessedPage(links: links, canonicalURL: canonical, result: page), nil)
        }
        let (page, auditDate) = audited(document, url: url)
        let (links, canonical) = links(of: document, url: url)
        return (ProcessedPage(links: links, canonicalURL: canonical, result: page), auditDate)
    }

    private func audited(_ document: Document, url: String) -> (PageAudit, Date) {
        let scope = AuditScope(exclude: audit.exclusions(forURL: url))
        let result = auditor.audit(document, styles: styles, scope: scope, ruleExclusions: audit.ruleExclusions, frames: audit.auditsFrames ? frames : nil)
        var page = PageAudit(title: document.title)
        let fingerprinter = PageFingerprinter(document: document, componentRoots: ownerRoots(in: document))
        page.findings = FindingRecord.findings(of: result, fingerprinter: fingerprinter, owner: owner(of:))
        page.passCounts = PageRecord.passCounts(of: result)
        page.components = fingerprinter.components
        page.stylesheetURLs = result.stylesheetURLs + result.frameURLs.map { Self.frameMark + $0 }
        page.frames = result.frames
        page.stylesheetDigest = resourceDigest(of: page.stylesheetURLs)
        return (page, result.date)
    }

    /// Passing rules are listed without nodes: describing a passing node costs a unique
    /// selector, and the line is about what needs fixing.
    private func appendAxeLine(to processed: inout ProcessedPage<PageAudit>, url: String, date: Date) {
        lineWriter.appendLine(
            url: url, timestamp: AxeTimestamp.string(date), findings: processed.result.findings.map(\.finding),
            passingRules: Set(processed.result.passCounts.keys), to: &processed.result.axeJSONLine
        )
    }

    /// The links the crawl may follow from the page, and its canonical URL.
    private func links(of document: Document, url: String) -> (links: [CrawlURL], canonical: String?) {
        guard let base = try? crawl.normalizer.normalize(url) else { return ([], nil) }
        let links = LinkExtractor(normalizer: crawl.normalizer, followsFrames: !audit.auditsFrames).extract(from: document, pageURL: base)
        return (links.followableURLs(honouringNoFollow: !crawl.followsNofollow), links.canonical?.string)
    }

    /// How a frame document is listed among a page's resources (after its sheets): a URL never
    /// begins with a space.
    static let frameMark = "frame "

    /// One digest of a page's resources as this crawl finds them: its sheets, then its frame
    /// documents, so a page whose markup did not change is audited again when either did. A page
    /// without frames gets its sheets' digest alone, as recorded before frames were listed.
    func resourceDigest(of urls: [String]) -> String {
        let frameURLs = urls.filter { $0.hasPrefix(Self.frameMark) }.map { String($0.dropFirst(Self.frameMark.count)) }
        let sheets = stylesheets.digest(ofSheetsAt: urls.filter { !$0.hasPrefix(Self.frameMark) })
        guard !frameURLs.isEmpty else { return sheets }
        return SHA256.hexDigest(Array("\(sheets)\n\(frames.digest(ofFramesAt: frameURLs))".utf8))
    }

    /// The axe-shaped line of a page whose findings were carried over from an earlier run.
    func axeJSONLine(url: String, date: Date, findings: [FindingRecord], passingRules: Set<String>) -> [UInt8] {
        var line: [UInt8] = []
        lineWriter.appendLine(url: url, timestamp: AxeTimestamp.string(date), findings: findings.map(\.finding), passingRules: passingRules, to: &line)
        return line
    }

    /// Vendor widgets are components of their own, whatever their markup.
    private func ownerRoots(in document: Document) -> [Element] {
        guard !audit.owners.isEmpty else { return [] }
        return audit.owners.flatMap { owner in owner.selectors.flatMap { document.querySelectorAll($0) } }
    }

    /// The vendor whose selector matches the element or one of its ancestors.
    private func owner(of element: Element) -> String? {
        audit.owners.first { owner in owner.selectors.contains { element.closest($0) != nil } }?.name
    }
}

/// Pages of a megabyte or more are parsed and audited one at a time, and the memory they used is
/// handed back to the system after each. Such a page takes tens of megabytes while audited (javadoc's
/// uses of `String`: 6 MB of HTML, 106,000 elements, about 75 MB with styles); two at once on the
/// two workers were most of a styled crawl's peak, and glibc kept what they freed.
struct LargePageGate: Sendable {
    static let threshold = 1 << 20
    private let turn = DispatchSemaphore(value: 1)

    func oneAtATime<Result>(ifSized bytes: Int, _ body: () -> Result) -> Result {
        guard bytes >= Self.threshold else { return body() }
        turn.wait()
        let result = body()
        turn.signal()
        // Freed memory stays in the worker's malloc arena otherwise, counted in the process's size.
        FreedMemory.handBack()
        return result
    }
}

/// Hands the memory malloc keeps after frees back to the system (glibc's `malloc_trim`, looked
/// up at run time: it is not in the Glibc module, and other C libraries lack it). Each worker
/// thread allocates from an arena of its own, and an arena keeps what was freed in it: after a
/// large page, or at the end of a crawl, that is tens of megabytes counted in the process's size.
enum FreedMemory {
    static func handBack() {
        _ = mallocTrim?(0)
    }

    /// Blocks of a megabyte or more (a large page's tree, its links, its axe line) are mapped
    /// on their own and unmapped when freed, whatever was freed before. glibc raises this
    /// threshold each time such a block is freed, up to 32 MB, after which they come from the
    /// arenas and stay there: a whole javadoc crawl peaked 10-20 MB higher (169-173 MB against
    /// 152 MB, three runs, `MALLOC_MMAP_THRESHOLD_` set to the same value), in the same time.
    /// Set once for the process by the commands that crawl.
    static func mapLargeBlocksApart() {
        _ = mallopt?(mmapThreshold, 1 << 20)
    }

    /// glibc's `M_MMAP_THRESHOLD`.
    private static let mmapThreshold: Int32 = -3

    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()
}
