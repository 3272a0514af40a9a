import CanopyCrawl
import CanopyHTML
import CanopyKit
import CanopyRules
import CanopyTestSupport
import Foundation
import Testing

/// Hostile servers and pages: for each fault the crawl finishes, the faulty page is recorded with a
/// clear error (or audited, when the fault is only odd markup), and the page next to it is intact.
@Suite("Crawl under faults")
struct FaultInjectionTests {
    /// Crawls a home page linking to `/fault` (answered by `fault`) and to a healthy `/fine`.
    static func crawlWithFault(
        _ fault: TestHTTPResponse, rules: [String]? = nil, configure: (inout CrawlPlan) -> Void = { _ in }
    ) throws -> (fault: CrawledPage?, fine: CrawledPage?, seconds: Double) {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/": return sitePage("Home", links: ["/fault", "/fine"])
            case "/fine": return sitePage("Fine", extra: "<img src=x.png>")
            case "/fault": return fault
            default:
                // Endless redirect chains: /fault/N → /fault/N+1 → …
                if request.path.hasPrefix("/fault/"), let number = Int(request.path.dropFirst(7)) {
                    return .redirect(to: "/fault/\(number + 1)")
                }
                return .notFound
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let (_, sink) = try crawl(server) { plan in
            plan.honoursRobots = false
            plan.sitemaps = .none
            plan.timeout = 1
            plan.maxBytesPerPage = 2_000_000
            if let rules { plan.auditor = Auditor(rules: rules.compactMap(RuleCatalog.rule(withID:))) }
            configure(&plan)
        }
        let (seconds, attoseconds) = (clock.now - start).components
        let fine = sink.byPath["/fine"]
        #expect(fine?.audited == true, "the healthy page next to the fault is audited")
        #expect(fine?.record.findings.contains { $0.ruleID == "image-alt" } ?? (rules != nil), "and its findings are intact")
        return (sink.byPath["/fault"], fine, Double(seconds) + Double(attoseconds) / 1e18)
    }

    @Test("a server that stalls before the headers times out")
    func stallBeforeHeaders() throws {
        let result = try Self.crawlWithFault(sitePage("Late").delayed(by: .seconds(20)))
        #expect(result.fault?.error?.contains("timed out") == true)
        #expect(result.seconds < 10)
    }

    @Test("a server that stalls in the middle of the body times out")
    func stallMidBody() throws {
        let result = try Self.crawlWithFault(sitePage("Half").dripped(pieces: 2, interval: .seconds(20)))
        #expect(result.fault?.error?.contains("timed out") == true)
        #expect(result.seconds < 10)
    }

    @Test("a slow drip within the timeout is still audited")
    func slowDrip() throws {
        let result = try Self.crawlWithFault(sitePage("Drip").dripped(pieces: 5, interval: .milliseconds(40)))
        #expect(result.fault?.audited == true)
    }

    @Test("a reset connection is an error naming the transfer failure")
    func connectionReset() throws {
        let result = try Self.crawlWithFault(.reset)
        let error = try #require(result.fault?.error)
        #expect(error.contains("transfer failed") || error.contains("could not connect"))
    }

    @Test("a body shorter than its Content-Length is an error")
    func truncatedBody() throws {
        let result = try Self.crawlWithFault(.raw("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<p>short"))
        #expect(result.fault?.error?.contains("transfer failed") == true)
        #expect(result.fault?.audited == false)
    }

    @Test("a reply that is not HTTP is an error")
    func malformedHTTP() throws {
        let result = try Self.crawlWithFault(.raw("SMTP ready\r\n\r\nhello"))
        #expect(result.fault?.error != nil)
        #expect(result.fault?.audited == false)
    }

    @Test("an endless redirect chain stops at the redirect limit")
    func endlessRedirects() throws {
        let result = try Self.crawlWithFault(.redirect(to: "/fault/1")) { $0.maxRedirects = 10 }
        #expect(result.fault?.error == "more than 10 redirects")
        #expect(result.fault?.redirects.count == 11)
    }

