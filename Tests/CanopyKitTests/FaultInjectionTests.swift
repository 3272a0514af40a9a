import CanopyDiagnostics
import CanopyCrawl
import CanopyHTML
import CanopyHistory
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
    ) throws -> (fault: AuditedPage?, fine: AuditedPage?, seconds: Double) {
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
        let audit = AuditPlan(rules: rules.map { $0.compactMap(RuleCatalog.rule(withID:)) } ?? RuleCatalog.defaultRules)
        let (_, sink) = try crawl(server, audit: audit) { plan in
            plan.honoursRobots = false
            plan.sitemaps = .none
            plan.timeout = 1
            plan.maxBytesPerPage = 2_000_000
            configure(&plan)
        }
        let (seconds, attoseconds) = (clock.now - start).components
        let fine = sink.byPath["/fine"]
        #expect(fine?.processed == true, "the healthy page next to the fault is audited")
        #expect(fine?.result?.findings.contains { $0.ruleID == "image-alt" } ?? (rules != nil), "and its findings are intact")
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
        #expect(result.fault?.processed == true)
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
        #expect(result.fault?.processed == false)
    }

    @Test("a reply that is not HTTP, or not valid HTTP, is an error that says so",
          arguments: [
              "SMTP ready\r\n\r\nhello",
              "HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\nhello",
              "HTTP/1.1 2000 Odd\r\nContent-Type: text/html\r\n\r\n<p>hello",
              "HTTP/9.9 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hello",
              "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
          ])
    func malformedHTTP(reply: String) throws {
        let result = try Self.crawlWithFault(.raw(reply))
        let error = try #require(result.fault?.error)
        #expect(error.contains("not HTTP") || error.contains("not valid HTTP"), "\(error)")
        #expect(error.contains("/fault"), "names the URL: \(error)")
        #expect(result.fault?.processed == false)
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
        #expect(binary.fault?.processed == true)
    }

    @Test("invalid and mixed encodings are decoded with replacement characters and audited")
    func invalidEncodings() throws {
        let bytes: [UInt8] = Array("<!doctype html><html lang=en><title>Bad ".utf8) + [0xC3, 0x28, 0xE9, 0xFF, 0xFE, 0x00]
            + Array(" bytes</title><body><main><h1>é</h1>".utf8) + [0x80, 0x81] + Array("</main>".utf8)
        let result = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: bytes))
        #expect(result.fault?.processed == true)
        #expect(result.fault?.result?.title?.contains("\u{FFFD}") == true)
    }

    @Test("when the HTTP charset and <meta charset> disagree, the HTTP charset wins, as documented (BOM, HTTP, <meta>, then the bytes)")
    func disagreeingCharsets() throws {
        // "Café" in windows-1252 bytes, labelled windows-1252 by HTTP and UTF-8 by the page.
        let latin: [UInt8] = Array("<!doctype html><html lang=en><head><meta charset=\"utf-8\"><title>Caf".utf8) + [0xE9]
            + Array("</title></head><body><main><h1>Men".utf8) + [0xFC] + Array("</h1><img src=x.png></main>".utf8)
        let http1252 = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html; charset=windows-1252")], body: latin))
        #expect(http1252.fault?.processed == true)
        #expect(http1252.fault?.result?.title == "Café")
        #expect(http1252.fault?.result?.findings.contains { $0.ruleID == "image-alt" } == true)

        // The other way round: UTF-8 bytes labelled UTF-8 by HTTP and windows-1252 by the page.
        let utf8 = Array("<!doctype html><html lang=en><head><meta charset=\"windows-1252\"><title>Café</title></head><body><main><h1>Menü</h1></main>".utf8)
        let httpUTF8 = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: utf8))
        #expect(httpUTF8.fault?.result?.title == "Café", "not \"CafÃ©\"")

        // A byte order mark outranks both.
        let bom = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html; charset=windows-1252")], body: [0xEF, 0xBB, 0xBF] + utf8))
        #expect(bom.fault?.result?.title == "Café")

        // With no HTTP charset, the <meta> declaration decides, even over bytes that would be valid UTF-8.
        let meta = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html")], body: utf8))
        #expect(meta.fault?.result?.title == "CafÃ©")
    }

    @Test("a page mixing UTF-8 and windows-1252 bytes: with no label it is windows-1252 throughout; labelled UTF-8, the stray bytes become U+FFFD")
    func mixedUTF8AndWindows1252() throws {
        // "é" once as UTF-8 (C3 A9) and once as windows-1252 (E9), and a windows-1252 curly quote (93).
        let mixed: [UInt8] = Array("<!doctype html><html lang=en><head><title>".utf8) + [0x43, 0x61, 0x66, 0xC3, 0xA9, 0x20, 0x43, 0x61, 0x66, 0xE9, 0x20, 0x93]
            + Array("</title></head><body><main><h1>Mixed</h1><img src=x.png></main>".utf8)
        let unlabelled = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html")], body: mixed))
        #expect(unlabelled.fault?.processed == true)
        // Not valid UTF-8, so the whole page is windows-1252, as a browser decodes it.
        #expect(unlabelled.fault?.result?.title == "CafÃ© Café \u{201C}")
        #expect(unlabelled.fault?.result?.findings.contains { $0.ruleID == "image-alt" } == true)

        let labelled = try Self.crawlWithFault(TestHTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: mixed))
        #expect(labelled.fault?.processed == true)
        #expect(labelled.fault?.result?.title == "Café Caf\u{FFFD} \u{FFFD}")
        #expect(labelled.fault?.result?.findings.contains { $0.ruleID == "image-alt" } == true)
    }

    // libxml2 (2.9) stops building the tree at 256 levels, so what lies deeper, and after, is not
    // audited; lifting the limit (XML_PARSE_HUGE) makes its end-tag handling quadratic in the depth.
    @Test("100,000 levels of nesting are audited without exhausting the stack")
    func deepNesting() throws {
        let result = try Self.crawlWithFault(.html(FaultPages.deepNesting))
        #expect(result.fault?.processed == true)
    }

    @Test("a 1 MB attribute value is audited and the snippet stays short")
    func hugeAttribute() throws {
        let result = try Self.crawlWithFault(.html(FaultPages.hugeAttribute))
        let finding = try #require(result.fault?.result?.findings.first { $0.ruleID == "image-alt" })
        #expect(finding.snippet.count <= 300)
    }

    @Test("a page with a million elements is audited")
    func millionElements() throws {
        // Every default rule: about 10 s to parse and 12 s to audit in a debug build on a busy
        // 2-core machine, 1 s and 0.6 s in release (`canopy-crawl-bench --adversarial`).
        let result = try Self.crawlWithFault(.html(FaultPages.millionElements)) { $0.maxBytesPerPage = 20_000_000; $0.timeout = 20 }
        let page = try #require(result.fault)
        let audit = try #require(page.result)
        #expect(Set(audit.passCounts.keys).isSuperset(of: ["html-has-lang", "document-title", "landmark-one-main"]), "the default rules ran: \(audit.passCounts)")
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
        do throws(Diagnostic) {
            let configuration = try CrawlConfiguration(yaml: yaml, file: "canopy.yml", baseDirectory: nil, environment: [:])
            // Accepted: matching it against a page must stay cheap too.
            let plan = try AuditPlan(configuration: configuration)
            let page = HTMLParser().parse(html: "<!doctype html><html lang=en><title>t</title><body><main><p><a href=x>x</a></p></main>")
            _ = plan.auditor.audit(page, scope: AuditScope(exclude: plan.exclude))
        } catch {
            #expect(error.description.hasPrefix("canopy.yml:3: exclude[0]:"), "names the file, line and key: \(error.description)")
        }
        #expect(clock.now - start < .seconds(10))
    }

    /// The faults that push memory, each with the cap it is crawled under and what becomes of it.
    enum MemoryFault: String, CaseIterable, CustomTestStringConvertible {
        case gigabyteAnnounced, gigabyteUnannounced, millionElements, deepNesting, hugeAttribute

        var testDescription: String { rawValue }

        var response: TestHTTPResponse {
            switch self {
            case .gigabyteAnnounced: .streamed(bytes: 1 << 30, announcesLength: true)
            case .gigabyteUnannounced: .streamed(bytes: 1 << 30, announcesLength: false)
            case .millionElements: .html(FaultPages.millionElements)
            case .deepNesting: .html(FaultPages.deepNesting)
            case .hugeAttribute: .html(FaultPages.hugeAttribute)
            }
        }

        /// `limits.max-bytes`: 2 MB, or just above the page when it is to be audited.
        var maxBytes: Int { self == .millionElements ? 9_000_000 : 2_000_000 }
    }

    /// Memory a crawl of a few healthy pages may take (about 50 MB measured, debug build included).
    static let baseMemory = 100 << 20
    /// Memory a page may take per byte of its HTML, at worst: libxml2's tree costs about 120 bytes a
    /// node and Canopy's flat copy about 60 more, while a node can be 4 bytes of markup (`<i>x</i>`
    /// is two nodes in 8 bytes). Ordinary pages take a few bytes per byte.
    static let worstBytesPerHTMLByte = 50

    @Test("memory-heavy faults: the crawl's peak memory stays within the base plus what max-bytes allows, and the page is recorded as it should be",
          arguments: MemoryFault.allCases)
    func memoryStaysWithinTheCap(fault: MemoryFault) throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/": sitePage("Home", links: ["/fault", "/fine"])
            case "/fine": sitePage("Fine", extra: "<img src=x.png>")
            case "/fault": fault.response
            default: .notFound
            }
        }
        defer { server.stop() }
        let folder = try ReportTestFolder("memory-\(fault.rawValue)")
        let config = folder.file("canopy.yml")
        try """
            start: \(server.url("/"))
            sitemaps: none
            limits:
              max-bytes: \(fault.maxBytes)
              timeout: 60
              retries: 0
            politeness:
              robots: false
            output:
              reports: \(folder.file("Reports"))
              store: \(folder.file("canopy.sqlite"))
            """.write(toFile: config, atomically: true, encoding: .utf8)

        // In a child process of its own: the tests around this one share this process's memory.
        let crawl = try MeasuredProcess.canopy(["crawl", "--config", config, "--quiet"], outputIn: folder.path)

        #expect(crawl.status == 1, "\(crawl.description)")
        let bound = Self.baseMemory + Self.worstBytesPerHTMLByte * fault.maxBytes
        #expect(crawl.peakBytes > 20 << 20, "the peak was measured: \(crawl.peakBytes) bytes")
        #expect(crawl.peakBytes < bound, "peak \(crawl.peakBytes >> 20) MB, bound \(bound >> 20) MB")
        let lines = try String(contentsOfFile: folder.file("Reports/results.jsonl"), encoding: .utf8).split(separator: "\n")
        let records = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["crawl"] as? [String: Any]
        }
        let faulty = try #require(records.first { ($0?["requestedURL"] as? String)?.hasSuffix("/fault") == true } ?? nil)
        let fine = try #require(records.first { ($0?["requestedURL"] as? String)?.hasSuffix("/fine") == true } ?? nil)
        #expect(fine["audited"] as? Bool == true)
        switch fault {
        case .gigabyteAnnounced, .gigabyteUnannounced:
            #expect(faulty["audited"] as? Bool == false)
            #expect(faulty["error"] as? String == "response body is larger than the limit of \(fault.maxBytes) bytes")
        case .millionElements, .deepNesting, .hugeAttribute:
            #expect(faulty["audited"] as? Bool == true, "\(faulty)")
        }
    }
}

/// Adversarial pages, made once.
enum FaultPages {
    static let millionElements = "<!doctype html><html lang=en><title>Many</title><body><main>" + String(repeating: "<i>x</i>", count: 1_000_000) + "</main>"
    static let deepNesting = "<!doctype html><html lang=en><title>Deep</title><body>" + String(repeating: "<div>", count: 100_000) + "<img src=deep.png>"
    static let hugeAttribute = "<!doctype html><html lang=en><title>Huge</title><body><main><img src=\"" + String(repeating: "a", count: 1_000_000) + "\"></main>"
}
