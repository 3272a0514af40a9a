import CanopyHistory
import CanopyCrawl
import CanopyHTML
@testable import CanopyKit
import CanopyReports
import CanopyRules
import Foundation
import Testing

@Suite("The crawl's per-page result line")
struct CrawlResultLineTests {
    @Test("is what AxeJSONReport encodes for the page (passing rules without nodes), whatever the impact overrides")
    func crawlLineEqualsTheEncoder() throws {
        let html = """
            <!doctype html><html><head><title>Shop</title></head><body>
            <header><a href="/"><img src="logo.png"></a></header>
            <main><h1>Shoes</h1><h3>Skipped a level</h3><img src="a.png" alt="">
            <label>Size <input id="size"></label><input type="text" id="bare">
            <div role="button" tabindex="0"></div><p>Quote " and back\\slash</p></main>
            </body></html>
            """
        let document = HTMLParser().parse(html: html, url: "https://shop.example/shoes")
        // The default rules, with an impact override that must reach both the entry and its nodes.
        let overridden = "- id: image-alt\n    impact: minor\n" + RuleSet.standard().rules.map(\.metadata.id).filter { $0 != "image-alt" }.map { "  - \($0)\n" }.joined()
        let rules = try RuleSet(yaml: "name: test\nrules:\n  " + overridden, file: "test.yml").rules
        let plan = CrawlPlan(startURLs: [try URLNormalizer().normalize("https://shop.example/")])
        let audit = AuditPlan(rules: rules)
        let page = PageAuditor(crawl: plan, audit: audit).process(document, url: "https://shop.example/shoes")
        let line = String(decoding: page.result.axeJSONLine, as: UTF8.self)

        let result = audit.auditor.audit(document)
        let encoded = try AxeJSONReport(result: result, url: "https://shop.example/shoes", resultTypes: [.violations, .incomplete], otherGroupsNodeLimit: 0).jsonLine()
        // The two audits ran at different instants: everything but the timestamp must be equal.
        func withoutTimestamp(_ data: Data) throws -> NSDictionary {
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return object.filter { $0.key != "timestamp" } as NSDictionary
        }
        #expect(try withoutTimestamp(Data(line.utf8)) == (try withoutTimestamp(encoded)))
        #expect(line.contains(#""id":"image-alt""#) && line.contains(#""impact":"minor""#))
        #expect(!result.violations.isEmpty && !result.passes.isEmpty && !result.inapplicable.isEmpty)
    }

