import CanopyDiagnostics
import CanopyHistory
import CanopyKit
import CanopyLoopbackServer
import CanopyReports
import CanopyRules
import CanopyStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("canopy demo: the sample shop, its server, and its eight weeks")
struct DemoTests {
    /// The story as designed: per week, violation issues, then new and fixed since the week before.
    static let figures: [(issues: Int, new: Int, fixed: Int)] = [
        (12, 0, 0),  // 1: the first crawl
        (12, 3, 3),  // 2: three fixes, three regressions, churn
        (15, 3, 0),  // 3: the product template redesign (three issues on twelve pages each)
        (16, 2, 1),  // 4: the vendor's widget update
        (12, 0, 4),  // 5: the redesign's fixes
        (13, 1, 0),  // 6: one more rule enabled
        (8, 0, 5),   // 7: form fixes, and churn
        (6, 1, 3),   // 8: this week
    ]

    @Test("the demo crawls eight weeks and its trend tells exactly the designed story: figures, owners, the rule-set marker, no churn")
    func demoEndToEnd() throws {
        let folder = try ReportTestFolder("demo")
        let weekOne = Date(timeIntervalSince1970: 1_717_200_000)
        let outcome = SiteDemo().run(SiteDemo.Options(folder: folder.path, weekOne: weekOne))
        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        let report = try #require(outcome.report)
        let runs = report.trend.runs
        try #require(runs.count == DemoShop.story.count && runs.count == Self.figures.count && runs.count >= 8)

        for (index, run) in runs.enumerated() {
            let week = DemoShop.story[index], expected = Self.figures[index]
            #expect(week.number == index + 1)
            // A week apart, from week one on.
            let offset = run.startedAt.timeIntervalSince(weekOne) - Double(index) * 7 * 86_400
            #expect(offset >= 0 && offset < 60, "week \(week.number) starts \(offset) s after its day")
            #expect(run.coverage.crawled == DemoShop.pagePaths.count && run.coverage.failed == 0)
            #expect(run.violations.issues == expected.issues, "week \(week.number)")
            #expect(run.comparison?.newIssues ?? 0 == expected.new, "week \(week.number)")
            #expect(run.comparison?.fixedIssues ?? 0 == expected.fixed, "week \(week.number)")
            // The figures are the story table's: one issue per rule id a change opens or closes.
            #expect(expected.new == week.opened.count && expected.fixed == week.closed.count, "week \(week.number)")
            if index > 0 { #expect(expected.issues == Self.figures[index - 1].issues + expected.new - expected.fixed) }
        }
        #expect(runs.last?.coverage.skippedByRobots == 1, "the checkout page is disallowed by robots.txt")
        #expect((runs.last?.coverage.skippedByScope ?? 0) >= 1, "the footer's social link is on another site")

        // Only week 6 changed anything besides the site, and only the rules: one rule added.
        let ruleWeek = try #require(DemoShop.story.firstIndex { $0.changes.contains { $0.kind == .ruleSet } })
        #expect(DemoShop.story[ruleWeek].number == 6)
        for (index, run) in runs.enumerated().dropFirst() {
            let comparison = try #require(run.comparison)
            #expect(comparison.changes == (index == ruleWeek ? ["rules added: empty-table-header"] : []), "week \(index + 1)")
            #expect(comparison.ruleSetChanged == (index == ruleWeek) && !comparison.configChanged && !comparison.canopyVersionChanged)
        }

        // Issue by issue, read from the store: what each week opened and closed is exactly the
        // story's (so the churn of weeks 2 and 7 opened and closed nothing), and an issue in two
        // weeks running is on the same pages in both.
        struct Issue { var rule: String; var owner: String?; var pages: Set<String> }
        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        func violationIssues(_ run: RunID) throws -> [String: Issue] {
            var issues: [String: Issue] = [:]
            for finding in try store.findings(run: run) where finding.outcome == .violation {
                let key = try #require(finding.issueKey)
                issues[key, default: Issue(rule: finding.ruleID, owner: finding.owner, pages: [])].pages.insert(finding.pageURL)
            }
            return issues
        }
        let weeks = try runs.map { try violationIssues($0.runId) }
        for index in 1..<weeks.count {
            let (before, after, week) = (weeks[index - 1], weeks[index], DemoShop.story[index])
            let opened = Set(after.keys).subtracting(before.keys), closed = Set(before.keys).subtracting(after.keys)
            #expect(opened.map { after[$0]!.rule }.sorted() == week.opened.sorted(), "week \(week.number)")
            #expect(closed.map { before[$0]!.rule }.sorted() == week.closed.sorted(), "week \(week.number)")
            for key in Set(before.keys).intersection(after.keys) {
                #expect(before[key]?.pages == after[key]?.pages, "week \(week.number): \(before[key]?.rule ?? key)")
            }
            // The vendor's issues move in the week of its update only, and the site's never then.
            let vendorWeek = week.changes.contains { $0.kind == .vendorUpdate }
            func keys(_ issues: [String: Issue], vendor: Bool) -> Set<String> { Set(issues.filter { ($0.value.owner == DemoShop.chatVendor) == vendor }.keys) }
            #expect((keys(before, vendor: true) != keys(after, vendor: true)) == vendorWeek, "week \(week.number)")
            if vendorWeek {
                #expect(week.number == 4)
                #expect(keys(before, vendor: false) == keys(after, vendor: false), "first-party issues are untouched by the vendor's update")
                #expect(opened.allSatisfy { after[$0]?.owner == DemoShop.chatVendor } && closed.allSatisfy { before[$0]?.owner == DemoShop.chatVendor })
                #expect((opened.count, closed.count) == (2, 1))
            }
        }
        // The template regression: one change, three issues, each on all twelve product pages.
        let redesign = Set(weeks[2].keys).subtracting(weeks[1].keys)
        #expect(redesign.count == 3 && redesign.allSatisfy { key in weeks[2][key]!.pages.count == 12 && weeks[2][key]!.pages.allSatisfy { $0.contains("/product/") } })
        let vendorAfterUpdate = try #require(runs[3].byOwner.first { $0.owner == DemoShop.chatVendor })
        #expect(vendorAfterUpdate.issues == 2 && runs[3].byOwner.first { $0.firstParty }?.issues == 14)
        #expect(runs.last?.byComponent.contains { $0.name == "header" && $0.issues == 1 && $0.instances == DemoShop.pagePaths.count } == true)

        // The latest run's open issues carry their age: three open since week 1, the vendor's
        // two since its update, one new this week.
        let open = (try store.trendReport(options: TrendOptions(includePages: false)).latest?.openIssues ?? []).filter { $0.outcome == "violation" }
        let firstSeen = Dictionary(grouping: open) { issue in runs.firstIndex { $0.runId == issue.firstSeenRunId }.map { $0 + 1 } ?? 0 }
            .mapValues { $0.map(\.ruleId).sorted() }
        #expect(firstSeen == [1: ["aria-valid-attr-value", "image-alt", "label"], 4: ["image-alt", "region"], 8: ["label"]])
        #expect(open.filter(\.isNew).map(\.component) == ["footer"])

        // The report marks week 6 on both trend charts, with what changed.
        let html = try String(contentsOfFile: report.htmlPath, encoding: .utf8)
        let day = String(ISO8601DateFormatter().string(from: runs[ruleWeek].startedAt).prefix(10))
        let marker = "<g class=\"change-marker\"><title>Run \(runs[ruleWeek].runId) (\(day)): rules added: empty-table-header</title>"
        #expect(html.components(separatedBy: "<g class=\"change-marker\">").count - 1 == 2)
        #expect(html.components(separatedBy: marker).count - 1 == 2)
        #expect(html.contains("run \(runs[ruleWeek].runId) (\(day)), rules added: empty-table-header."), "in the charts' text alternatives")
        #expect(ReportChecks.violations(ofHTML: html) == [])

        #expect(outcome.messages.last { $0.description.hasPrefix("report: open ") }?.description.hasSuffix("index.html") == true)
        #expect(outcome.messages.contains { $0.description.hasPrefix("week 6, ") && $0.description.hasSuffix("1 new and 0 fixed since week 5 (not only the site changed: rules added: empty-table-header)") })
        #expect(outcome.messages.contains { $0.description.hasPrefix("week 8, ") && $0.description.hasSuffix("1 new and 3 fixed since week 7") })
        #expect(FileManager.default.fileExists(atPath: folder.file("canopy.yml")))
        let rules = try String(contentsOfFile: folder.file("rules.yml"), encoding: .utf8)
        #expect(rules.contains("  - empty-table-header\n"))
    }

    @Test("the story table: eight weeks in order, each edit once, a template regression, a vendor update, a rule-set change, fixes over weeks, churn")
    func storyTable() {
        let story = DemoShop.story
        #expect(story.map(\.number) == Array(1...story.count) && story.count >= 8)
        #expect(story[0].changes.isEmpty, "week 1 is the shop as it starts")
        let edits = story.flatMap(\.changes).map(\.edit)
        #expect(edits.count == Set(edits).count && Set(edits) == Set(DemoShop.Edit.allCases))
        let changes = story.flatMap(\.changes)
        #expect(changes.contains { $0.kind == .regression && $0.opens.count >= 3 }, "a template regression")
        #expect(changes.contains { $0.kind == .vendorUpdate && $0.owner == DemoShop.chatVendor && !$0.opens.isEmpty && !$0.closes.isEmpty })
        #expect(story.filter { $0.changes.contains { $0.kind == .fix } }.count >= 4, "fixes land over several weeks")
        #expect(story.filter { $0.changes.contains { $0.kind == .churn } }.count >= 2)
        #expect(changes.filter { $0.kind == .churn }.allSatisfy { $0.opens.isEmpty && $0.closes.isEmpty })
        // The rule it enables is an opt-in one: the default set does not already have it.
        let enabled = DemoShop.enabledRules(week: story.count)
        #expect(enabled == ["empty-table-header"])
        #expect(enabled.allSatisfy { id in RuleCatalog.optInRules.contains { $0.metadata.id == id } })
        #expect(DemoShop.enabledRules(week: 5).isEmpty && DemoShop.enabledRules(week: 6) == enabled)
    }

    @Test("running the demo again starts a fresh history")
    func demoTwice() throws {
        let folder = try ReportTestFolder("demo-twice")
        let first = SiteDemo().run(SiteDemo.Options(folder: folder.path))
        let second = SiteDemo().run(SiteDemo.Options(folder: folder.path))
        #expect(first.exitStatus == .passed && second.exitStatus == .passed, "\(second.messages)")
        #expect(second.report?.trend.runs.count == DemoShop.story.count)
        #expect(second.report?.trend.runs.last?.comparison?.newIssues == Self.figures.last?.new)
        // By default the last week is now.
        let last = try #require(second.report?.trend.runs.last?.startedAt)
        #expect(abs(last.timeIntervalSinceNow) < 120)
    }

    @Test("the shop on the loopback server answers GET and HEAD on 127.0.0.1, keeps connections alive, refuses other methods")
    func demoServer() throws {
        let server = try LoopbackServer(recordsRequests: false) { DemoShop(week: 1).response(for: $0) }
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")

        let connection = try LoopbackClient(port: UInt16(server.port))
        // Two requests on one connection: keep-alive.
        let first = try connection.exchange("GET /robots.txt?x=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(first.hasSuffix("Sitemap: http://127.0.0.1:\(server.port)/sitemap.xml\n"))
        let missing = try connection.exchange("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(missing.hasPrefix("HTTP/1.1 404"))
        let head = try connection.exchange("HEAD /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200") && head.hasSuffix("\r\n\r\n"), "HEAD has no body")

        let post = try LoopbackClient(port: UInt16(server.port)).exchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        #expect(post.hasPrefix("HTTP/1.1 405"))
        let garbage = try LoopbackClient(port: UInt16(server.port)).exchange("NONSENSE\r\n\r\n")
        #expect(garbage.hasPrefix("HTTP/1.1 400"))
        let huge = try LoopbackClient(port: UInt16(server.port)).exchange("GET /" + String(repeating: "a", count: 64 * 1024 + 10) + " HTTP/1.1\r\n\r\n")
        #expect(huge.hasPrefix("HTTP/1.1 431"))
        #expect(server.requests.isEmpty, "a server that keeps no requests keeps none")
    }

    @Test("stop() returns promptly even with an idle connection open, and the port is closed afterwards")
    func demoServerStops() throws {
        let server = try LoopbackServer { _ in .text("ok") }
        let idle = try LoopbackClient(port: UInt16(server.port))
        let clock = ContinuousClock()
        let elapsed = clock.measure { server.stop() }
        #expect(elapsed < .seconds(2))
        withExtendedLifetime(idle) {}
        #expect(throws: (any Error).self) { try LoopbackClient(port: UInt16(server.port)) }
    }

    @Test("the shop serves robots.txt, a sitemap and every page, and 404 elsewhere")
    func shopRoutes() throws {
        let shop = DemoShop(week: 1)
        func get(_ path: String) -> LoopbackResponse {
            shop.response(for: LoopbackRequest(method: "GET", path: path, headers: [("Host", "127.0.0.1:9")]))
        }
        #expect(String(decoding: get("/robots.txt").body, as: UTF8.self).contains("Disallow: /checkout/"))
        let sitemap = String(decoding: get("/sitemap.xml").body, as: UTF8.self)
        for path in DemoShop.pagePaths {
            #expect(sitemap.contains("<loc>http://127.0.0.1:9\(path)</loc>"))
            #expect(get(path).status == 200, "\(path)")
        }
        for week in DemoShop.story {
            let shop = DemoShop(week: week.number)
            for path in DemoShop.pagePaths {
                #expect(shop.response(for: LoopbackRequest(method: "GET", path: path, headers: [("Host", "127.0.0.1:9")])).status == 200, "week \(week.number): \(path)")
            }
        }
        #expect(get("/checkout/").status == 404)
        #expect(get("/product/999-nothing").status == 404)
    }
}

/// A plain TCP client to 127.0.0.1 for talking HTTP by hand.
private final class LoopbackClient {
    private let descriptor: Int32

    init(port: UInt16) throws {
        // The socket is stored only once connected: a throwing init of a fully initialised class
        // still runs deinit, and closing the descriptor twice would close whatever socket another
        // test thread was given that number in between.
        #if canImport(Glibc)
        let candidate = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let candidate = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard candidate >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(candidate, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(candidate)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(candidate, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        descriptor = candidate
    }

    deinit { close(descriptor) }

    /// Sends `request` and reads one response: the head, then Content-Length bytes of body (none for HEAD).
    func exchange(_ request: String) throws -> String {
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            sent += count
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound]
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let bodyLength = request.hasPrefix("HEAD") ? 0 : length
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: headEnd.upperBound) >= bodyLength { return text }
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return text }
            received += chunk[0..<count]
        }
    }
}
