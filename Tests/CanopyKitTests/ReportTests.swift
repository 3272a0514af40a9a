import CanopyHTML
import CanopyKit
@testable import CanopyReports
import CanopyRules
@testable import CanopyStore
import CanopySyntheticHistory
import Foundation
import Testing

/// A store whose crawled content tries every way into the report's markup: tags in URLs, titles,
/// snippets, selectors, messages and vendor names; attribute break-outs; `javascript:` URLs;
/// a `</style>` to end the report's style sheet. Two runs with different rule lists, so the
/// comparison and the rule-set change marker are rendered too.
private func hostileStore(in folder: ReportTestFolder) throws -> RunStore {
    let store = try RunStore(path: folder.file("canopy.sqlite"))
    let script = "<script>alert(1)</script>"
    let pages: [(url: String, title: String)] = [
        ("https://evil.example/\(script)?q=\"onmouseover=alert(1)", "</title>\(script)"),
        ("javascript:alert(document.cookie)", "\" onmouseover=\"alert(1)"),
        ("https://evil.example/p'><img src=x onerror=alert(1)>", "</style><style>body{display:none}</style>"),
        ("data:text/html,\(script)", "'single' & \"double\" <b>quotes</b>"),
    ]
    func records(extraRule: Bool) -> [PageRecord] {
        pages.enumerated().map { index, page in
            var findings = [
                FindingRecord(
                    ruleID: "image-alt", impact: .critical, outcome: .violation,
                    target: "img[alt='\" onmouseover=alert(1)']:nth-child(\(index + 1)) > \(script)",
                    snippet: "<img src=\"x\" onerror=\"alert(1)\"></style>\(script)<a href=\"javascript:alert(1)\">",
                    message: "</textarea><svg onload=alert(1)> \(script) ' \" &amp;", owner: "<b onclick=\"alert(1)\">Vendor \(script)</b>",
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "image", String(index)), component: nil)
                ),
                FindingRecord(
                    ruleID: "link-name", impact: .serious, outcome: .incomplete, target: "a[href=\"javascript:alert(1)\"]",
                    snippet: "<a href=\"javascript:alert(1)\" onfocus=alert(1) autofocus>", message: "=HYPERLINK(\"http://evil.example\")",
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "link", String(index)), component: nil)
                ),
            ]
            if extraRule {
                findings.append(FindingRecord(
                    ruleID: "label", impact: .moderate, outcome: .violation, target: "input[name='\(script)']",
                    snippet: "<input name='\" onmouseover=alert(1) x='>", message: "+cmd|' /C calc'!A0",
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "input", String(index)), component: nil)
                ))
            }
            return PageRecord(
                url: page.url, statusCode: 200, contentType: "text/html", title: page.title,
                error: index == 3 && extraRule ? "HTTP 500 \(script)" : nil, findings: index == 3 && extraRule ? [] : findings,
                passCounts: ["document-title": 1]
            )
        }
    }
    for (week, ruleIDs) in [["image-alt", "link-name"], ["image-alt", "link-name", "label"]].enumerated() {
        let run = try store.begin(RunStart(
            startedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(week) * 604_800), configHash: "config-\(script)",
            ruleSetName: "team \(script)", ruleIDs: ruleIDs, ruleSetHash: ruleIDs.joined(separator: ","), canopyVersion: "0.1.0",
            startURLs: ["https://evil.example/\(script)"]
        ))
        try store.record(records(extraRule: week == 1), run: run)
        try store.finish(run, coverage: RunCoverage(planned: 4, crawled: 4, failed: week, skippedByScope: 2, skippedByRobots: 1))
    }
    return store
}

@Suite("Reports: index.html, trend.json, CSV and JSON lines")
struct ReportTests {
    @Test("the escaping function escapes the five characters and only http(s) URLs become links")
    func escaping() {
        #expect(HTMLEscaping.escape("<a href=\"x\" title='y'>&</a>") == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLEscaping.escape("plain text – ünïcode") == "plain text – ünïcode")
        #expect(HTMLEscaping.escape("a\u{0}b") == "a\u{FFFD}b")
        #expect(HTMLEscaping.linkableURL("https://shop.example/a?b=c") == "https://shop.example/a?b=c")
        #expect(HTMLEscaping.linkableURL("HTTP://shop.example/") == "HTTP://shop.example/")
        #expect(HTMLEscaping.linkableURL("javascript:alert(1)") == nil)
        #expect(HTMLEscaping.linkableURL(" javascript:alert(1)") == nil)
        #expect(HTMLEscaping.linkableURL("data:text/html,<script>") == nil)
        #expect(HTMLEscaping.linkableURL("http://a.example/\njavascript:alert(1)") == nil)
        #expect(HTMLEscaping.linkableURL("//evil.example/") == nil)
    }