    @Test("a gigabyte body is refused from its Content-Length, or cut off at the cap without one",
          arguments: [true, false])
    func gigabyteBody(announced: Bool) throws {
        let result = try Self.crawlWithFault(.streamed(bytes: 1 << 30, announcesLength: announced))
        #expect(result.fault?.error?.contains("larger than the limit of 2000000 bytes") == true)
        #expect(result.seconds < 10)
    }

    @Test("HTML labelled text/plain is not audited; binary labelled text/html is parsed without harm")
    func wrongContentTypes() throws {
        let plain = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/plain")], body: Array("<html><title>x</title>".utf8)))
        #expect(plain.fault?.skippedReason?.contains("not HTML") == true)
        var noise = [UInt8](repeating: 0, count: 100_000)
        var state: UInt32 = 12345
        for index in noise.indices {
            state = state &* 1_103_515_245 &+ 12345
            noise[index] = UInt8(truncatingIfNeeded: state >> 16)
        }
        let binary = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html")], body: noise))
        #expect(binary.fault?.audited == true)
    }

    @Test("invalid and mixed encodings are decoded with replacement characters and audited")
    func invalidEncodings() throws {
        let bytes: [UInt8] = Array("<!doctype html><html lang=en><title>Bad ".utf8) + [0xC3, 0x28, 0xE9, 0xFF, 0xFE, 0x00]
            + Array(" bytes</title><body><main><h1>é</h1>".utf8) + [0x80, 0x81] + Array("</main>".utf8)
        let result = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: bytes))
        #expect(result.fault?.audited == true)
        #expect(result.fault?.record.title?.contains("\u{FFFD}") == true)
    }

    @Test("100,000 levels of nesting are audited without exhausting the stack")
    func deepNesting() throws {
        let html = "<!doctype html><html lang=en><title>Deep</title><body>" + String(repeating: "<div>", count: 100_000) + "<img src=deep.png>"
        let result = try Self.crawlWithFault(.html(html))
        #expect(result.fault?.audited == true)
    }

    @Test("a 1 MB attribute value is audited and the snippet stays short")
    func hugeAttribute() throws {
        let html = "<!doctype html><html lang=en><title>Huge</title><body><main><img src=\"" + String(repeating: "a", count: 1_000_000) + "\"></main>"
        let result = try Self.crawlWithFault(.html(html))
        let finding = try #require(result.fault?.record.findings.first { $0.ruleID == "image-alt" })
        #expect(finding.snippet.count <= 300)
    }

    @Test("a page with a million elements is audited")
    func millionElements() throws {
        let html = "<!doctype html><html lang=en><title>Many</title><body><main>" + String(repeating: "<i>x</i>", count: 1_000_000) + "</main>"
        let result = try Self.crawlWithFault(.html(html), rules: ["image-alt", "list", "document-title"]) { $0.maxBytesPerPage = 20_000_000; $0.timeout = 20 }
        #expect(result.fault?.audited == true)
    }

    @Test("pathological selectors in a configuration are refused or handled quickly, never a crash",
          arguments: [
              String(repeating: ":not(", count: 5_000) + "a" + String(repeating: ")", count: 5_000),
              String(repeating: "div ", count: 20_000),
              "a:nth-child(99999999999999999999n+1)",
              "[" + String(repeating: "x", count: 100_000) + "]",
              String(repeating: ":is(", count: 300) + "p" + String(repeating: ")", count: 300) + " " + String(repeating: "* ", count: 200),
          ])
    func pathologicalSelectors(selector: String) throws {
        let yaml = "start: http://127.0.0.1:9/\nexclude:\n  - '\(selector)'\n"
        let clock = ContinuousClock()
        let start = clock.now
        do throws(ConfigurationError) {
            let configuration = try CrawlConfiguration(yaml: yaml, file: "canopy.yml", baseDirectory: nil, environment: [:])
            // Accepted: matching it against a page must stay cheap too.
            let plan = try CrawlPlan(configuration: configuration)
            let page = HTMLParser().parse(html: "<!doctype html><html lang=en><title>t</title><body><main><p><a href=x>x</a></p></main>")
            _ = plan.auditor.audit(page, scope: AuditScope(exclude: plan.exclude))
        } catch {
            #expect(error.description.hasPrefix("canopy.yml:3: exclude[0]:"), "names the file, line and key: \(error.description)")
        }
        #expect(clock.now - start < .seconds(10))
    }
}
