import CanopyHTML
import CanopyHistory
import CanopyKit
import CanopyRules
import CanopyStore
import Foundation
import Testing

/// A folder of its own under the system's temporary folder, removed when the value goes away.
final class ReportTestFolder {
    let path: String

    init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
}

enum ReportChecks {
    /// The trend as JSONEncoder writes it: the bytes trend.json must have.
    static func encoded(_ trend: TrendReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(trend)
    }

    /// Audits an HTML report with every rule Canopy has and returns the violations as
    /// "rule: target" lines (empty when the report passes).
    static func violations(ofHTML html: String) -> [String] {
        let document = HTMLParser().parse(html: html, url: "file:///report/index.html")
        let result = Auditor(rules: RuleCatalog.all).audit(document)
        return result.violations.flatMap { rule in rule.nodes.map { "\(rule.metadata.id): \($0.target) \($0.html)" } }
    }

    /// The chromium binary when one is installed (Debian's package installs `chromium`).
    static let chromium: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()
}

/// `canopy crawl START` with fast fetch settings, no robots.txt or sitemaps, its reports and store
/// in `folder` (`Reports/`, `canopy.sqlite`); `configure` changes the overrides first.
func crawlFromRoot(_ start: String, into folder: ReportTestFolder, configure: (inout CrawlOverrides) -> Void = { _ in }) -> SiteCrawl.Outcome {
    var overrides = CrawlOverrides()
    overrides.startURLs = [start]
    overrides.robots = false
    overrides.sitemaps = ["none"]
    overrides.retries = 0
    overrides.timeout = 5
    overrides.reports = folder.file("Reports")
    overrides.store = folder.file("canopy.sqlite")
    configure(&overrides)
    return SiteCrawl().run(SiteCrawl.Options(overrides: overrides))
}
