import CanopyDiagnostics
import CanopyHTML
import CanopyHistory
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
/// comparison and the rule-set change marker are rendered too. `js` is what each payload would
/// run (no quotes in it, so it never closes a payload's own quotes early).
private func hostileStore(in folder: ReportTestFolder, js: String = "alert(1)") throws -> RunStore {
    let store = try RunStore(path: folder.file("canopy.sqlite"))
    let script = "<script>\(js)</script>"
    let pages: [(url: String, title: String)] = [
        ("https://evil.example/\(script)?q=\"onmouseover=\(js)", "</title>\(script)"),
        ("javascript:alert(document.cookie)", "\" onmouseover=\"\(js)"),
        ("https://evil.example/p'><img src=x onerror=\(js)>", "</style><style>body{display:none}</style>"),
        ("data:text/html,\(script)", "'single' & \"double\" <b>quotes</b>"),
    ]
    func records(extraRule: Bool) -> [PageRecord] {
        pages.enumerated().map { index, page in
            var findings = [
                FindingRecord(
                    Finding(ruleID: "image-alt", impact: .critical, outcome: .violation,
                    target: "img[alt='\" onmouseover=\(js)']:nth-child(\(index + 1)) > \(script)",
                    snippet: "<img src=\"x\" onerror=\"\(js)\"></style>\(script)<a href=\"javascript:\(js)\">",
                    message: "</textarea><svg onload=\(js)> \(script) ' \" &amp;"),
                    owner: "<b onclick=\"\(js)\">Vendor \(script)</b>", identity: FindingIdentity(elementSignature: StableHasher.hex(of: "image", String(index)), component: nil)
                ),
                FindingRecord(
                    Finding(ruleID: "link-name", impact: .serious, outcome: .incomplete, target: "a[href=\"javascript:\(js)\"]",
                    snippet: "<a href=\"javascript:\(js)\" onfocus=\(js) autofocus>", message: "=HYPERLINK(\"http://evil.example\")"),
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "link", String(index)), component: nil)
                ),
            ]
            if extraRule {
                findings.append(FindingRecord(
                    Finding(ruleID: "label", impact: .moderate, outcome: .violation, target: "input[name='\(script)']",
                    snippet: "<input name='\" onmouseover=\(js) x='>", message: "+cmd|' /C calc'!A0"),
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
        // Escaped on bytes: characters of several bytes around and between the escaped ones stay whole.
        #expect(HTMLEscaping.escape("<é\u{0}😀>\"ü'&") == "&lt;é\u{FFFD}😀&gt;&quot;ü&#39;&amp;")
        #expect(HTMLEscaping.escape("<p>é"[...].dropFirst()) == "p&gt;é")
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
        // Written page by page, and byte for byte what encoding the whole report gives.
        let whole = try store.trendReport(generatedAt: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(whole.latest?.pages.count == 4)
        #expect(file == (try ReportChecks.encoded(whole)))
        #expect(output.trend.latest?.pages == [] && output.trend.latest?.openIssues == [], "the report returned leaves pages and issues to the file")
        let decoded = try TrendReport.decode(file)
        #expect(decoded.runs.map(\.runId) == output.trend.runs.map(\.runId))
        #expect(decoded.latest?.openIssues.map(\.issueKey) == whole.latest?.openIssues.map(\.issueKey))
        #expect(decoded.runs.count == 2)
        #expect(decoded.runs[1].comparison?.rulesAdded == ["label"])
        #expect(decoded.generatedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(output.files.map { ($0 as NSString).lastPathComponent } == [
            "index.html", "trend.json", "open-issues.csv", "latest-results.jsonl", "open-issues.sarif", "digest.md", "digest.json",
        ])
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

    @Test("a cell is quoted exactly when it holds a comma, a quote or a line break, wherever in a long cell it stands")
    func csvQuotingAnywhere() {
        let special: [UInt8] = [0x2C, 0x22, 0x0A, 0x0D]
        // Bytes next to the special ones, and bytes whose high bit is set, which an eight-byte test could confuse.
        let others: [UInt8] = [0x2B, 0x2D, 0x21, 0x23, 0x09, 0x0B, 0x0C, 0x0E, 0x00, 0x7F, 0x80, 0xAC, 0xA2, 0x8A, 0x8D, 0xFF]
        for length in 0..<40 {
            for position in 0..<max(length, 1) {
                for byte in special + others {
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    if length > 0 { bytes[position] = byte }
                    let expected = length > 0 && special.contains(byte)
                    #expect(bytes.withUnsafeBufferPointer(CSV.needsQuotes) == expected, "\(byte) at \(position) of \(length)")
                }
            }
        }
    }

    @Test("open-issues.csv has one row per open issue, each reading back to its fields")
    func openIssuesCSV() throws {
        let folder = try ReportTestFolder("report-csv")
        let store = try hostileStore(in: folder)
        try ReportWriter(store: store).write(to: folder.file("Reports"))
        let rows = Self.parseCSV(try String(contentsOfFile: folder.file("Reports/open-issues.csv"), encoding: .utf8))
        #expect(rows.first == OpenIssuesCSV.header)
        let issues = try #require(try store.trendReport(options: TrendOptions(includePages: false)).latest?.openIssues)
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
            var changed = finding.finding
            changed.target += tricky
            changed.snippet += tricky
            changed.message = tricky + changed.message
            return StoredFinding(
                pageURL: finding.pageURL, finding: changed, owner: finding.owner, elementSignature: finding.elementSignature,
                componentKey: finding.componentKey, issueKey: finding.issueKey
            )
        }
        let writer = AxeJSONLineWriter(ruleIDs: run.ruleIDs + ["region"])
        for (url, pageFindings) in Dictionary(grouping: findings, by: \.pageURL) {
            let passing: Set<String> = ["document-title", "html-has-lang"]
            let written = writer.line(url: url + tricky, timestamp: "2024-01-05T08:00:00.000Z", findings: pageFindings.map(\.finding), passingRules: passing)
            let encoded = try AxeJSONReport(
                url: url + tricky, timestamp: "2024-01-05T08:00:00.000Z", ruleIDs: run.ruleIDs + ["region"], findings: pageFindings, passingRules: passing
            ).jsonLine()
            #expect(written == String(decoding: encoded, as: UTF8.self))
        }
        #expect(JSONText.string("a\r\nb") == "\"a\\r\\nb\"")
    }

    @Test("JSON strings escape as JSONEncoder does wherever the character falls among the eight bytes scanned at once")
    func jsonTextEscapesAtEveryPosition() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let specials = ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\t", " ", "\u{7F}", "é", "✓", "😀", "/"]
        var texts: [String] = []
        for length in 0..<20 {
            for special in specials {
                for position in 0...length {
                    var characters = Array(repeating: "a", count: length)
                    characters.insert(special, at: position)
                    texts.append(characters.joined())
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            texts.append(String((0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &generator)))
            }))
        }
        // Either side of the run escaped on the stack at a time, and control characters throughout.
        let limit = JSONText.inputRun
        for length in [limit - 1, limit, limit + 1, 3 * limit] {
            texts.append(String((0..<length).map { _ in specials.randomElement(using: &generator)!.first! }))
            texts.append(String(repeating: "\u{01}", count: length))
        }
        for text in texts {
            #expect(JSONText.string(text) == String(decoding: try encoder.encode(text), as: UTF8.self), "\(Array(text.utf8))")
            // Pieces of one string escape as the whole does.
            var pieces: [UInt8] = []
            let middle = text.index(text.startIndex, offsetBy: text.count / 2)
            JSONText.appendEscaped(String(text[..<middle]), to: &pieces)
            JSONText.appendEscaped(String(text[middle...]), to: &pieces)
            #expect([0x22] + pieces + [0x22] == Array(JSONText.string(text).utf8))
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count - 7, by: 1) {
                let word = bytes[start..<start + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(JSONText.needsEscaping(word) == bytes[start..<start + 8].contains(where: JSONText.needsEscaping))
            }
        }
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
        // Run 2 against run 1: the label rule is new (3 issues), the page that failed lost its image issue.
        #expect(outcome.messages.first == "run 2: 6 violation issues on 6 page instances, 3 to review; since run 1: 3 new, 1 fixed, 3 persisting (also changed: rules added: label)")
        #expect(outcome.messages.dropFirst().first == .note("report: " + folder.file("out/index.html")))

        let missing = ReportGeneration().run(ReportGeneration.Options(storePath: folder.file("none.sqlite"), reportsFolder: folder.file("out2")))
        #expect(missing.exitStatus == .usageError)
        #expect(missing.messages.first?.problem?.kind == .store)
        #expect(missing.messages.first?.description.contains("none.sqlite") == true)
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
        // The database picks the pages a sort of every page would: failures, then most findings.
        let every = try #require(try store.trendReport().latest?.pages)
        let expected = every.filter { $0.error != nil || !$0.findings.isEmpty }
            .sorted { ($0.error != nil ? 1 : 0, $0.findings.count, $1.url) > ($1.error != nil ? 1 : 0, $1.findings.count, $0.url) }
            .prefix(25).map(\.url)
        let shown = document.elements.filter { $0.localName == "span" && $0.classNames.contains("url") }.map(\.textContent)
        #expect(shown == Array(expected))
        #expect(html.contains("(the first 3 of"))
        #expect(ReportChecks.violations(ofHTML: html) == [])
    }

    @Test("a rule-set or configuration change is marked on both charts, labelled with what changed (text, tooltip, text alternative), in the legend and in the list of changes, and only there")
    func ruleSetChangeMarker() throws {
        func store(changingRulesAt changed: Int?) throws -> (ReportTestFolder, TrendReport) {
            let folder = try ReportTestFolder("report-marker")
            let store = try RunStore(path: folder.file("canopy.sqlite"))
            for week in 0..<4 {
                let rules = week == changed ? ["image-alt", "label"] : ["image-alt"]
                let ruleIDs = week >= (changed ?? 99) ? ["image-alt", "label"] : ["image-alt"]
                let run = try store.begin(RunStart(
                    startedAt: Date(timeIntervalSince1970: 1_704_441_600 + Double(week) * 604_800), configHash: "config",
                    ruleSetName: "default", ruleIDs: ruleIDs, ruleSetHash: ruleIDs.joined(separator: ","), canopyVersion: "0.1.0",
                    startURLs: ["https://shop.example/"]
                ))
                let findings = rules.map { rule in
                    FindingRecord(
                        Finding(ruleID: rule, impact: .critical, outcome: .violation, target: "#\(rule)", snippet: "<img>", message: "fails"),
                        identity: FindingIdentity(elementSignature: StableHasher.hex(of: rule, String(week % 2)), component: nil)
                    )
                }
                try store.record([PageRecord(url: "https://shop.example/", statusCode: 200, findings: findings)], run: run)
                try store.finish(run, coverage: RunCoverage(planned: 1, crawled: 1, failed: 0))
            }
            return (folder, try store.trendReport())
        }
        /// The x of each dashed marker line, per chart, in document order.
        func markers(_ html: String) -> [[String]] {
            let document = HTMLParser().parse(html: html)
            return document.elements.filter { $0.localName == "svg" }.map { chart in
                chart.descendants.filter { $0.localName == "line" && $0.attribute("stroke-dasharray") != nil }.map { $0.attribute("x1") ?? "" }
            }
        }
        // Four runs; the rules change before the third. Columns are (760 − 52 − 12) / runs wide,
        // from x = 52; a marker stands at the left edge of its column.
        let (_, changedTrend) = try store(changingRulesAt: 2)
        let html = TrendHTMLReport(report: changedTrend, siteName: "shop.example").render()
        #expect(changedTrend.runs.map { $0.comparison?.ruleSetChanged ?? false } == [false, false, true, false])
        let found = markers(html)
        #expect(found.count == 4, "two trend charts and two bar charts")
        #expect(found[0] == [String(format: "%.1f", 52 + 2 * 696 / 4.0)], "the issues chart: before the third of four runs")
        #expect(found[1] == [String(format: "%.1f", 52 + 1 * 696 / 3.0)], "the new-and-fixed chart: before the second of three compared runs")
        #expect(found[2].isEmpty && found[3].isEmpty)
        #expect(html.contains("<li>Run 3 (2024-01-19): rules added: label</li>"))

        // Each marker says what changed: a visible label beside it and a tooltip; the chart's
        // text alternative says it too (a screen reader does not read inside a role="img" chart),
        // and the legend names the marker by its shape, not by colour alone.
        let document = HTMLParser().parse(html: html)
        let charts = document.elements.filter { $0.localName == "svg" }
        for chart in charts.prefix(2) {
            let groups = chart.descendants.filter { $0.localName == "g" && $0.classNames.contains("change-marker") }
            #expect(groups.count == 1)
            let parts = groups.first.map { group in group.descendants.filter { $0.localName == "title" || $0.localName == "text" }.map(\.textContent) }
            #expect(parts == ["Run 3 (2024-01-19): rules added: label", "rules added: label"])
            #expect(chart.attribute("aria-label")?.contains("Marked with a dashed line where not only the site changed: run 3 (2024-01-19), rules added: label.") == true)
        }
        #expect(charts.dropFirst(2).allSatisfy { !($0.attribute("aria-label") ?? "").contains("dashed") })
        let legendEntry = "<li><span class=\"swatch swatch-marker\" style=\"border-color:#1d4ed8\" aria-hidden=\"true\"></span>"
            + "dashed line, labelled: the rule set, configuration or Canopy version changed before this run</li>"
        #expect(html.components(separatedBy: legendEntry).count - 1 == 2, "in both trend charts' legends")
        #expect(ReportChecks.violations(ofHTML: html) == [])

        let (_, steadyTrend) = try store(changingRulesAt: nil)
        let steady = TrendHTMLReport(report: steadyTrend, siteName: "shop.example").render()
        let steadyMarkers = markers(steady)
        #expect(steadyMarkers.count == 4 && steadyMarkers.allSatisfy { $0.isEmpty })
        #expect(!steady.contains("change-marker") && !steady.contains("swatch swatch-marker") && !steady.contains("Marked with a dashed line"))
        #expect(steady.contains("None: every run in the trend used the same rules"))
    }

    @Test(
        "headless Chromium draws the demo report's charts: each impact's colour covers at least the area its numbers give",
        .enabled(if: ReportChecks.chromium != nil, "chromium is not installed (apt-get install chromium): rendering the report in a headless browser is skipped")
    )
    func demoChartsRenderInChromium() throws {
        let folder = try ReportTestFolder("report-chromium-demo")
        let chromium = HeadlessChromium(executable: try #require(ReportChecks.chromium), workFolder: folder.path)
        let demo = SiteDemo().run(SiteDemo.Options(folder: folder.file("demo"), weekOne: Date(timeIntervalSince1970: 1_717_200_000)))
        #expect(demo.exitStatus == .passed, "\(demo.messages)")
        let report = try #require(demo.report)
        let runs = report.trend.runs
        #expect(runs.count == DemoShop.story.count)

        // The same page with every chart emptied but kept in place (same size, same layout): the
        // difference between the two screenshots is what the charts drew.
        let html = try String(contentsOfFile: report.htmlPath, encoding: .utf8)
        let blank = html.replacingOccurrences(of: "(<svg[^>]*>).*?</svg>", with: "$1</svg>", options: .regularExpression)
        #expect(blank != html)
        let blankPath = folder.file("demo/blank.html")
        try blank.write(toFile: blankPath, atomically: true, encoding: .utf8)
        let drawn = try chromium.screenshot(of: URL(fileURLWithPath: report.htmlPath), to: folder.file("report.png"), height: 1800)
        let empty = try chromium.screenshot(of: URL(fileURLWithPath: blankPath), to: folder.file("blank.png"), height: 1800)
        #expect(drawn.width == 1280 && drawn.height == 1800)

        // Each bar is a rectangle of plot units (the chart is 760 px wide, its viewBox 760 units);
        // its inner pixels, one pixel in from every edge, are exactly its colour.
        func innerPixels(height: Double, width: Double) -> Int { Int(max(0, height - 2).rounded(.down) * max(0, width - 2).rounded(.down)) }
        let slot = 696.0 / Double(runs.count), barWidth = min(slot * 0.72, 48)
        let top = Double(SVGCharts.niceMaximum(runs.map { $0.byImpact.reduce(0) { $0 + $1.issues } }.max() ?? 0))
        var checked = 0
        for (impact, colour) in TrendHTMLReport.impactColors {
            let expected = runs.reduce(0) { sum, run in
                sum + innerPixels(height: Double(run.byImpact.first { $0.name == impact }?.issues ?? 0) / top * 200, width: barWidth)
            }
            guard expected > 0 else { continue }
            checked += 1
            let painted = drawn.count(colour) - empty.count(colour)
            #expect(painted >= expected, "\(impact) (\(colour)): \(painted) pixels drawn, at least \(expected) expected")
        }
        #expect(checked >= 2, "the demo has issues of several impacts")
        let comparison = try #require(runs.last?.comparison)
        let changeTop = Double(SVGCharts.niceMaximum(max(comparison.newIssues, comparison.fixedIssues)))
        let changeBar = min(696.0 * 0.72, 48) / 2 - 1
        for (value, colour) in [(comparison.newIssues, TrendHTMLReport.newColor), (comparison.fixedIssues, TrendHTMLReport.fixedColor)] {
            let expected = innerPixels(height: Double(value) / changeTop * 200, width: changeBar)
            let painted = drawn.count(colour) - empty.count(colour)
            #expect(expected > 0 && painted >= expected, "\(colour): \(painted) pixels drawn, at least \(expected) expected")
        }
    }

    @Test(
        "nothing crawled runs in a browser: after load, Chromium's DOM has no trace of the hostile scripts, with the CSP and without it",
        .enabled(if: ReportChecks.chromium != nil, "chromium is not installed (apt-get install chromium): running the report in a headless browser is skipped")
    )
    func hostileReportRunsNothingInChromium() throws {
        let folder = try ReportTestFolder("report-chromium-hostile")
        let chromium = HeadlessChromium(executable: try #require(ReportChecks.chromium), workFolder: folder.path)
        // Every payload, if it ran, would write the marker into the title and the document; the
        // marker is built at run time, so the payloads' text alone never contains it.
        let marker = "PWNED"
        let js = "document.title=String.fromCharCode(80,87,78,69,68);document.documentElement.append(String.fromCharCode(80,87,78,69,68))"

        // The harness sees a script that runs: the same payloads in a page of our own do run.
        let control = folder.file("control.html")
        try "<!DOCTYPE html><html><head><title>control</title></head><body><img src=\"nowhere.png\" onerror=\"\(js)\"><script>\(js)</script></body></html>"
            .write(toFile: control, atomically: true, encoding: .utf8)
        #expect(try chromium.dumpDOM(of: URL(fileURLWithPath: control)).contains("<title>\(marker)</title>"))

        let output = try ReportWriter(store: try hostileStore(in: folder, js: js)).write(to: folder.file("Reports"))
        let html = try String(contentsOfFile: output.htmlPath, encoding: .utf8)
        let dom = try chromium.dumpDOM(of: URL(fileURLWithPath: output.htmlPath))
        #expect(!dom.contains(marker))
        #expect(dom.contains("<title>Accessibility trend – evil.example</title>"))
        #expect(dom.contains("String.fromCharCode(80,87,78,69,68)"), "the payloads are in the page, as text")

        // Escaping alone holds: without its Content-Security-Policy the report runs nothing either.
        let policy = "<meta http-equiv=\"Content-Security-Policy\" content=\"\(TrendHTMLReport.contentSecurityPolicy)\">"
        #expect(html.contains(policy))
        let unprotected = folder.file("Reports/without-csp.html")
        try html.replacingOccurrences(of: policy, with: "").write(toFile: unprotected, atomically: true, encoding: .utf8)
        let unprotectedDOM = try chromium.dumpDOM(of: URL(fileURLWithPath: unprotected))
        #expect(!unprotectedDOM.contains(marker))
        #expect(!unprotectedDOM.contains("Content-Security-Policy"))
        #expect(unprotectedDOM.contains("String.fromCharCode(80,87,78,69,68)"))
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
