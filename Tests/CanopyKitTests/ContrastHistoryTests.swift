import CanopyKit
import CanopyRules
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// A contrast finding through the whole history: recorded with its measurements, the same issue
/// next week when only its ratio changed, and shown in the HTML report as a developer fixes it.
@Suite("Contrast findings across weekly runs")
struct ContrastHistoryTests {
    @Test("a changed ratio on the same element is the same issue; the store and the report keep the measurements")
    func changedRatioIsTheSameIssue() throws {
        let folder = try ReportTestFolder("contrast-history")
        let grey = LockedState("#aaaaaa")
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/":
                return .html(
                    #"<!doctype html><html lang=en><head><title>Home</title><link rel="stylesheet" href="/site.css"></head><body><main><h1>Home</h1><p class="note">Delivery takes three days.</p><p>Read our <a href="/terms" class="plain">terms of sale</a> first.</p></main></body></html>"#
                )
            case "/site.css":
                return TestHTTPResponse(headers: [("Content-Type", "text/css")], body: Array(".note { color: \(grey.withLock { $0 }) } .plain { color: #333; text-decoration: none }".utf8))
            default:
                return .notFound
            }
        }
        defer { server.stop() }
        let config = folder.file("canopy.yml")
        try """
            start: \(server.url("/"))
            sitemaps: none
            politeness:
              robots: false
            output:
              reports: \(folder.file("Reports"))
              store: \(folder.file("canopy.sqlite"))
            """.write(toFile: config, atomically: true, encoding: .utf8)

        var runs: [RunID] = []
        for color in ["#aaaaaa", "#999999"] {
            grey.withLock { $0 = color }
            let outcome = SiteCrawl().run(SiteCrawl.Options(configPath: config, verbosity: .quiet))
            runs.append(try #require(outcome.run))
        }

        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        let first = try store.findings(run: runs[0]).filter { $0.finding.ruleID == "color-contrast" }
        let second = try store.findings(run: runs[1]).filter { $0.finding.ruleID == "color-contrast" }
        #expect(first.map(\.finding.evidence["fgColor"]) == [.text("#aaaaaa")])
        #expect(second.map(\.finding.evidence["fgColor"]) == [.text("#999999")])
        #expect(first.first?.finding.evidence["contrastRatio"] == .number(2.32))
        #expect(second.first?.finding.evidence["contrastRatio"] == .number(2.84))
        // Same element, same rule: one issue, persisting, not fixed and new.
        #expect(first.map(\.issueKey) == second.map(\.issueKey))
        let trend = try store.trendReport()
        let issue = try #require(trend.latest?.openIssues.first { $0.ruleId == "color-contrast" })
        #expect(!issue.isNew)
        #expect(issue.example.evidence?["expectedContrastRatio"] == .text("4.5:1"))

        let html = try String(contentsOfFile: folder.file("Reports/index.html"), encoding: .utf8)
        #expect(html.contains("<strong>2.84:1, needs 4.5:1</strong>"))
        #expect(html.contains(##"fill="#999999""##))
        #expect(html.contains("text <code>#999999</code>"))
        // A link told apart by colour alone: its colour against the text around it, named so.
        #expect(html.contains("link <code>#333333</code>"))
        #expect(html.contains("surrounding text <code>#000000</code>"))
    }
}
