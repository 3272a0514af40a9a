import CanopyHistory
import CanopyStore
import Foundation

/// Writes the reports of a store into a folder: what `canopy report` does, and what every
/// `canopy crawl` does when its run is recorded. Reads the store and nothing else.
///
/// - `index.html`: the trend report for people (`TrendHTMLReport`);
/// - `trend.json`: the same trend for dashboards (docs/trend-json.md);
/// - `open-issues.csv`: the latest run's open issues;
/// - `latest-results.jsonl`: the latest run's pages in axe-core's result shape;
/// - `open-issues.sarif`: the latest run's open issues for code-scanning dashboards;
/// - `digest.md` and `digest.json`: what changed since the run before (`WeeklyDigest`).
///
/// Each file is written to a temporary name and renamed, so a dashboard or a browser never
/// reads half a file while a report is being written.
public struct ReportWriter: Sendable {
    public static let htmlFile = "index.html"
    public static let trendFile = "trend.json"
    public static let csvFile = "open-issues.csv"
    public static let resultsFile = "latest-results.jsonl"
    public static let sarifFile = "open-issues.sarif"
    public static let digestFile = "digest.md"
    public static let digestJSONFile = "digest.json"

    /// What was written.
    public struct Output: Sendable {
        /// Full paths, in the order written (the HTML report first).
        public var files: [String]
        public var htmlPath: String
        /// The trend written, without `latest.pages` and `latest.openIssues`: trend.json has them,
        /// written one at a time (`RunStore.trendReport` reads them whole).
        public var trend: TrendReport
        /// The latest run's digest; nil while no run is complete.
        public var digest: WeeklyDigest?
        /// digest.md's text.
        public var digestMarkdown: String?
    }

    public let store: RunStore
    public var limits: TrendHTMLReport.Limits
    /// Where the digest's links point: index.html beside it, or the published report's address.
    public var reportLink = ReportWriter.htmlFile
    /// Off, every file is written on the calling thread, as when no second connection to the
    /// store can be opened (for the tests that compare the two).
    var readsOnOtherThreads = true
    private let now: @Sendable () -> Date

    public init(store: RunStore, limits: TrendHTMLReport.Limits = TrendHTMLReport.Limits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.limits = limits
        self.now = now
    }

