import CanopyHTML
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