    @Test("hostile crawled content stays text: no script, no event attribute, no other style sheet, no javascript: link")
    func hostileContentIsEscaped() throws {
        let folder = try ReportTestFolder("report-hostile")
        let output = try ReportWriter(store: try hostileStore(in: folder)).write(to: folder.file("Reports"))
        let html = try String(contentsOfFile: output.htmlPath, encoding: .utf8)
        let lowered = html.lowercased()

        #expect(!lowered.contains("<script"))
        #expect(!lowered.contains("<img"))
        #expect(!lowered.contains("<svg onload"))
        #expect(lowered.components(separatedBy: "<style").count == 2, "exactly one <style>: the report's own")
        #expect(lowered.components(separatedBy: "</style").count == 2)
        // The content is there, as text.
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&quot; onmouseover=&quot;alert(1)"))
        #expect(html.contains("&lt;/style&gt;&lt;style&gt;body{display:none}&lt;/style&gt;"))

        let document = HTMLParser().parse(html: html)
        var eventAttributes: [String] = []
        var links: [String] = []
        for element in document.elements {
            eventAttributes += element.attributeNames.filter { $0.lowercased().hasPrefix("on") }.map { "\(element.localName)[\($0)]" }
            if let href = element.attribute("href") { links.append(href) }
            #expect(element.attribute("src") == nil, "nothing is loaded: \(element)")
            #expect(!["script", "iframe", "object", "embed", "link", "img", "base", "form"].contains(element.localName))
        }
        #expect(eventAttributes.isEmpty, "\(eventAttributes)")
        #expect(document.elements.filter { $0.localName == "style" }.count == 1)
        for href in links {
            let allowed = href.hasPrefix("#") || href.hasPrefix("https://evil.example/") || ["trend.json", "open-issues.csv", "latest-results.jsonl"].contains(href)
            #expect(allowed, "unexpected link \(href)")
        }
        // The javascript: and data: pages are shown, as text only.
        #expect(html.contains("javascript:alert(document.cookie)"))
        #expect(!links.contains { $0.lowercased().hasPrefix("javascript:") || $0.lowercased().hasPrefix("data:") })
        // The rule-set change between the runs is marked on the trend.
        #expect(html.contains("rules added: label"))
        #expect(html.contains("stroke-dasharray"))
    }

    @Test("the report forbids everything but its inline style with a Content-Security-Policy")
    func contentSecurityPolicy() throws {
        let folder = try ReportTestFolder("report-csp")
        let output = try ReportWriter(store: try hostileStore(in: folder)).write(to: folder.file("Reports"))
        let document = HTMLParser().parse(html: try String(contentsOfFile: output.htmlPath, encoding: .utf8))
        let policies = document.elements.filter { $0.localName == "meta" && $0.attribute("http-equiv")?.lowercased() == "content-security-policy" }
        #expect(policies.count == 1)
        let policy = try #require(policies.first?.attribute("content"))
        #expect(policy.contains("default-src 'none'"))
        #expect(!policy.contains("script-src"))
        #expect(policies.first?.parent?.localName == "head")
    }