    /// Memory stays flat however many pages and issues the latest run has: the trend is read
    /// without its pages and open issues, the HTML takes only the pages and issues it shows, and the
    /// files that list every page or issue are written one at a time.
    ///
    /// The work is split over two more threads, each reading through a connection of its own:
    /// latest-results.jsonl on one (or, from a crawl, already written while the run was analysed:
    /// `latestResults`), and on the other the open issues, read once, written to the files that
    /// list them all (trend.json, open-issues.csv, open-issues.sarif) and summed up for index.html
    /// and the digest, which this thread writes meanwhile. One thread wrote them all in turn, and
    /// the end of a crawl ran on one core for a sixth of its time.
    @discardableResult
    public func write(to folder: String, latestResults advance: LatestResultsFile? = nil) throws -> Output {
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        var latestResults = advance
        var issueListings: IssueListingsJob?
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let trend = try store.trendReport(options: TrendOptions(includePages: false, includeOpenIssues: false), generatedAt: now())
            let run = trend.latest?.runId
            let latestRun = try run.flatMap { try store.run($0) }
            if let advance, advance.run != run || advance.path != path(Self.resultsFile) {
                // Written for a run that did not become the latest complete one (or elsewhere).
                advance.discard()
                latestResults = nil
            }
            if latestResults == nil {
                latestResults = try LatestResultsFile(store: store, run: latestRun, path: path(Self.resultsFile), onItsOwnThread: readsOnOtherThreads)
            }
            let listings = try IssueListingsJob(
                store: store, onItsOwnThread: readsOnOtherThreads, trend: trend, run: run, shownLimit: limits.openIssues,
                paths: (trend: path(Self.trendFile), csv: path(Self.csvFile), sarif: path(Self.sarifFile))
            )
            issueListings = listings

            let drillDown = try run.map { try store.drillDownPages(run: $0, limit: limits.drillDownPages, findingsPerPage: limits.findingsPerPage) }
            let openIssues = try listings.summary()
            let html = TrendHTMLReport(
                report: trend, siteName: Self.siteName(of: latestRun), limits: limits, drillDown: drillDown,
                openIssues: (openIssues.count, openIssues.shown)
            )
            try ReportFile.write(path(Self.htmlFile)) { file in
                try html.write { piece in
                    var piece = piece
                    try piece.withUTF8 { try file.write(UnsafeRawBufferPointer($0)) }
                }
            }
            var digest: WeeklyDigest?, digestMarkdown: String?
            if let latest = trend.runs.last {
                let details = try store.digestDetails(run: latest.runId, previous: latest.comparison?.previousRunId)
                digest = WeeklyDigest(trend: trend, openIssues: openIssues.digestLists, details: details, site: Self.siteName(of: latestRun))
            }
            try listings.wait()
            try latestResults?.commit()
            var files = [Self.htmlFile, Self.trendFile, Self.csvFile, Self.resultsFile, Self.sarifFile].map(path)
            if let digest {
                let markdown = DigestMarkdown(digest: digest, reportLink: reportLink).render()
                digestMarkdown = markdown
                // digest.json is a few kilobytes whatever the site (its lists are cut to ten), so JSONEncoder writes it.
                let json = try digest.jsonData()
                try ReportFile.write(path(Self.digestFile)) { try $0.write(Array(markdown.utf8)) }
                try ReportFile.write(path(Self.digestJSONFile)) { file in try json.withUnsafeBytes { try file.write($0) } }
                files += [Self.digestFile, Self.digestJSONFile].map(path)
            }
            return Output(files: files, htmlPath: files[0], trend: trend, digest: digest, digestMarkdown: digestMarkdown)
        } catch {
            // No thread outlives the call, and no half-written file is left behind.
            try? issueListings?.wait()
            latestResults?.discard()
            throw error
        }
    }

    /// The site as people name it: the first start URL's host (and port when it has one).
    static func siteName(of run: StoredRun?) -> String {
        guard let start = run?.startURLs.first else { return "the site" }
        guard let components = URLComponents(string: start), let host = components.host, !host.isEmpty else { return start }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

/// The open issues of the latest run, read once on a thread of its own: written to trend.json,
/// open-issues.csv and open-issues.sarif as they come, and summed up (`Summary`) for the thread
/// that writes index.html and the digest, which waits for the summary alone, not for the files.
/// A second read of the issues for that thread cost as much as the files' writing (on the whole
/// javadoc site, 116,795 issues at 27,000 instructions each) and a second sort's memory.
private final class IssueListingsJob {
    struct Summary {
        var count = 0
        /// The first issues in the report's order, as many as the HTML shows.
        var shown: [OpenIssue] = []
        var digestLists = WeeklyDigest.OpenIssueLists()
    }

    /// Where the job's thread leaves the summary (or why there is none) for the thread that asks.
    private final class SummaryChannel: @unchecked Sendable {
        // @unchecked: `outcome` is written once, before `ready` is signalled, and read after it.
        private let ready = DispatchSemaphore(value: 0)
        private var outcome: Result<Summary, any Error>?

        func deliver(_ delivered: Result<Summary, any Error>) {
            guard outcome == nil else { return }
            outcome = delivered
            ready.signal()
        }

        /// Waits for the summary when `waits`, else takes what was delivered on this thread.
        func take(waiting waits: Bool) throws -> Summary {
            if waits { ready.wait() }
            return try outcome!.get()
        }
    }

    private let channel: SummaryChannel
    private let job: ReaderJob
    private let pages: TrendPagesJob?
    private var summaryTaken: Summary?

    init(
        store: RunStore, onItsOwnThread: Bool, trend: TrendReport, run: RunID?, shownLimit: Int, paths: (trend: String, csv: String, sarif: String)
    ) throws {
        let channel = SummaryChannel()
        self.channel = channel
        let pages = try run.map { run in
            try TrendPagesJob(store: store, onItsOwnThread: onItsOwnThread, run: run, folder: (paths.trend as NSString).deletingLastPathComponent)
        }
        self.pages = pages
        job = ReaderJob(store: store, onItsOwnThread: onItsOwnThread) { reader in
            do {
                try Self.write(
                    trend: trend, run: run, pages: pages, shownLimit: shownLimit, through: reader, to: paths, summary: channel,
                    sarifOnItsOwnThread: onItsOwnThread
                )
            } catch {
                // Whoever waits for the summary must not wait for ever (a no-op once it is delivered).
                channel.deliver(.failure(error))
                throw error
            }
        }
    }

    /// The summary, once the issues are read. Where the job has no thread of its own, the whole
    /// job is done here first.
    func summary() throws -> Summary {
        if let summaryTaken { return summaryTaken }
        if !job.hasThread { try job.wait() }
        let summary = try channel.take(waiting: job.hasThread)
        summaryTaken = summary
        return summary
    }

    /// Waits for the files, and throws what writing them threw.
    func wait() throws {
        // Both jobs, whatever the first throws: no thread outlives the call.
        let written = Result { try job.wait() }
        try pages?.wait()
        try written.get()
    }

    private static func write(
        trend: TrendReport, run: RunID?, pages: TrendPagesJob?, shownLimit: Int, through reader: RunStore,
        to paths: (trend: String, csv: String, sarif: String), summary channel: SummaryChannel, sarifOnItsOwnThread: Bool
    ) throws {
        let trendFile = try ReportFile(path: paths.trend), csvFile = try ReportFile(path: paths.csv)
        var trendJSON = TrendJSONWriter(report: trend, sink: trendFile)
        var csv = OpenIssuesCSVWriter(sink: csvFile)
        var sarif = OpenIssuesSARIFWriter(run: run)
        var summary = Summary()
        if let run {
            try reader.forEachOpenIssue(run: run) { issue in
                try trendJSON.add(issue)
                csv.add(issue)
                try csv.flushIfFull()
                sarif.add(issue)
                summary.digestLists.add(issue)
                if summary.shown.count < shownLimit { summary.shown.append(issue) }
                summary.count += 1
            }
        }
        channel.deliver(.success(summary))
        // The SARIF file needs nothing more from the store: it is written on a thread of its own
        // while this one reads the pages for trend.json. One after the other, they were the
        // longest thread at the end of a crawl (a fifth of it the SARIF file, callgrind).
        let sarifIssues = sarif
        let sarifJob = BackgroundJob(onItsOwnThread: sarifOnItsOwnThread) {
            try ReportFile.write(paths.sarif) { try sarifIssues.write(to: $0) }
        }
        do {
            if let pages {
                try trendJSON.finish(pagesFrom: pages.written())
            } else {
                try trendJSON.finish(pages: { _ in })
            }
            try trendFile.commit()
            try csv.finish()
            try csvFile.commit()
        } catch {
            // No thread outlives the job.
            try? sarifJob.wait()
            throw error
        }
        try sarifJob.wait()
    }
}

/// The elements of trend.json's `pages` array (each page of the run with its findings), written
/// on a thread of their own into a scratch file while the open issues are read and written on
/// another, and taken into trend.json after the issues. Written after the issues on the same
/// thread, they were half a second of the three that thread ran alone, the other core idle, at
/// the end of a styled crawl of the whole javadoc site (perf).
private final class TrendPagesJob: @unchecked Sendable {
    // @unchecked: its job's thread writes the scratch file; the threads that wait for the job
    // read it only after.
    private let job: ReaderJob
    private let scratch: ScratchFile

    init(store: RunStore, onItsOwnThread: Bool, run: RunID, folder: String) throws {
        let scratch = try ScratchFile(in: folder)
        self.scratch = scratch
        job = ReaderJob(store: store, onItsOwnThread: onItsOwnThread) { reader in
            try TrendJSONWriter.writePages(to: scratch) { body in try reader.forEachDrillDownPage(run: run, body) }
        }
    }

    /// The pages, once written; throws what writing them threw.
    func written() throws -> ScratchFile {
        try job.wait()
        return scratch
    }

    func wait() throws { try job.wait() }
}

/// latest-results.jsonl of one run, written on a thread of its own under a temporary name, and
/// given its name by `commit`.
///
/// A crawl starts it before its run is analysed (`init(store:run:folder:)`): the lines hold
/// nothing the analysis writes (the findings as recorded, each page's error and pass counts; the
/// findings a client-rendered page carries over are not on its line), so they read the same
/// before and after it, and the file is written while the analysis runs on the other core. It is
/// committed only by the `ReportWriter` that finds its run to be the latest complete one.
public final class LatestResultsFile: @unchecked Sendable {
    // @unchecked: `file` is written by the job's thread, then committed or removed by the thread
    // that waited for the job.
    /// The run whose lines are written; nil for none (an empty file).
    let run: RunID?
    let path: String
    private let file: ReportFile
    private let job: ReaderJob

    /// Starts writing the lines of `run`, which a crawl is about to finish, into `folder`.
    public convenience init(store: RunStore, run: RunID, folder: String) throws {
        try self.init(store: store, run: try store.run(run), path: (folder as NSString).appendingPathComponent(ReportWriter.resultsFile))
    }

    init(store: RunStore, run: StoredRun?, path: String, onItsOwnThread: Bool = true) throws {
        self.run = run?.id
        self.path = path
        let file = try ReportFile(path: path)
        self.file = file
        job = ReaderJob(store: store, onItsOwnThread: onItsOwnThread) { reader in
            if let run { try LatestResultsJSONLines(store: reader).write(run: run, to: file) }
        }
    }

    /// Waits for the lines and gives the file its name.
    func commit() throws {
        try job.wait()
        try file.commit()
    }

    /// Waits for the thread and removes the file (nothing is left under either name).
    public func discard() {
        try? job.wait()
        file.discard()
    }
}

/// Work done on a thread of its own through a second, read-only connection to the store's file
/// (SQLite's write-ahead log lets it read beside the writer's connection). Where no second
/// connection can be opened (a store in memory, a file being replaced), the work is done by `wait`
/// on the caller's thread, through the store itself.
final class ReaderJob: @unchecked Sendable {
    private let job: BackgroundJob

    /// Whether the work runs on a thread of its own (else `wait` does it).
    var hasThread: Bool { job.hasThread }

    init(store: RunStore, onItsOwnThread: Bool = true, _ work: @escaping @Sendable (RunStore) throws -> Void) {
        let reader = onItsOwnThread ? try? RunStore(path: store.path, readOnly: true, analyzer: nil) : nil
        job = BackgroundJob(onItsOwnThread: reader != nil) { try work(reader ?? store) }
    }

    /// Throws what the work threw, once it is done; the first call waits, or does the work when
    /// no thread was started.
    func wait() throws { try job.wait() }
}

/// Work on a thread of its own, or, without one, done by the first `wait`, which throws what the
/// work threw.
final class BackgroundJob: @unchecked Sendable {
    // @unchecked: `outcome` is written by the job's thread before `done` is signalled, and read
    // only after it, by the one thread that waits.
    private let work: @Sendable () throws -> Void
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Void, any Error>?
    let hasThread: Bool

    init(onItsOwnThread: Bool, _ work: @escaping @Sendable () throws -> Void) {
        self.work = work
        hasThread = onItsOwnThread
        guard onItsOwnThread else { return }
        Thread.detachNewThread { [self] in
            outcome = Result { try work() }
            done.signal()
        }
    }

    func wait() throws {
        if outcome == nil {
            if hasThread { done.wait() } else { outcome = Result { try work() } }
        }
        try outcome!.get()
    }
}
