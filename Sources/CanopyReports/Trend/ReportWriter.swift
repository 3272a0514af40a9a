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
        /// The trend written, without `latest.pages`: trend.json has them, written page by page.
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

    /// Memory stays flat however many pages the latest run has: the trend is read without its
    /// pages, the HTML drill-down takes only the pages it shows, and the files that list every
    /// page (trend.json, latest-results.jsonl) are written a page at a time.
    @discardableResult
    public func write(to folder: String) throws -> Output {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let trend = try store.trendReport(options: TrendOptions(includePages: false), generatedAt: now())
        let latestRun = try trend.latest.flatMap { try store.run($0.runId) }
        let drillDown = try trend.latest.map { try store.drillDownPages(run: $0.runId, limit: limits.drillDownPages) }
        let html = TrendHTMLReport(report: trend, siteName: Self.siteName(of: latestRun), limits: limits, drillDown: drillDown).render()

        var files: [String] = []
        func put(_ name: String, _ write: ((Data) throws -> Void) throws -> Void) throws {
            let path = (folder as NSString).appendingPathComponent(name)
            try StreamedFile.write(path, write)
            files.append(path)
        }
        try put(Self.htmlFile) { try $0(Data(html.utf8)) }
        try put(Self.trendFile) { output in
            try trend.writeJSON(pages: { body in
                if let run = trend.latest?.runId { try store.forEachDrillDownPage(run: run, body) }
            }, to: output)
        }
        try put(Self.csvFile) { try $0(Data(OpenIssuesCSV(report: trend).render().utf8)) }
        try put(Self.resultsFile) { output in
            if let latestRun { try LatestResultsJSONLines(store: store).write(run: latestRun, to: output) }
        }
        try put(Self.sarifFile) { try $0(try OpenIssuesSARIF(report: trend).render()) }
        var digest: WeeklyDigest?, digestMarkdown: String?
        if let latest = trend.runs.last {
            let details = try store.digestDetails(run: latest.runId, previous: latest.comparison?.previousRunId)
            digest = WeeklyDigest(trend: trend, details: details, site: Self.siteName(of: latestRun))
        }
        if let digest {
            let markdown = DigestMarkdown(digest: digest, reportLink: reportLink).render()
            digestMarkdown = markdown
            try put(Self.digestFile) { try $0(Data(markdown.utf8)) }
            try put(Self.digestJSONFile) { try $0(try digest.jsonData()) }
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

/// A file written in pieces under a temporary name and renamed when complete, so that a dashboard
/// or a browser never reads half a file while a report is being written.
enum StreamedFile {
    static func write(_ path: String, _ produce: ((Data) throws -> Void) throws -> Void) throws {
        let temporary = path + ".partial-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            do {
                try produce { try handle.write(contentsOf: $0) }
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}
