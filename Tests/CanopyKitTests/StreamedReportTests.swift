import CanopyHistory
@testable import CanopyReports
import CanopyRules
import CanopyStore
import CanopySyntheticHistory
import Foundation
import Testing

/// Strings that JSON, CSV and sorting must get exactly right: every control character, quotes,
/// backslashes, slashes, line breaks, non-ASCII, the line and paragraph separators JavaScript
/// does not allow unescaped in strings, a byte order mark, DEL.
private let awkwardStrings: [String] = [
    "", "plain", "quote \" and backslash \\ and \\\"", "slash / and </script> and http://x.example/a/b",
    String((0..<0x20).map { Character(Unicode.Scalar($0)) }), "del \u{7F}", "line\nbreak, cr\r, crlf\r\n, tab\t",
    "é ü ß 中文 😀 👩🏽‍💻 e\u{301}", "separators \u{2028} and \u{2029}", "\u{FEFF}byte order mark", "nul \u{0} inside",
    "=1+1", "-2", "@SUM(A1)", "'already'", "\"\"", ",", "\r", "a,b\"c\nd",
]

/// A `JSONValue` through JSONEncoder: what `JSONStreamWriter.value` must write.
private struct EncodedValue: Encodable {
    let value: JSONValue

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .array(let values): try container.encode(values.map(EncodedValue.init))
        case .object(let members): try container.encode(members.mapValues(EncodedValue.init))
        }
    }
}

private func encoded<Value: Encodable>(_ value: Value, pretty: Bool) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
}

private func streamed(pretty: Bool, _ write: (inout JSONStreamWriter) throws -> Void) throws -> [UInt8] {
    var json = JSONStreamWriter(pretty: pretty, sink: nil)
    try write(&json)
    try json.finish()
    return json.bytes
}

/// CSV cells as the report wrote them before the byte-wise writer (`replacingOccurrences`): what
/// `CSV.field` must still give.
private func referenceCSVField(_ value: String) -> String {
    var cell = value
    switch cell.utf8.first {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): cell = "'" + cell
    default: break
    }
    guard cell.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return cell }
    return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A store with three synthetic weeks and a fourth run recorded by hand with what the synthetic
/// ones lack: measured evidence, awkward text everywhere, a client-rendered page, a failed page,
/// stylesheet coverage.
private func richStore(in folder: ReportTestFolder) throws -> RunStore {
    let (store, run) = try richStoreBeforeItsLastRunEnds(in: folder)
    try finishRichRun(run, of: store)
    return store
}

/// The rich store with its last run recorded but not yet finished (analysed and marked complete).
private func richStoreBeforeItsLastRunEnds(in folder: ReportTestFolder) throws -> (RunStore, RunID) {
    let store = try RunStore(path: folder.file("canopy.sqlite"))
    try SyntheticHistory.populate(store: store, runs: 3, pages: 30)
    let run = try store.begin(RunStart(
        startedAt: Date(timeIntervalSince1970: 1_800_000_000.987), configHash: "config", ruleSetName: "team \u{2028} \"rules\"",
        ruleIDs: ["color-contrast", "image-alt", "label", "link-name"], ruleSetHash: "rules-4", canopyVersion: "0.1.0",
        startURLs: ["https://shop.example/"]
    ))
    var pages: [PageRecord] = []
    for (index, text) in awkwardStrings.enumerated() {
        let evidence: [String: EvidenceValue] = [
            "contrastRatio": .number([2.93, 4.5, 3, 1e16, 0.1 + 0.2, 1e-7][index % 6]), "expectedContrastRatio": .text("4.5:1"),
            "fgColor": .text("#777777"), "bgColor": .text("#ffffff"), "fontSize": .text("12.0pt (16px)"), "Zeta \(text)": .text(text),
        ]
        var page = PageRecord(
            url: "https://shop.example/p/\(index)?q=\(text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "")",
            statusCode: 200, contentType: "text/html", title: "Title \(text)",
            findings: [
                FindingRecord(
                    Finding(
                        ruleID: "color-contrast", impact: .serious, outcome: index.isMultiple(of: 3) ? .incomplete : .violation,
                        target: "p:nth-child(\(index + 1)) \(text)", snippet: "<p>\(text)</p>", message: "Low contrast \(text)", evidence: evidence
                    ),
                    owner: index.isMultiple(of: 4) ? "Vendor \(text)" : nil,
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "contrast", String(index)), component: nil)
                ),
                FindingRecord(
                    Finding(ruleID: "image-alt", impact: .critical, outcome: .violation, target: "img", snippet: "<img src=\"\(text)\">", message: text),
                    identity: FindingIdentity(elementSignature: StableHasher.hex(of: "image", String(index % 5)), component: nil)
                ),
            ],
            passCounts: ["document-title": 1, "label": index]
        )
        if index == 3 { page.notAudited = NotAudited(reason: NotAudited.clientRendered, details: ["empty body \(text)", "a script bundle"]) }
        if index == 5 { page.error = "HTTP 503 \(text)"; page.findings = [] }
        pages.append(page)
    }
    try store.record(pages, run: run)
    return (store, run)
}