    @Test("the crawl record of a line is valid JSON with every key, escaped, null where unknown")
    func crawlRecord() throws {
        let tricky = "quote \" back\\slash \u{1} tab\t cr\r\nlf / é 😀"
        var page = AuditedPage(url: "https://shop.example/a?q=\"x\"", depth: 2, attempts: 3)
        page.statusCode = 200
        page.fetchMilliseconds = 12.5
        page.redirects = [Redirect(from: "https://shop.example/a?q=\"x\"", status: 301, to: "https://shop.example/b")]
        page.skip = .notHTML(contentType: tricky)
        let line = CrawlResultLine.line(for: page)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(object["url"] as? String == page.url)
        let crawl = try #require(object["crawl"] as? [String: Any])
        #expect(Set(crawl.keys) == [
            "attempts", "auditMilliseconds", "audited", "bytes", "canonical", "contentType", "depth", "error", "fetchMilliseconds",
            "finalURL", "framesAudited", "framesSkipped", "notAudited", "redirects", "requestedURL", "skipped", "status", "title",
            "unchanged", "unchangedSince",
        ])
        #expect(crawl["title"] is NSNull)
        #expect(crawl["skipped"] as? String == "not HTML (" + tricky + ")")
        #expect(crawl["attempts"] as? Int == 3 && crawl["depth"] as? Int == 2 && crawl["status"] as? Int == 200)
        #expect(crawl["fetchMilliseconds"] as? Double == 12.5)
        #expect(crawl["audited"] as? Bool == false)
        #expect(crawl["error"] is NSNull && crawl["bytes"] is NSNull && crawl["canonical"] is NSNull)
        let hops = try #require(crawl["redirects"] as? [[String: Any]])
        #expect(hops.count == 1 && hops[0]["status"] as? Int == 301 && hops[0]["to"] as? String == "https://shop.example/b")

        // An audited page's line is its axe object with the record added as one more member.
        page.skip = nil
        page.result = PageAudit(title: tricky, axeJSONLine: Array(#"{"url":"https://shop.example/b","violations":[]}"#.utf8))
        let audited = try #require(try JSONSerialization.jsonObject(with: Data(CrawlResultLine.line(for: page))) as? [String: Any])
        #expect(audited["url"] as? String == "https://shop.example/b")
        let auditedCrawl = try #require(audited["crawl"] as? [String: Any])
        #expect(auditedCrawl["requestedURL"] as? String == page.url)
        #expect(auditedCrawl["title"] as? String == tricky && auditedCrawl["audited"] as? Bool == true)
    }

    @Test("timestamps are written as ISO8601DateFormatter writes them, in UTC with milliseconds")
    func timestamps() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for interval in [0, 1_700_000_000, 1_700_000_000.5, 1_700_000_000.123, 1_704_441_600.999, 1_704_441_600.9996, 951_782_400.25, 1_700_000_000.0004] as [Double] {
            let date = Date(timeIntervalSince1970: interval)
            #expect(AxeTimestamp.string(date) == formatter.string(from: date), "\(interval)")
        }
    }

    @Test("a line written in pieces is the line and a line feed, for audited and other pages")
    func writtenInPieces() throws {
        let html = "<!doctype html><html lang=en><title>t</title><body><main><img src=a.png><img src=b.png><p>text</p></main></body></html>"
        let plan = CrawlPlan(startURLs: [try URLNormalizer().normalize("https://shop.example/")])
        let processed = PageAuditor(crawl: plan, audit: AuditPlan(rules: RuleSet.standard().rules))
            .process(HTMLParser().parse(html: html, url: "https://shop.example/p"), url: "https://shop.example/p")
        var audited = AuditedPage(url: "https://shop.example/p", depth: 1, attempts: 1)
        audited.statusCode = 200
        audited.result = processed.result
        var notHTML = AuditedPage(url: "https://shop.example/file.pdf", depth: 1, attempts: 1)
        notHTML.skip = .notHTML(contentType: "application/pdf")
        for page in [audited, notHTML] {
            var written: [UInt8] = []
            CrawlResultLine.write(page) { written.append(contentsOf: $0) }
            #expect(written == CrawlResultLine.line(for: page) + [0x0A])
            // One line: a single line feed, at the end, after one JSON object with its crawl record.
            #expect(written.firstIndex(of: 0x0A) == written.count - 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(written.dropLast())) as? [String: Any])
            #expect((object["crawl"] as? [String: Any])?["requestedURL"] as? String == page.url)
        }
        // The audited page's line is its axe object with the crawl record put in.
        var written: [UInt8] = []
        CrawlResultLine.write(audited) { written.append(contentsOf: $0) }
        #expect(written.starts(with: processed.result.axeJSONLine.dropLast()))
        #expect(!processed.result.axeJSONLine.isEmpty)
    }

    @Test("a full disk stops the lines, not the crawl: the first error is kept and the pages after it are counted",
          .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full"), "needs Linux's /dev/full"))
    func aFullDiskIsAnErrorNotACrash() throws {
        // /dev/full refuses every write with ENOSPC, as a full disk does.
        let handle = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let sink = JSONLinesSink(path: "/dev/full", appendingTo: handle)
        for number in 1...3 { sink.record(AuditedPage(url: "https://shop.example/\(number)", depth: 0, attempts: 1)) }
        let error = try #require(sink.writeError as? CocoaError)
        #expect((error.underlying as? POSIXError)?.code == .ENOSPC || error.code == .fileWriteOutOfSpace)
        #expect(sink.linesNotWritten == 3)
    }
}