    @Test("the HTML report passes every rule Canopy has: with hostile content, and for an empty store")
    func reportPassesCanopysOwnRules() throws {
        let folder = try ReportTestFolder("report-rules")
        let output = try ReportWriter(store: try hostileStore(in: folder)).write(to: folder.file("Reports"))
        let html = try String(contentsOfFile: output.htmlPath, encoding: .utf8)
        #expect(ReportChecks.violations(ofHTML: html) == [])
        // And its structure: one h1, no skipped heading level, named charts with their numbers in tables.
        let document = HTMLParser().parse(html: html)
        #expect(document.elements.filter { $0.localName == "h1" }.count == 1)
        #expect(document.documentElement?.attribute("lang") == "en")
        for landmark in ["header", "nav", "main", "footer"] { #expect(document.elements.contains { $0.localName == landmark }, "\(landmark)") }
        let charts = document.elements.filter { $0.localName == "svg" }
        #expect(charts.count >= 3)
        #expect(charts.allSatisfy { $0.attribute("role") == "img" && !($0.attribute("aria-label") ?? "").isEmpty })
        #expect(document.elements.filter { $0.localName == "th" }.allSatisfy { $0.attribute("scope") == "col" || $0.attribute("scope") == "row" })
        #expect(!document.elements.contains { ($0.attribute("tabindex").flatMap(Int.init) ?? 0) > 0 }, "no positive tabindex")

        let empty = try ReportTestFolder("report-empty")
        let emptyOutput = try ReportWriter(store: try RunStore(path: empty.file("canopy.sqlite"))).write(to: empty.file("Reports"))
        let emptyHTML = try String(contentsOfFile: emptyOutput.htmlPath, encoding: .utf8)
        #expect(emptyHTML.contains("No complete run yet"))
        #expect(ReportChecks.violations(ofHTML: emptyHTML) == [])
    }

    @Test("trend.json is the store's trend report, decodable as documented")
    func trendJSON() throws {
        let folder = try ReportTestFolder("report-json")
        let store = try hostileStore(in: folder)
        let output = try ReportWriter(store: store, now: { Date(timeIntervalSince1970: 1_800_000_000) }).write(to: folder.file("Reports"))
        let file = try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/trend.json")))
        #expect(file == (try output.trend.jsonData()))
        let decoded = try TrendReport.decode(file)
        #expect(decoded.runs.map(\.runId) == output.trend.runs.map(\.runId))
        #expect(decoded.latest?.openIssues.map(\.issueKey) == output.trend.latest?.openIssues.map(\.issueKey))
        #expect(decoded.runs.count == 2)
        #expect(decoded.runs[1].comparison?.rulesAdded == ["label"])
        #expect(decoded.generatedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(output.files.map { ($0 as NSString).lastPathComponent } == ["index.html", "trend.json", "open-issues.csv", "latest-results.jsonl"])
    }

    @Test("CSV fields are quoted as RFC 4180 says and formula-like cells are defused")
    func csvQuoting() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("two\nlines") == "\"two\nlines\"")
        #expect(CSV.field("cr\r\nlf") == "\"cr\r\nlf\"")
        #expect(CSV.field("=1+1") == "'=1+1")
        #expect(CSV.field("+cmd|' /C calc'!A0") == "'+cmd|' /C calc'!A0")
        #expect(CSV.field("-2+3") == "'-2+3")
        #expect(CSV.field("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSV.field("\t=1") == "'\t=1")
        #expect(CSV.field("=HYPERLINK(\"http://x\",\"y\")") == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"")
        #expect(CSV.field("a=b") == "a=b")
        #expect(CSV.row(["a", "b,c", ""]) == "a,\"b,c\",\r\n")
    }

    @Test("open-issues.csv has one row per open issue, each reading back to its fields")
    func openIssuesCSV() throws {
        let folder = try ReportTestFolder("report-csv")
        let output = try ReportWriter(store: try hostileStore(in: folder)).write(to: folder.file("Reports"))
        let rows = Self.parseCSV(try String(contentsOfFile: folder.file("Reports/open-issues.csv"), encoding: .utf8))
        #expect(rows.first == OpenIssuesCSV.header)
        let issues = try #require(output.trend.latest?.openIssues)
        #expect(rows.count == issues.count + 1)
        #expect(rows.dropFirst().allSatisfy { $0.count == OpenIssuesCSV.header.count })
        for (row, issue) in zip(rows.dropFirst(), issues) {
            #expect(row[0] == issue.issueKey)
            #expect(row[14] == issue.example.snippet)
            let message = issue.example.message
            #expect(row[15] == (["=", "+", "-", "@"].contains(message.first.map(String.init) ?? "") ? "'" + message : message))
        }
        #expect(rows.dropFirst().allSatisfy { row in row.allSatisfy { !["=", "+", "-", "@"].contains($0.first.map(String.init) ?? "") } })
    }

    @Test("latest-results.jsonl has the latest run's audited pages in axe-core's shape")
    func latestResults() throws {
        let folder = try ReportTestFolder("report-jsonl")
        try ReportWriter(store: try hostileStore(in: folder)).write(to: folder.file("Reports"))
        let text = try String(contentsOfFile: folder.file("Reports/latest-results.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3, "the page that failed with HTTP 500 has no result")
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["url", "timestamp", "testEngine", "violations", "passes", "incomplete", "inapplicable"])
            let violations = try #require(object["violations"] as? [[String: Any]])
            #expect(violations.map { $0["id"] as? String } == ["image-alt", "label"])
            let incomplete = try #require(object["incomplete"] as? [[String: Any]])
            #expect(incomplete.map { $0["id"] as? String } == ["link-name"])
            let passes = try #require(object["passes"] as? [[String: Any]])
            #expect(passes.map { $0["id"] as? String } == ["document-title"])
            let node = try #require((violations.first?["nodes"] as? [[String: Any]])?.first)
            #expect((node["html"] as? String)?.contains("<script>alert(1)</script>") == true, "JSON keeps the markup as it was")
        }
    }

    @Test("the hand-written JSON lines are byte for byte what JSONEncoder writes for the same page")
    func jsonLinesMatchTheEncoder() throws {
        let folder = try ReportTestFolder("report-jsonl-encoder")
        let store = try hostileStore(in: folder)
        let run = try #require(try store.runs().last)
        var findings = try store.findings(run: run.id)
        // Every JSON escape: quotes, backslashes, control characters, "\r\n", slashes, non-ASCII.
        let tricky = "quote \" back\\slash \u{1} \u{1F} tab\t cr\r\nlf / é 😀 \u{7F}"
        findings = findings.map { finding in
            StoredFinding(
                pageURL: finding.pageURL, ruleID: finding.ruleID, impact: finding.impact, outcome: finding.outcome,
                target: finding.target + tricky, snippet: finding.snippet + tricky, message: tricky + finding.message, owner: finding.owner,
                elementSignature: finding.elementSignature, componentKey: finding.componentKey, issueKey: finding.issueKey
            )
        }
        var writer = LatestResultsJSONLines.Writer(timestamp: "2024-01-05T08:00:00.000Z", ruleIDs: run.ruleIDs + ["region"])
        for (url, pageFindings) in Dictionary(grouping: findings, by: \.pageURL) {
            let passing: Set<String> = ["document-title", "html-has-lang"]
            let written = writer.line(url: url + tricky, findings: pageFindings, passingRules: passing)
            let encoded = try AxeJSONReport(
                url: url + tricky, timestamp: "2024-01-05T08:00:00.000Z", ruleIDs: run.ruleIDs + ["region"], findings: pageFindings, passingRules: passing
            ).jsonLine()
            #expect(written == String(decoding: encoded, as: UTF8.self))
        }
        #expect(JSONText.string("a\r\nb") == "\"a\\r\\nb\"")
    }

    @Test("canopy report writes the files from a store alone, and says so when there is no store")
    func reportGeneration() throws {
        let folder = try ReportTestFolder("report-generation")
        _ = try hostileStore(in: folder)
        let outcome = ReportGeneration().run(ReportGeneration.Options(storePath: folder.file("canopy.sqlite"), reportsFolder: folder.file("out")))
        #expect(outcome.exitStatus == .passed)
        for name in ["index.html", "trend.json", "open-issues.csv", "latest-results.jsonl"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("out/\(name)")), "\(name)")
        }
        #expect(outcome.messages.contains { $0.contains("1 new") || $0.contains("new") })

        let missing = ReportGeneration().run(ReportGeneration.Options(storePath: folder.file("none.sqlite"), reportsFolder: folder.file("out2")))
        #expect(missing.exitStatus == .usageError)
        #expect(missing.messages.first?.contains("none.sqlite") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out2/index.html")))
    }

    @Test("large sites: the open-issues table and the drill-down are capped and say so")
    func caps() throws {
        let folder = try ReportTestFolder("report-caps")
        let store = try RunStore(path: folder.file("canopy.sqlite"))
        try SyntheticHistory.populate(store: store, runs: 2, pages: 120)
        let limits = TrendHTMLReport.Limits(openIssues: 10, drillDownPages: 25, findingsPerPage: 3)
        let output = try ReportWriter(store: store, limits: limits).write(to: folder.file("Reports"))
        let document = HTMLParser().parse(html: try String(contentsOfFile: output.htmlPath, encoding: .utf8))
        let issueRows = document.elements.filter { $0.localName == "tr" && $0.ancestors.contains { $0.classNames.contains("issues") } && $0.parent?.localName == "tbody" }
        #expect(issueRows.count == 10)
        #expect(document.elements.filter { $0.localName == "details" && $0.classNames.contains("page") }.count == 25)
        let html = try String(contentsOfFile: output.htmlPath, encoding: .utf8)
        #expect(html.contains("This table shows the first 10"))
        #expect(html.contains("The latest run has 120 pages; here are the 25"))
        #expect(html.contains("(the first 3 of"))
        #expect(ReportChecks.violations(ofHTML: html) == [])
    }

    @Test(
        "a headless browser renders the report",
        .enabled(if: ReportChecks.chromium != nil, "chromium is not installed (apt-get install chromium): rendering the report in a headless browser is skipped")
    )
    func rendersInChromium() throws {
        let chromium = try #require(ReportChecks.chromium)
        let folder = try ReportTestFolder("report-chromium")
        let output = try ReportWriter(store: try hostileStore(in: folder)).write(to: folder.file("Reports"))
        let screenshot = folder.file("report.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1280,2400",
            "--screenshot=\(screenshot)", URL(fileURLWithPath: output.htmlPath).absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 10_000, "a blank page would be a tiny PNG")
    }

    /// RFC 4180 read back, for checking the writer.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var inQuotes = false
        var characters = Array(text.unicodeScalars)[...]
        while let character = characters.popFirst() {
            if inQuotes {
                if character == "\"" {
                    if characters.first == "\"" { field.unicodeScalars.append("\""); characters.removeFirst() } else { inQuotes = false }
                } else {
                    field.unicodeScalars.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                row.append(field); field = ""
            } else if character == "\r" && characters.first == "\n" {
                characters.removeFirst()
                row.append(field); field = ""
                rows.append(row); row = []
            } else {
                field.unicodeScalars.append(character)
            }
        }
        return rows
    }
}
