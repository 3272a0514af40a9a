import CanopyStore
import Foundation

/// Writes the reports of a store into a folder: what `canopy report` does, and what every
/// `canopy crawl` does when its run is recorded. Reads the store and nothing else.
///
/// - `index.html`: the trend report for people (`TrendHTMLReport`);
/// - `trend.json`: the same trend for dashboards (docs/trend-json.md);
/// - `open-issues.csv`: the latest run's open issues;
/// - `latest-results.jsonl`: the latest run's pages in axe-core's result shape.
///
/// Each file is written to a temporary name and renamed, so a dashboard or a browser never
/// reads half a file while a report is being written.
public struct ReportWriter: Sendable {
    public static let htmlFile = "index.html"
    public static let trendFile = "trend.json"
    public static let csvFile = "open-issues.csv"
    public static let resultsFile = "latest-results.jsonl"

    /// What was written.
    public struct Output: Sendable {
        /// Full paths, in the order written (the HTML report first).
        public var files: [String]
        public var htmlPath: String
        public var trend: TrendReport
    }

    public let store: RunStore
    public var limits: TrendHTMLReport.Limits
    private let now: @Sendable () -> Date

    public init(store: RunStore, limits: TrendHTMLReport.Limits = TrendHTMLReport.Limits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.limits = limits
        self.now = now
    }

    @discardableResult
    public func write(to folder: String) throws -> Output {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let trend = try store.trendReport(generatedAt: now())
        let latestRun = try trend.latest.flatMap { try store.run($0.runId) }
        let html = TrendHTMLReport(report: trend, siteName: Self.siteName(of: latestRun), limits: limits).render()

        var files: [String] = []
        func put(_ data: Data, _ name: String) throws {
            let path = (folder as NSString).appendingPathComponent(name)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            files.append(path)
        }
        try put(Data(html.utf8), Self.htmlFile)
        try put(try trend.jsonData(), Self.trendFile)
        try put(Data(OpenIssuesCSV(report: trend).render().utf8), Self.csvFile)
        let resultsPath = (folder as NSString).appendingPathComponent(Self.resultsFile)
        try LatestResultsJSONLines(store: store).write(run: latestRun, to: resultsPath)
        files.append(resultsPath)
        return Output(files: files, htmlPath: files[0], trend: trend)
    }

    /// The site as people name it: the first start URL's host (and port when it has one).
    static func siteName(of run: StoredRun?) -> String {
        guard let start = run?.startURLs.first else { return "the site" }
        guard let components = URLComponents(string: start), let host = components.host, !host.isEmpty else { return start }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}
