import CanopyDiagnostics
import CanopyKit
import CanopyLoopbackServer
import CanopyReports
import CanopyStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("canopy demo: the sample shop, its server, and its two weeks")
struct DemoTests {
    @Test("the demo crawls two weeks and its trend shows exactly the seeded fixes and regressions, not the churn")
    func demoEndToEnd() throws {
        let folder = try ReportTestFolder("demo")
        let weekOne = Date(timeIntervalSince1970: 1_717_200_000)
        let outcome = SiteDemo().run(SiteDemo.Options(folder: folder.path, weekOne: weekOne))
        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        let report = try #require(outcome.report)
        let trend = report.trend
        #expect(trend.runs.count == 2)
        let (first, second) = (trend.runs[0], trend.runs[1])
        #expect(first.startedAt.timeIntervalSince(weekOne) < 60)
        #expect(second.startedAt.timeIntervalSince(first.startedAt) >= 7 * 86_400 - 60)
        #expect(first.coverage.crawled == DemoShop.pagePaths.count)
        #expect(second.coverage.crawled == DemoShop.pagePaths.count)
        #expect(second.coverage.skippedByRobots == 1, "the checkout page is disallowed by robots.txt")
        #expect(second.coverage.skippedByScope >= 1, "the footer's social link is on another site")

        let comparison = try #require(second.comparison)
        #expect(comparison.newIssues == DemoShop.weekTwoRegressions.count)
        #expect(comparison.fixedIssues == DemoShop.weekTwoFixes.count)
        #expect(comparison.persistingIssues == first.violations.issues - DemoShop.weekTwoFixes.count)
        #expect(comparison.changes.isEmpty, "same rules and configuration both weeks")
        let newRules = (trend.latest?.openIssues ?? []).filter(\.isNew).map(\.ruleId).sorted()
        #expect(newRules == DemoShop.weekTwoRegressions.map(\.0).sorted())

        // Which issues went away, read from the store: exactly the seeded fixes.
        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        func violationIssues(_ run: RunID) throws -> [String: (rule: String, pages: Set<String>)] {
            var issues: [String: (rule: String, pages: Set<String>)] = [:]
            for finding in try store.findings(run: run) where finding.outcome == .violation {
                let key = try #require(finding.issueKey)
                issues[key, default: (finding.ruleID, [])].pages.insert(finding.pageURL)
            }
            return issues
        }
        let before = try violationIssues(first.runId), after = try violationIssues(second.runId)
        #expect(Set(before.keys).subtracting(after.keys).map { before[$0]!.rule }.sorted() == DemoShop.weekTwoFixes.map(\.0).sorted())
        // Churn (a notice on every page, renamed classes, reordered lists, new prices) moved no
        // persisting issue: each is on the same pages as before.
        for key in Set(before.keys).intersection(after.keys) {
            #expect(before[key]?.pages == after[key]?.pages, "\(before[key]?.rule ?? key)")
        }
        // The vendor's widget is attributed to it, and the header's issue is one component issue.
        let owners = second.byOwner.compactMap(\.owner)
        #expect(owners == [DemoShop.chatVendor])
        #expect(second.byComponent.contains { $0.name == "header" && $0.issues == 1 && $0.instances == DemoShop.pagePaths.count })

        #expect(outcome.messages.last { $0.description.hasPrefix("report: open ") }?.description.hasSuffix("index.html") == true)
        #expect(outcome.messages.contains { $0.description.contains("since week 1: 3 new, 3 fixed") })
        let html = try String(contentsOfFile: report.htmlPath, encoding: .utf8)
        #expect(ReportChecks.violations(ofHTML: html) == [])
        #expect(FileManager.default.fileExists(atPath: folder.file("canopy.yml")))
    }

    @Test("running the demo again starts a fresh history")
    func demoTwice() throws {
        let folder = try ReportTestFolder("demo-twice")
        let first = SiteDemo().run(SiteDemo.Options(folder: folder.path))
        let second = SiteDemo().run(SiteDemo.Options(folder: folder.path))
        #expect(first.exitStatus == .passed && second.exitStatus == .passed, "\(second.messages)")
        #expect(second.report?.trend.runs.count == 2)
        #expect(second.report?.trend.runs.last?.comparison?.newIssues == 3)
    }

    @Test("the shop on the loopback server answers GET and HEAD on 127.0.0.1, keeps connections alive, refuses other methods")
    func demoServer() throws {
        let server = try LoopbackServer(recordsRequests: false) { DemoShop(week: .one).response(for: $0) }
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
        let shop = DemoShop(week: .one)
        func get(_ path: String) -> LoopbackResponse {
            shop.response(for: LoopbackRequest(method: "GET", path: path, headers: [("Host", "127.0.0.1:9")]))
        }
        #expect(String(decoding: get("/robots.txt").body, as: UTF8.self).contains("Disallow: /checkout/"))
        let sitemap = String(decoding: get("/sitemap.xml").body, as: UTF8.self)
        for path in DemoShop.pagePaths {
            #expect(sitemap.contains("<loc>http://127.0.0.1:9\(path)</loc>"))
            #expect(get(path).status == 200, "\(path)")
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
