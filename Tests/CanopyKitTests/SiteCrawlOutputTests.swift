import CanopyDiagnostics
import CanopyCrawl
import CanopyKit
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// The JSON objects of a JSON-lines file, one per line.
func jsonLines(_ path: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
    }
}

/// The `crawl.requestedURL` (the run store's key) of each line of a results.jsonl, in file
/// order: of every line, and of the lines of audited pages.
func resultKeys(_ path: String) throws -> (all: [String], audited: [String]) {
    var all: [String] = [], audited: [String] = []
    for line in try jsonLines(path) {
        let crawl = try #require(line["crawl"] as? [String: Any], "a line without its crawl record")
        let url = try #require(crawl["requestedURL"] as? String)
        all.append(url)
        if crawl["audited"] as? Bool == true { audited.append(url) }
    }
    return (all, audited)
}

@Suite("canopy crawl's files: results.jsonl and run-summary.json")
struct SiteCrawlOutputTests {
    /// The shared crawl, with the store left where `canopy crawl` puts it by default (in Reports/).
    func crawl(_ startURL: String, into folder: ReportTestFolder) -> SiteCrawl.Outcome {
        crawlFromRoot(startURL, into: folder) { $0.store = nil }
    }

    @Test("results.jsonl has a line for every URL: axe-shaped for audited pages, with what the fetch did for all")
    func resultsForEveryURL() throws {
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/gallery", "/missing", "/old", "/doc.pdf"]),
            "/gallery": .html(#"<!doctype html><html lang=en><head><title>Gallery</title><link rel="canonical" href="/pictures"></head><body><main><h1>Gallery</h1><img src="/a.png"></main></body></html>"#),
            "/missing": .notFound,
            "/old": .redirect(to: "/new", status: 301),
            "/new": sitePage("New"),
            "/doc.pdf": TestHTTPResponse(headers: [("Content-Type", "application/pdf")], body: Array("%PDF-1.4".utf8)),
        ])
        let folder = try ReportTestFolder("crawl-output")

        let outcome = crawl(server.url("/"), into: folder)

        #expect(outcome.exitStatus == .violationsFound || outcome.exitStatus == .passed, "\(outcome.messages)")
        let lines = try jsonLines(folder.file("Reports/results.jsonl"))
        // Keyed by the URL as planned: an audited page's axe `url` is where its redirects ended.
        let byURL = Dictionary(uniqueKeysWithValues: lines.map { (($0["crawl"] as! [String: Any])["requestedURL"] as! String, $0) })
        #expect(Set(byURL.keys) == Set(["/", "/gallery", "/missing", "/old", "/doc.pdf"].map(server.url)))