private func finishRichRun(_ run: RunID, of store: RunStore) throws {
    var coverage = RunCoverage(planned: awkwardStrings.count + 2, crawled: awkwardStrings.count - 2, failed: 1, skippedByScope: 2, skippedByRobots: 1)
    coverage.stylesheets = StyleSheetCoverage(loaded: 3, failed: 1, missing: 2)
    try store.finish(run, coverage: coverage, endedAt: Date(timeIntervalSince1970: 1_800_000_321.5))
}

@Suite("Streamed reports: JSONEncoder's bytes and the old CSV's, a piece at a time")
struct StreamedReportTests {
    @Test("strings are escaped as JSONEncoder and JSONSerialization escape them: control characters, quotes, slashes, non-ASCII, U+2028")
    func stringEscaping() throws {
        for text in awkwardStrings {
            let written = try streamed(pretty: false) { json in
                json.beginArray()
                json.string(text)
                json.endArray()
            }
            #expect(written == (try encoded([text], pretty: false)), "\(text.debugDescription)")
            #expect(written == Array(try JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])), "\(text.debugDescription)")
        }
    }

    @Test("numbers and dates are written as JSONEncoder writes them")
    func numbersAndDates() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 2.5, 2.93, 3, 4.5, 21, 1e15, 1e16, 1e21, 1e-7, 0.1 + 0.2, 123_456_789.125, -3.75,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.0 / 3,
        ]
        #expect(try streamed(pretty: true) { json in
            json.beginArray()
            for number in doubles { try json.double(number) }
            json.endArray()
        } == (try encoded(doubles, pretty: true)))
        #expect(throws: EncodingError.self) { try streamed(pretty: false) { try $0.double(.nan) } }
        let integers = [0, 1, -1, 9, 10, 99, 100, 12_345, Int.max, Int.min]
        #expect(try streamed(pretty: false) { json in
            json.beginArray()
            for number in integers { json.int(number) }
            json.endArray()
        } == (try encoded(integers, pretty: false)))
        let dates = [0, 1_800_000_000, 1_800_000_000.4, 1_800_000_000.5, 1_800_000_000.999_999, -1.5, 4_102_444_800.25]
            .map(Date.init(timeIntervalSince1970:))
        #expect(try streamed(pretty: false) { json in
            json.beginArray()
            // Twice: the second time from the writer's cache.
            for date in dates + dates { json.date(date) }
            json.endArray()
        } == (try encoded(dates + dates, pretty: false)))
    }

    @Test("keys are sorted by their UTF-8 bytes and containers laid out as JSONEncoder lays them out, pretty or not")
    func keysAndLayout() throws {
        var members: [String: JSONValue] = [:]
        for (index, key) in (awkwardStrings + ["b", "B", "a10", "a9", "_x", "$schema", "firstSeenEverAt", "firstSeenAt", "pageType", "pages"]).enumerated() {
            members[key] = .integer(index)
        }
        let tree = JSONValue.object([
            "members": .object(members), "empty": .array([]), "emptyObject": .object([:]),
            "nested": .array([.array([]), .object([:]), .array([.object(["a": .boolean(true), "b": .boolean(false)])]), .number(2.5), .string("x")]),
            "deep": .object(["one": .object(["two": .object(["three": .array([.integer(3), .object([:])])])])]),
        ])
        for pretty in [true, false] {
            #expect(try streamed(pretty: pretty) { $0.value(tree) } == (try encoded(EncodedValue(value: tree), pretty: pretty)), "pretty: \(pretty)")
        }
        #expect(try streamed(pretty: true) { $0.value(.array([])) } == Array("[\n\n]".utf8))
        // Deeper than the indentation one run of spaces holds (32 levels), empty at the bottom.
        var deepest = JSONValue.object(["leaf": .array([.integer(1), .object([:])])])
        for level in 0..<40 { deepest = level % 2 == 0 ? .array([deepest, .integer(level)]) : .object(["k": deepest, "a": .string("x")]) }
        for pretty in [true, false] {
            #expect(try streamed(pretty: pretty) { $0.value(deepest) } == (try encoded(EncodedValue(value: deepest), pretty: pretty)), "pretty: \(pretty)")
        }
    }

    @Test("trend.json written a piece at a time is the encoded report, byte for byte, with awkward values everywhere")
    func trendWriterMatchesTheEncoder() throws {
        let folder = try ReportTestFolder("streamed-trend")
        var trend = try richStore(in: folder).trendReport(generatedAt: Date(timeIntervalSince1970: 1_800_000_500.75))
        var latest = try #require(trend.latest)
        #expect(latest.openIssues.contains { $0.example.evidence != nil && $0.owner != nil })
        #expect(!latest.clientRenderedPages.isEmpty && latest.pages.contains { $0.error != nil } && latest.pages.contains { $0.notAudited != nil })
        // What the store would not make: nil everywhere an optional may be, and keys of any kind.
        latest.openIssues[0].owner = nil
        latest.openIssues[0].example.evidence = Dictionary(uniqueKeysWithValues: awkwardStrings.enumerated().map { ($1, .number(Double($0) / 8)) })
        latest.openIssues[1].example.evidence = [:]
        latest.pages[0] = PageDrillDown(url: "u", findings: [])
        latest.pages[1].findings = [PageFinding(issueKey: "k", ruleId: "r", impact: "minor", outcome: "incomplete", target: "t \u{2028}", owner: "o", component: "c")]
        trend.latest = latest
        trend.runs[0].coverage.notAudited = Dictionary(uniqueKeysWithValues: awkwardStrings.enumerated().map { ($1, $0) })
        trend.runs[0].coverage.errors = ["HTTP 404": 2, "timeout": 1]
        trend.runs[0].endedAt = nil
        trend.runs[1].byOwner.append(OwnerTotals(owner: "vendor / \u{1}", firstParty: false, issues: 1, instances: 2))
        #expect(trend.runs.last?.comparison != nil && trend.runs.first?.comparison == nil)

        #expect(Array(try trend.jsonData()) == (try encoded(trend, pretty: true)))
        #expect(Array(try trend.jsonData(prettyPrinted: false)) == (try encoded(trend, pretty: false)))
        var empty = trend
        empty.latest = nil
        #expect(Array(try empty.jsonData()) == (try encoded(empty, pretty: true)))
        empty.runs = []
        #expect(Array(try empty.jsonData()) == (try encoded(empty, pretty: true)))
    }

    @Test("trend.json's pages written apart, then taken in after the issues, are the bytes written in place: none, one, several, pretty or not")
    func pagesWrittenApart() throws {
        let folder = try ReportTestFolder("streamed-pages-apart")
        let trend = try richStore(in: folder).trendReport(generatedAt: Date(timeIntervalSince1970: 1_800_000_500))
        let latest = try #require(trend.latest)
        #expect(latest.pages.count > 2 && latest.pages.contains { !$0.findings.isEmpty })
        for count in [0, 1, latest.pages.count] {
            for pretty in [true, false] {
                let pages = Array(latest.pages.prefix(count))
                let forEachPage = { (body: (PageDrillDown) throws -> Void) throws in for page in pages { try body(page) } }
                let inPlace = InMemorySink()
                var whole = TrendJSONWriter(report: trend, pretty: pretty, sink: inPlace)
                for issue in latest.openIssues { try whole.add(issue) }
                try whole.finish(pages: forEachPage)

                let scratch = try ScratchFile(in: folder.path)
                try TrendJSONWriter.writePages(pretty: pretty, to: scratch, forEachPage)
                let apart = InMemorySink()
                var joined = TrendJSONWriter(report: trend, pretty: pretty, sink: apart)
                for issue in latest.openIssues { try joined.add(issue) }
                try joined.finish(pagesFrom: scratch)
                #expect(apart.bytes == inPlace.bytes, "\(count) pages, pretty: \(pretty)")
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.allSatisfy { !$0.hasPrefix(".canopy-scratch") }, "scratch files have no name")
    }

    @Test("a scratch file gives back every byte written to it, in pieces of the size asked, and nothing when nothing was written")
    func scratchFileReadsBack() throws {
        let folder = try ReportTestFolder("scratch-file")
        let scratch = try ScratchFile(in: folder.path)
        var pieces: [Int] = []
        try scratch.read(chunkSize: 1000) { pieces.append($0.count) }
        #expect(pieces.isEmpty)
        let written = (0..<3_500).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        try written[..<1200].withUnsafeBytes { try scratch.write($0) }
        try written[1200...].withUnsafeBytes { try scratch.write($0) }
        var read: [UInt8] = []
        try scratch.read(chunkSize: 1000) { piece in
            pieces.append(piece.count)
            read.append(contentsOf: piece)
        }
        #expect(read == written)
        #expect(pieces == [1000, 1000, 1000, 500])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test("ReportWriter's trend.json and open-issues.csv are the whole trend's encoding and the old CSV's rows, in pieces")
    func reportFilesMatchTheWholeReport() throws {
        let folder = try ReportTestFolder("streamed-files")
        let store = try richStore(in: folder)
        let now = Date(timeIntervalSince1970: 1_800_001_000)
        let output = try ReportWriter(store: store, now: { now }).write(to: folder.file("Reports"))
        let whole = try store.trendReport(generatedAt: now)
        let issues = try #require(whole.latest?.openIssues)
        #expect(issues.count > awkwardStrings.count)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/trend.json")))) == (try encoded(whole, pretty: true)))
        #expect(output.trend.latest?.openIssues == [] && output.trend.latest?.pages == [], "the report returned leaves issues and pages to the files")

        let dates = ISO8601DateFormatter()
        var csv = OpenIssuesCSV.header.map(referenceCSVField).joined(separator: ",") + "\r\n"
        for issue in issues {
            csv += [
                issue.issueKey, issue.ruleId, issue.impact, issue.outcome, issue.isNew ? "yes" : "no", String(issue.pageCount),
                String(issue.findingCount), issue.firstSeenRunId.description, dates.string(from: issue.firstSeenAt),
                issue.owner ?? "", issue.component ?? "", issue.pageType ?? "", issue.example.url, issue.example.target,
                issue.example.snippet, issue.example.message, issue.firstSeenEverRunId.description, dates.string(from: issue.firstSeenEverAt),
            ].map(referenceCSVField).joined(separator: ",") + "\r\n"
        }
        #expect(try String(contentsOfFile: folder.file("Reports/open-issues.csv"), encoding: .utf8) == csv)
        #expect(try String(contentsOfFile: folder.file("Reports/open-issues.csv"), encoding: .utf8) == OpenIssuesCSV(report: whole).render())
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/open-issues.sarif"))) == (try OpenIssuesSARIF(report: whole).render()))

        // The digest from issues taken one at a time is the digest of the whole trend.
        let latest = try #require(whole.runs.last)
        let details = try store.digestDetails(run: latest.runId, previous: latest.comparison?.previousRunId)
        #expect(output.digest == WeeklyDigest(trend: whole, details: details, site: "shop.example"))
        let html = try String(contentsOfFile: output.htmlPath, encoding: .utf8)
        #expect(html.contains("<p>\(issues.count) open issues:"))
    }

    @Test("latest-results.jsonl started before the run's analysis is the file written after it, and is dropped when the run does not complete")
    func latestResultsWrittenAhead() throws {
        let folder = try ReportTestFolder("results-ahead")
        let (store, run) = try richStoreBeforeItsLastRunEnds(in: folder)
        let reports = folder.file("Reports"), afterwards = folder.file("Afterwards")
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        let ahead = try LatestResultsFile(store: store, run: run, folder: reports)
        try finishRichRun(run, of: store)
        try ReportWriter(store: store).write(to: reports, latestResults: ahead)
        try ReportWriter(store: store).write(to: afterwards)
        let lines = try Data(contentsOf: URL(fileURLWithPath: reports + "/latest-results.jsonl"))
        #expect(lines == (try Data(contentsOf: URL(fileURLWithPath: afterwards + "/latest-results.jsonl"))))
        #expect(String(decoding: lines, as: UTF8.self).contains("shop.example/p/3"), "the run's own pages")
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports).allSatisfy { !$0.contains(".partial") })

        // Started for a run that is then interrupted: the reports keep the last complete run's lines.
        let other = try ReportTestFolder("results-ahead-interrupted")
        let (otherStore, otherRun) = try richStoreBeforeItsLastRunEnds(in: other)
        let otherReports = other.file("Reports")
        try FileManager.default.createDirectory(atPath: otherReports, withIntermediateDirectories: true)
        let dropped = try LatestResultsFile(store: otherStore, run: otherRun, folder: otherReports)
        try otherStore.markInterrupted(otherRun, at: Date(timeIntervalSince1970: 1_800_000_400))
        try ReportWriter(store: otherStore).write(to: otherReports, latestResults: dropped)
        try ReportWriter(store: otherStore).write(to: other.file("Afterwards"))
        let kept = try Data(contentsOf: URL(fileURLWithPath: otherReports + "/latest-results.jsonl"))
        #expect(kept == (try Data(contentsOf: URL(fileURLWithPath: other.file("Afterwards/latest-results.jsonl")))))
        #expect(!String(decoding: kept, as: UTF8.self).contains("shop.example/p/3") && !kept.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: otherReports).allSatisfy { !$0.contains(".partial") })

        // Discarded outright: nothing is left under either name.
        let third = try ReportTestFolder("results-ahead-discarded")
        let (thirdStore, thirdRun) = try richStoreBeforeItsLastRunEnds(in: third)
        try FileManager.default.createDirectory(atPath: third.file("Reports"), withIntermediateDirectories: true)
        try LatestResultsFile(store: thirdStore, run: thirdRun, folder: third.file("Reports")).discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: third.file("Reports")) == [])
    }

    @Test("the reports written on several threads are the reports written on one, byte for byte")
    func threadsChangeNoByte() throws {
        let folder = try ReportTestFolder("streamed-threads")
        let store = try richStore(in: folder)
        let now = Date(timeIntervalSince1970: 1_800_001_000)
        var limits = TrendHTMLReport.Limits()
        limits.openIssues = 3
        let threaded = try ReportWriter(store: store, limits: limits, now: { now }).write(to: folder.file("Threaded"))
        var oneThread = ReportWriter(store: store, limits: limits, now: { now })
        oneThread.readsOnOtherThreads = false
        let single = try oneThread.write(to: folder.file("Single"))
        #expect(threaded.files.map { ($0 as NSString).lastPathComponent } == single.files.map { ($0 as NSString).lastPathComponent })
        for file in threaded.files {
            let name = (file as NSString).lastPathComponent
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == (try Data(contentsOf: URL(fileURLWithPath: folder.file("Single/" + name)))), "\(name)")
        }
        #expect(threaded.digest == single.digest && threaded.digest != nil)
        let html = try String(contentsOfFile: threaded.htmlPath, encoding: .utf8)
        #expect(html.contains("open issues"))
    }

    /// A folder in the way of a file makes its rename fail, on whichever thread writes it.
    @Test("a report file that cannot be written fails the whole write, on several threads or one", arguments: [
        ReportWriter.sarifFile, ReportWriter.trendFile, ReportWriter.csvFile,
    ])
    func unwritableFileFailsTheWrite(_ blocked: String) throws {
        let folder = try ReportTestFolder("streamed-unwritable")
        let store = try richStore(in: folder)
        for threaded in [true, false] {
            let reports = folder.file(threaded ? "Threaded" : "Single")
            try FileManager.default.createDirectory(atPath: (reports as NSString).appendingPathComponent(blocked + "/inside"), withIntermediateDirectories: true)
            var writer = ReportWriter(store: store)
            writer.readsOnOtherThreads = threaded
            #expect(throws: (any Error).self, "\(blocked), threaded: \(threaded)") { try writer.write(to: reports) }
        }
    }

    @Test("CSV cells are what the replacing implementation wrote, for every awkward string")
    func csvCells() {
        for text in awkwardStrings + awkwardStrings.map({ "\($0)\($0)" }) + ["\"", "\"\"\"", "a\"", "\"a"] {
            #expect(CSV.field(text) == referenceCSVField(text), "\(text.debugDescription)")
        }
        #expect(CSV.row(awkwardStrings) == awkwardStrings.map(referenceCSVField).joined(separator: ",") + "\r\n")
    }

    @Test("the store gives the open issues in the trend's order: violations, impact, pages, then rule and key")
    func openIssueOrder() throws {
        let folder = try ReportTestFolder("streamed-order")
        let synthetic = try RunStore(path: folder.file("synthetic.sqlite"))
        try SyntheticHistory.populate(store: synthetic, runs: 4, pages: 60)
        var seen: [OpenIssue] = []
        for store in [try richStore(in: folder), synthetic] {
            let latest = try #require(try store.trendReport(options: TrendOptions(includePages: false)).latest)
            var streamed: [OpenIssue] = []
            try store.forEachOpenIssue(run: latest.runId) { streamed.append($0) }
            #expect(streamed == latest.openIssues)
            // The order the trend sorted its issues in before the database did.
            let impactRank = ["critical": 3, "serious": 2, "moderate": 1, "minor": 0]
            let sorted = streamed.sorted { left, right in
                let leftOrder = (left.outcome == "violation" ? 1 : 0, impactRank[left.impact, default: 0], left.pageCount)
                let rightOrder = (right.outcome == "violation" ? 1 : 0, impactRank[right.impact, default: 0], right.pageCount)
                if leftOrder != rightOrder { return leftOrder > rightOrder }
                return (left.ruleId, left.issueKey) < (right.ruleId, right.issueKey)
            }
            #expect(streamed.map(\.issueKey) == sorted.map(\.issueKey))
            let complete = try store.runs().filter { $0.status == .complete }
            var previousKeys: Set<String> = []
            try store.forEachOpenIssue(run: complete[complete.count - 2].id) { previousKeys.insert($0.issueKey) }
            #expect(streamed.allSatisfy { $0.isNew == !previousKeys.contains($0.issueKey) })
            seen += streamed
        }
        #expect(Set(seen.map(\.outcome)) == ["violation", "incomplete"] && Set(seen.map(\.impact)).count >= 2)
        #expect(seen.contains(where: \.isNew) && seen.contains { !$0.isNew } && Set(seen.map(\.pageCount)).count > 2)
    }

    @Test("the digest's lists kept ten at a time are the lists of every issue sorted and cut, in whatever order the issues come")
    func digestListsStayShort() throws {
        let folder = try ReportTestFolder("streamed-digest")
        let synthetic = try RunStore(path: folder.file("synthetic.sqlite"))
        try SyntheticHistory.populate(store: synthetic, runs: 5, pages: 60)
        var ages: Set<Date> = [], newViolations = 0
        for store in [try richStore(in: folder), synthetic] {
            let trend = try store.trendReport(options: TrendOptions(includePages: false))
            let latest = try #require(trend.latest)
            let violations = latest.openIssues.filter { $0.outcome == "violation" }
            let newByGroup = Dictionary(grouping: violations.filter(\.isNew)) { [$0.ruleId, $0.component ?? "", $0.pageType ?? ""] }
            for limit in [0, 1, 2, 10] {
                for order in [latest.openIssues, latest.openIssues.reversed(), latest.openIssues.sorted { $0.example.url < $1.example.url }] {
                    var lists = WeeklyDigest.OpenIssueLists(listLimit: limit)
                    for issue in order { lists.add(issue) }
                    let digest = try #require(WeeklyDigest(trend: trend, openIssues: lists, details: DigestDetails(), site: "shop"))
                    let oldest = violations.sorted { ($0.firstSeenAt, $1.pageCount, $0.issueKey) < ($1.firstSeenAt, $0.pageCount, $1.issueKey) }
                    #expect(digest.oldestOpen.map(\.issueKey) == oldest.prefix(limit).map(\.issueKey), "limit \(limit)")
                    #expect(digest.newIssues.count == min(limit, newByGroup.count))
                    for group in digest.newIssues {
                        let members = try #require(newByGroup[[group.ruleId, group.component ?? "", group.pageType ?? ""]])
                        #expect(group.pages == members.map(\.pageCount).reduce(0, +))
                        let most = members.sorted { ($0.pageCount, $1.issueKey) > ($1.pageCount, $0.issueKey) }.prefix(limit)
                        #expect(group.issues.map(\.issueKey) == most.map(\.issueKey))
                    }
                }
            }
            ages.formUnion(violations.map(\.firstSeenAt))
            newViolations = max(newViolations, violations.filter(\.isNew).count)
            if newByGroup.count > 1 { #expect(newByGroup.values.contains { $0.count > 2 }, "issues to choose from in a group") }
        }
        #expect(ages.count > 2 && newViolations > 10, "issues of several ages, and enough new ones that the lists are cut")
    }
}
