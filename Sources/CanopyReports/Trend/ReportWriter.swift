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
    private let now: @Sendable () -> Date

    public init(store: RunStore, limits: TrendHTMLReport.Limits = TrendHTMLReport.Limits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.limits = limits
        self.now = now
    }

    /// Memory stays flat however many pages and issues the latest run has: the trend is read
    /// without its pages and open issues, the HTML takes only the pages and issues it shows, and the
    /// files that list every page or issue are written one at a time. The open issues are read once
    /// and go to every file that uses them as they come: trend.json and open-issues.csv whole, and
    /// what index.html, open-issues.sarif and the digest keep of them.
    @discardableResult
    public func write(to folder: String) throws -> Output {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let trend = try store.trendReport(options: TrendOptions(includePages: false, includeOpenIssues: false), generatedAt: now())
        let run = trend.latest?.runId
        let latestRun = try run.flatMap { try store.run($0) }
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        // The longest file, and it reads nothing the others read: written on another core, from
        // a connection of its own, while the rest are written.
        let latestResults = LatestResultsJob(store: store, run: latestRun, path: path(Self.resultsFile))
        let drillDown = try run.map { try store.drillDownPages(run: $0, limit: limits.drillDownPages, findingsPerPage: limits.findingsPerPage) }

        let trendFile = try ReportFile(path: path(Self.trendFile)), csvFile = try ReportFile(path: path(Self.csvFile))
        var trendJSON = TrendJSONWriter(report: trend, sink: trendFile)
        var csv = OpenIssuesCSVWriter(sink: csvFile)
        var sarif = OpenIssuesSARIFWriter(run: run)
        var digestIssues = WeeklyDigest.OpenIssueLists()
        var shownIssues: [OpenIssue] = [], openIssueCount = 0
        if let run {
            try store.forEachOpenIssue(run: run) { issue in
                try trendJSON.add(issue)
                csv.add(issue)
                try csv.flushIfFull()
                sarif.add(issue)
                digestIssues.add(issue)
                if shownIssues.count < limits.openIssues { shownIssues.append(issue) }
                openIssueCount += 1
            }
        }
        let html = TrendHTMLReport(
            report: trend, siteName: Self.siteName(of: latestRun), limits: limits, drillDown: drillDown, openIssues: (openIssueCount, shownIssues)
        )
        try ReportFile.write(path(Self.htmlFile)) { file in
            try html.write { piece in
                var piece = piece
                try piece.withUTF8 { try file.write(UnsafeRawBufferPointer($0)) }
            }
        }
        try trendJSON.finish(pages: { body in
            if let run { try store.forEachDrillDownPage(run: run, body) }
        })
        try trendFile.commit()
        try csv.finish()
        try csvFile.commit()
        try ReportFile.write(path(Self.sarifFile)) { try sarif.write(to: $0) }
        try latestResults.finish()
        var files = [Self.htmlFile, Self.trendFile, Self.csvFile, Self.resultsFile, Self.sarifFile].map(path)

        var digest: WeeklyDigest?, digestMarkdown: String?
        if let latest = trend.runs.last {
            let details = try store.digestDetails(run: latest.runId, previous: latest.comparison?.previousRunId)
            digest = WeeklyDigest(trend: trend, openIssues: digestIssues, details: details, site: Self.siteName(of: latestRun))
        }
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
    }

    /// The site as people name it: the first start URL's host (and port when it has one).
    static func siteName(of run: StoredRun?) -> String {
        guard let start = run?.startURLs.first else { return "the site" }
        guard let components = URLComponents(string: start), let host = components.host, !host.isEmpty else { return start }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

/// `latest-results.jsonl`, written on a thread of its own through a second, read-only connection
/// to the store's file (SQLite's write-ahead log lets it read beside the writer's connection).
/// Where no second connection can be opened (a store in memory, a file being replaced), the file
/// is written by `finish` on the caller's thread, through the store itself.
private final class LatestResultsJob: @unchecked Sendable {
    // @unchecked: `error` is written by the job's thread before `done` is signalled, read after.
    private let store: RunStore
    private let run: StoredRun?
    private let path: String
    private let done = DispatchSemaphore(value: 0)
    private var started = false
    private var error: (any Error)?

    init(store: RunStore, run: StoredRun?, path: String) {
        self.store = store
        self.run = run
        self.path = path
        // Its connection has the small page cache every connection has (`SQLiteDatabase`): it
        // reads the run's pages once, in order, and its memory comes on top of the other reports'.
        guard run != nil, let reader = try? RunStore(path: store.path, readOnly: true, analyzer: nil) else { return }
        started = true
        Thread.detachNewThread { [self] in
            do { try write(through: reader) } catch { self.error = error }
            done.signal()
        }
    }

    private func write(through reader: RunStore) throws {
        try ReportFile.write(path) { file in
            if let run { try LatestResultsJSONLines(store: reader).write(run: run, to: file) }
        }
    }

    /// Waits for the file (or writes it, when it was not started), and throws what writing it threw.
    func finish() throws {
        guard started else { return try write(through: store) }
        done.wait()
        if let error { throw error }
    }
}