        // Audited pages: axe-core's result shape, plus the crawl's record of the fetch.
        for path in ["/", "/gallery", "/old"] {
            let line = try #require(byURL[server.url(path)])
            for key in ["violations", "incomplete", "passes", "inapplicable"] { #expect(line[key] is [Any], "\(path) \(key)") }
            #expect((line["testEngine"] as? [String: Any])?["name"] as? String == "canopy")
            let crawl = try #require(line["crawl"] as? [String: Any])
            #expect(crawl["audited"] as? Bool == true)
            #expect(crawl["status"] as? Int == 200)
            #expect((crawl["contentType"] as? String)?.hasPrefix("text/html") == true)
            #expect((crawl["bytes"] as? Int ?? 0) > 0)
            #expect(crawl["fetchMilliseconds"] is Double || crawl["fetchMilliseconds"] is Int)
            #expect(crawl["auditMilliseconds"] is Double || crawl["auditMilliseconds"] is Int)
            #expect(crawl["error"] is NSNull)
        }
        let gallery = try #require(byURL[server.url("/gallery")]?["violations"] as? [[String: Any]])
        #expect(gallery.contains { $0["id"] as? String == "image-alt" })
        #expect((byURL[server.url("/gallery")]?["crawl"] as? [String: Any])?["canonical"] as? String == server.url("/pictures"))
        #expect((byURL[server.url("/")]?["crawl"] as? [String: Any])?["canonical"] is NSNull)
        #expect(byURL[server.url("/old")]?["url"] as? String == server.url("/new"))
        let old = try #require(byURL[server.url("/old")]?["crawl"] as? [String: Any])
        #expect(old["finalURL"] as? String == server.url("/new"))
        let hops = try #require(old["redirects"] as? [[String: Any]])
        #expect(hops.count == 1)
        #expect(hops.first?["from"] as? String == server.url("/old"))
        #expect(hops.first?["status"] as? Int == 301)
        #expect(hops.first?["to"] as? String == server.url("/new"))

        // Pages that were not audited have their record too, and no axe groups that would claim a clean page.
        let missing = try #require(byURL[server.url("/missing")])
        #expect(missing["violations"] == nil)
        let missingCrawl = try #require(missing["crawl"] as? [String: Any])
        #expect(missingCrawl["audited"] as? Bool == false)
        #expect(missingCrawl["status"] as? Int == 404)
        #expect(missingCrawl["error"] as? String == "HTTP 404")
        #expect(missingCrawl["finalURL"] as? String == server.url("/missing"))
        let pdf = try #require(byURL[server.url("/doc.pdf")]?["crawl"] as? [String: Any])
        #expect(pdf["contentType"] as? String == "application/pdf")
        #expect(pdf["bytes"] as? Int == 8)
        #expect((pdf["skipped"] as? String)?.hasPrefix("not HTML") == true)

        // The store has the same URLs, and run-summary.json the same counts.
        let store = try RunStore(path: folder.file("Reports/canopy.sqlite"), readOnly: true)
        let run = try #require(outcome.run)
        #expect(Set(try store.pages(run: run).map(\.url)) == Set(byURL.keys))
        let summaryFile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/run-summary.json")))) as? [String: Any])
        #expect(summaryFile["run"] as? Int == Int(run.rawValue))
        let summary = try #require(summaryFile["summary"] as? [String: Any])
        #expect(summary["pagesAudited"] as? Int == 3)
        #expect(summary["pagesWithErrorStatus"] as? Int == 1)
        #expect(summary["pagesNotHTML"] as? Int == 1)
        #expect(summary["startUnreachable"] as? Bool == false)
        #expect((summary["violations"] as? Int ?? 0) >= 1)
        #expect(summary["startURLs"] as? [String] == [server.url("/")])
    }

    @Test("a crawl exits 0 when every audited page passes and 1 when violations were found (and recorded)")
    func exitStatusSaysWhetherViolationsWereFound() throws {
        let clean = try TestHTTPServer.routes([
            "/": .html("<!doctype html><html lang=en><head><title>Home</title></head><body><main><h1>Home</h1><p>Welcome.</p></main></body></html>")
        ])
        defer { clean.stop() }
        #expect(crawl(clean.url("/"), into: try ReportTestFolder("crawl-exit-clean")).exitStatus == .passed)
        let failing = try TestHTTPServer.routes([
            "/": .html("<!doctype html><html lang=en><head><title>Home</title></head><body><main><h1>Home</h1><img src=a.png></main></body></html>")
        ])
        defer { failing.stop() }
        let outcome = crawl(failing.url("/"), into: try ReportTestFolder("crawl-exit-failing"))
        #expect(outcome.exitStatus == .violationsFound)
        #expect(outcome.summary?.violations == 1)
    }

    @Test("an unreachable start URL fails the run with exit status 3, and results.jsonl says why, as the message promises")
    func unreachableStart() throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let folder = try ReportTestFolder("crawl-unreachable")
        let start = "http://127.0.0.1:\(port)/"

        let outcome = crawl(start, into: folder)

        #expect(outcome.exitStatus == .couldNotAudit)
        #expect(outcome.messages.contains { $0.problem?.kind == .pageNotAudited && $0.description.contains("start URL did not answer") && $0.description.contains("results.jsonl") })
        let lines = try jsonLines(folder.file("Reports/results.jsonl"))
        #expect(lines.count == 1)
        #expect(lines.first?["url"] as? String == start)
        let crawl = try #require(lines.first?["crawl"] as? [String: Any])
        #expect(crawl["requestedURL"] as? String == start)
        #expect((crawl["error"] as? String)?.contains("could not connect") == true)
        #expect(crawl["status"] is NSNull)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/run-summary.json")))) as? [String: Any])
        #expect((summary["summary"] as? [String: Any])?["startUnreachable"] as? Bool == true)
    }
}
