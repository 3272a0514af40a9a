import CanopyCrawl
import CanopyHistory
import CanopyKit
import CanopyRules
import CanopyTestSupport
import Foundation
import Testing

/// Keeps every page a crawl hands over, for assertions.
final class CollectingSink: CrawlSink, @unchecked Sendable {
    typealias Result = PageAudit
    private let pages = LockedState<[AuditedPage]>([])

    func record(_ page: AuditedPage) { pages.withLock { $0.append(page) } }

    var all: [AuditedPage] { pages.withLock { $0 } }
    var byPath: [String: AuditedPage] {
        Dictionary(all.map { (URLComponents(string: $0.url)!.path, $0) }, uniquingKeysWith: { first, _ in first })
    }
    var auditedPaths: Set<String> { Set(all.filter(\.processed).map { URLComponents(string: $0.url)!.path }) }
}

/// A page with links, a title and a language, and one known violation (an image without alt).
func sitePage(_ title: String, links: [String] = [], extra: String = "") -> TestHTTPResponse {
    let anchors = links.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: "\n")
    return .html("<!doctype html><html lang=en><head><title>\(title)</title></head><body><main><h1>\(title)</h1>\(anchors)\(extra)</main></body></html>")
}

func crawl(
    _ server: TestHTTPServer, start: String = "/", audit: AuditPlan = AuditPlan(rules: RuleCatalog.defaultRules),
    configure: (inout CrawlPlan) -> Void = { _ in }
) throws -> (CrawlSummary, CollectingSink) {
    var plan = CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url(start))])
    plan.fetchPolicy = FetchPolicy(maxInFlight: 8, maxPerHost: 4, retries: 1, backoff: 0.01)
    plan.timeout = 5
    plan.workerThreads = 2
    configure(&plan)
    let sink = CollectingSink()
    let summary = try PageAuditor.crawler(crawl: plan, audit: audit, sink: sink).run()
    return (summary, sink)
}

@Suite("SiteCrawler: a whole site over a real HTTP server")
struct SiteCrawlerTests {
    @Test("follows links breadth-first up to the depth limit and audits each page once")
    func linksAndDepth() throws {
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/a", "/b", "/a#top", "./a"]),
            "/a": sitePage("A", links: ["/a/deeper", "/"]),
            "/b": sitePage("B", links: ["/b/deeper"]),
            "/a/deeper": sitePage("Deeper", links: ["/a/deepest"]),
            "/b/deeper": sitePage("Deeper B"),
            "/a/deepest": sitePage("Deepest"),
        ])

        let (summary, sink) = try crawl(server) { $0.maxDepth = 2; $0.honoursRobots = false; $0.sitemaps = .none }

        #expect(sink.auditedPaths == ["/", "/a", "/b", "/a/deeper", "/b/deeper"])
        #expect(summary.pagesAudited == 5)
        #expect(sink.byPath["/a/deeper"]?.depth == 2)
        // "/a", "/a#top" and "./a" are one page.
        #expect(server.requests.filter { $0.path == "/a" }.count == 1)
    }

    @Test("keeps to the start origin and honours exclude patterns, counting skips by reason")
    func scope() throws {
        let other = try TestHTTPServer.routes(["/": sitePage("Elsewhere")])
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/shop/1", "/admin/panel", other.url("/")]),
            "/shop/1": sitePage("Shop"),
            "/admin/panel": sitePage("Admin"),
        ])

        let (summary, sink) = try crawl(server) {
            $0.honoursRobots = false
            $0.sitemaps = .none
            $0.scope = CrawlScope(startURLs: $0.startURLs, exclude: [URLPattern(pathPrefix: "/admin/")])
        }

        #expect(sink.auditedPaths == ["/", "/shop/1"])
        #expect(other.requests.isEmpty)
        #expect(summary.skippedByScope["off-origin"] == 1)
        #expect(summary.skippedByScope["excluded-by-pattern"] == 1)
    }

    @Test("honours robots.txt disallow/allow for Canopy and its Crawl-delay")
    func robots() throws {
        let server = try TestHTTPServer.routes([
            "/robots.txt": .text("User-agent: *\nDisallow: /\n\nUser-agent: Canopy\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 0.2\n"),
            "/": sitePage("Home", links: ["/private/secret", "/private/open", "/public"]),
            "/private/secret": sitePage("Secret"),
            "/private/open": sitePage("Open"),
            "/public": sitePage("Public"),
        ])

        let (summary, sink) = try crawl(server) { $0.sitemaps = .none }

        #expect(sink.auditedPaths == ["/", "/private/open", "/public"])
        #expect(summary.skippedByRobots == 1)
        #expect(!server.requests.contains { $0.path == "/private/secret" })
        let pageArrivals = server.requests.filter { $0.path != "/robots.txt" }.map(\.receivedAt).sorted()
        for (earlier, later) in zip(pageArrivals, pageArrivals.dropFirst()) {
            #expect(later.timeIntervalSince(earlier) >= 0.18, "Crawl-delay spaces the requests")
        }
    }

    @Test("reads robots.txt Sitemap lines, sitemap indexes and gzip sitemaps")
    func sitemaps() throws {
        let server = try TestHTTPServer { request in
            let base = "http://127.0.0.1:\(request.headers.first { $0.name.lowercased() == "host" }!.value.split(separator: ":").last!)"
            switch request.path {
            case "/robots.txt": return .text("User-agent: *\nAllow: /\nSitemap: \(base)/sitemap-index.xml\n")
            case "/sitemap-index.xml":
                return .raw("HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nConnection: close\r\n\r\n<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap><loc>\(base)/plain.xml</loc></sitemap><sitemap><loc>\(base)/packed.xml.gz</loc></sitemap></sitemapindex>")
            case "/plain.xml":
                return TestHTTPResponse(headers: [("Content-Type", "application/xml")], body: Array("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>\(base)/orphan-1</loc></url></urlset>".utf8))
            case "/packed.xml.gz":
                let xml = "<urlset><url><loc>\(base)/orphan-2</loc></url><url><loc>\(base)/orphan-3</loc></url></urlset>"
                return TestHTTPResponse(headers: [("Content-Type", "application/gzip")], body: GzipStoredEncoder.encode(Array(xml.utf8)))
            case "/": return sitePage("Home")
            case "/orphan-1", "/orphan-2", "/orphan-3": return sitePage("Orphan")
            default: return .notFound
            }
        }

        let (summary, sink) = try crawl(server)

        #expect(sink.auditedPaths == ["/", "/orphan-1", "/orphan-2", "/orphan-3"])
        #expect(summary.sitemapsRead == 3)
        #expect(summary.urlsFromSitemaps == 3)
    }

    @Test("follows redirect chains hop by hop and records them; loops, duplicates, off-scope and non-http targets end with a reason")
    func redirects() throws {
        let other = try TestHTTPServer.routes(["/": sitePage("Elsewhere")])
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/old", "/loop-a", "/away", "/evil", "/home-again"]),
            "/old": .redirect(to: "/older", status: 301),
            "/older": .redirect(to: "/new", status: 302),
            "/new": sitePage("New"),
            "/loop-a": .redirect(to: "/loop-b"),
            "/loop-b": .redirect(to: "/loop-a"),
            "/away": .redirect(to: other.url("/")),
            "/evil": .redirect(to: "file:///etc/passwd"),
            "/home-again": .redirect(to: "/", status: 301),
        ])

        let (summary, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none }

        let old = try #require(sink.byPath["/old"])
        #expect(old.processed)
        #expect(old.redirects.map(\.status) == [301, 302])
        #expect(old.finalURL == server.url("/new"))
        // A loop reaches no page: an error, not a duplicate of a page that was never audited.
        let loop = try #require(sink.byPath["/loop-a"])
        #expect(!loop.processed)
        #expect(loop.error == "redirect loop: \(server.url("/loop-a")) → \(server.url("/loop-b")) → \(server.url("/loop-a"))")
        #expect(loop.skippedReason == nil)
        #expect(sink.byPath["/home-again"]?.skippedReason == "redirects to \(server.url("/")), crawled under that URL")
        #expect(summary.duplicatesByRedirect == 1, "only /home-again leads to a page audited under another URL")
        #expect(sink.byPath["/away"]?.skippedReason?.contains("out of scope") == true)
        #expect(other.requests.isEmpty)
        #expect(sink.byPath["/evil"]?.error?.contains("refused") == true)
        #expect(sink.all.count == 6, "home, /old (→ /new), the loop, /away, /evil and /home-again: one record each")
    }

    @Test("a start URL redirecting to its own host on another scheme or port brings that origin into scope; other redirects do not")
    func startURLRedirect() throws {
        // Another port of the same host stands in for http → https, which the test server cannot speak.
        let site = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/a", "/elsewhere"]),
            "/a": sitePage("A"),
            "/elsewhere": .redirect(to: "http://127.0.0.2:9/"),
        ])
        let entry = try TestHTTPServer.routes([
            "/": .redirect(to: site.url("/"), status: 301),
            "/moved": .redirect(to: "http://127.0.0.2:9/", status: 301),
        ])

        let (summary, sink) = try crawl(entry) { $0.honoursRobots = false; $0.sitemaps = .none }
        #expect(summary.pagesAudited == 2, "home and /a, on the origin the start URL moved to")
        let start = try #require(sink.all.first { $0.url == entry.url("/") })
        #expect(start.processed && start.finalURL == site.url("/"))
        #expect(sink.byPath["/a"]?.processed == true)
        #expect(sink.byPath["/elsewhere"]?.skippedReason?.contains("out of scope") == true, "only a start URL's redirect widens the scope")

        // A start URL that redirects to another host (a login service, say) is not followed there.
        let (moved, movedSink) = try crawl(entry, start: "/moved") { $0.honoursRobots = false; $0.sitemaps = .none }
        #expect(moved.pagesAudited == 0)
        #expect(movedSink.all.first?.skippedReason == "redirected out of scope (off-origin) to http://127.0.0.2:9/")
    }

    @Test("follows robots.txt redirects, also to another host, and applies the file they reach to the first origin")
    func robotsRedirects() throws {
        let elsewhere = try TestHTTPServer.routes(["/robots.txt": .text("User-agent: *\nDisallow: /private\n")])
        let server = try TestHTTPServer.routes([
            // The usual shapes: a trailing-slash redirect, then a move to another host (http → https in real life).
            "/robots.txt": .redirect(to: "/robots.txt/", status: 301),
            "/robots.txt/": .redirect(to: elsewhere.url("/robots.txt"), status: 302),
            "/": sitePage("Home", links: ["/private/page", "/public"]),
            "/private/page": sitePage("Private"),
            "/public": sitePage("Public"),
        ])

        let (summary, sink) = try crawl(server) { $0.sitemaps = .none }

        #expect(sink.auditedPaths == ["/", "/public"])
        #expect(summary.skippedByRobots == 1)
        #expect(!server.requests.contains { $0.path == "/private/page" })
        #expect(elsewhere.requests.map(\.path) == ["/robots.txt"])
    }

    @Test("after five robots.txt redirects the file is taken as unavailable, which allows everything (RFC 9309 §2.3.1.2)")
    func robotsRedirectLimit() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/robots.txt": return .redirect(to: "/robots-1.txt")
            case let path where path.hasPrefix("/robots-"):
                let number = Int(path.dropFirst("/robots-".count).prefix { $0.isNumber }) ?? 0
                return .redirect(to: "/robots-\(number + 1).txt")
            case "/": return sitePage("Home", links: ["/private"])
            case "/private": return sitePage("Private")
            default: return .notFound
            }
        }

        let (_, sink) = try crawl(server) { $0.sitemaps = .none }

        #expect(server.requests.filter { $0.path.hasPrefix("/robots") }.map(\.path) == ["/robots.txt"] + (1...5).map { "/robots-\($0).txt" })
        #expect(sink.auditedPaths == ["/", "/private"])
    }

    @Test("follows sitemap redirects hop by hop: http(s) only, credentials only for their host, loops end")
    func sitemapRedirects() throws {
        // The moved sitemap lives on another host and lists a page of the site, whose address
        // is known once the site's server runs.
        let siteBase = LockedState("")
        let mirror = try TestHTTPServer { request in
            guard request.path == "/moved-sitemap.xml" else { return .notFound }
            let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>\(siteBase.withLock { $0 })/orphan</loc></url></urlset>"
            return TestHTTPResponse(headers: [("Content-Type", "application/xml")], body: Array(xml.utf8))
        }
        let server = try TestHTTPServer { request in
            let base = siteBase.withLock { $0 }
            switch request.path {
            case "/robots.txt":
                return .text("User-agent: *\nAllow: /\nSitemap: \(base)/old-sitemap.xml\nSitemap: \(base)/loop-1.xml\nSitemap: \(base)/evil.xml\n")
            case "/old-sitemap.xml": return .redirect(to: "/old-sitemap.xml/", status: 301)
            case "/old-sitemap.xml/": return .redirect(to: mirror.url("/moved-sitemap.xml"), status: 308)
            case "/loop-1.xml": return .redirect(to: "/loop-2.xml")
            case "/loop-2.xml": return .redirect(to: "/loop-1.xml")
            case "/evil.xml": return .redirect(to: "file:///etc/passwd")
            case "/": return sitePage("Home")
            case "/orphan": return sitePage("Orphan")
            default: return .notFound
            }
        }
        siteBase.withLock { $0 = server.baseURL }

        let (summary, sink) = try crawl(server) {
            $0.credentialHeaders = [HTTPHeader(name: "X-Staging-Token", value: "s3cret")]
        }

        #expect(sink.auditedPaths == ["/", "/orphan"])
        #expect(summary.sitemapsRead == 1)
        #expect(mirror.requests.map(\.path) == ["/moved-sitemap.xml"])
        #expect(mirror.requests.allSatisfy { $0.header("X-Staging-Token") == nil }, "credentials stay with their host")
        #expect(server.requests.allSatisfy { $0.header("X-Staging-Token") == "s3cret" })
        #expect(server.requests.filter { $0.path.hasPrefix("/loop-") }.count == 2, "each sitemap of the loop is asked for once")
    }

    @Test("every redirect hop passes robots.txt, fetching a new origin's robots.txt before its first page")
    func redirectHopsHonourRobots() throws {
        let other = try TestHTTPServer.routes([
            "/robots.txt": .text("User-agent: *\nDisallow: /private\n"),
            "/private": sitePage("Other private"),
            "/open": sitePage("Other open"),
        ])
        let server = try TestHTTPServer.routes([
            "/robots.txt": .text("User-agent: *\nDisallow: /secret\n"),
            "/": sitePage("Home", links: ["/sneaky", "/to-other-private", "/to-other-open"]),
            "/sneaky": .redirect(to: "/secret"),
            "/secret": sitePage("Secret"),
            "/to-other-private": .redirect(to: other.url("/private")),
            "/to-other-open": .redirect(to: other.url("/open")),
        ])

        let (summary, sink) = try crawl(server) {
            $0.sitemaps = .none
            $0.scope = CrawlScope(startURLs: $0.startURLs, extraOrigins: [try! Origin(other.baseURL)])
        }

        #expect(!server.requests.contains { $0.path == "/secret" })
        #expect(sink.byPath["/sneaky"]?.skippedReason == "redirects to \(server.url("/secret")), which robots.txt disallows")
        #expect(other.requests.first?.path == "/robots.txt", "the new origin's robots.txt comes first")
        #expect(!other.requests.contains { $0.path == "/private" })
        #expect(sink.byPath["/to-other-private"]?.processed == false)
        #expect(sink.byPath["/to-other-private"]?.skippedReason?.contains("robots.txt disallows") == true)
        let open = try #require(sink.byPath["/to-other-open"])
        #expect(open.processed)
        #expect(open.finalURL == other.url("/open"))
        #expect(summary.skippedByRobots == 2)
    }

    @Test("records 404 and 500, retries 429 and timeouts, and goes on")
    func failures() throws {
        let hits = LockedState(0)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/": return sitePage("Home", links: ["/missing", "/broken", "/busy", "/slow", "/fine"])
            case "/broken": return .text("oops", status: 500)
            case "/busy":
                let count = hits.withLock { $0 += 1; return $0 }
                return count == 1 ? TestHTTPResponse.text("later", status: 429).withHeader("Retry-After", "0") : sitePage("Busy")
            case "/slow": return sitePage("Slow").delayed(by: .seconds(3))
            case "/fine": return sitePage("Fine")
            default: return .notFound
            }
        }

        let (summary, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none; $0.timeout = 0.3 }

        #expect(sink.byPath["/missing"]?.error == "HTTP 404")
        #expect(sink.byPath["/broken"]?.error == "HTTP 500")
        #expect(sink.byPath["/broken"]?.attempts == 2)
        #expect(sink.byPath["/busy"]?.processed == true)
        #expect(sink.byPath["/busy"]?.attempts == 2)
        #expect(sink.byPath["/slow"]?.error?.contains("timed out") == true)
        #expect(sink.byPath["/fine"]?.processed == true)
        #expect(summary.pagesAudited == 3)
        #expect(summary.pagesWithErrorStatus == 2)
        #expect(summary.pagesFailed == 1)
    }

    @Test("a Retry-After longer than the longest wait is not waited for: the page fails with a clear error and the crawl goes on")
    func retryAfterBeyondTheCap() throws {
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/busy", "/closed-until-tomorrow", "/fine"]),
            "/busy": TestHTTPResponse.text("come back in an hour", status: 503).withHeader("Retry-After", "3600"),
            "/closed-until-tomorrow": TestHTTPResponse.text("closed", status: 429)
                .withHeader("Retry-After", HTTPDate.string(from: Date(timeIntervalSinceNow: 86_400))),
            "/fine": sitePage("Fine"),
        ])

        let (summary, sink) = try crawl(server) {
            $0.honoursRobots = false
            $0.sitemaps = .none
            $0.fetchPolicy = FetchPolicy(retries: 3, backoff: 0.01, maxBackoff: 5)
        }

        let busy = try #require(sink.byPath["/busy"])
        #expect(busy.error == "HTTP 503: Retry-After asks for 3600 s, more than the 5 s the crawl waits at most; not retried")
        #expect(busy.attempts == 1)
        #expect(busy.statusCode == 503)
        let closed = try #require(sink.byPath["/closed-until-tomorrow"])
        #expect(closed.error?.hasPrefix("HTTP 429: Retry-After asks for 86") == true)
        #expect(server.requests.filter { $0.path == "/busy" || $0.path == "/closed-until-tomorrow" }.count == 2, "asked once each")
        #expect(sink.byPath["/fine"]?.processed == true)
        #expect(summary.pagesWithErrorStatus == 2)
    }

    @Test("records non-HTML and over-size responses without auditing them; decodes legacy encodings")
    func contentTypesSizesAndEncodings() throws {
        let latin1Title: [UInt8] = Array("<!doctype html><html lang=fr><head><meta charset=windows-1252><title>Caf".utf8) + [0xE9] + Array("</title></head><body><main><h1>x</h1></main></body></html>".utf8)
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/doc.pdf", "/huge", "/cafe", "/untyped"]),
            "/doc.pdf": TestHTTPResponse(headers: [("Content-Type", "application/pdf")], body: Array("%PDF-1.4".utf8)),
            "/huge": .html(String(repeating: "<p>filler</p>", count: 20_000)),
            "/cafe": TestHTTPResponse(headers: [("Content-Type", "text/html")], body: latin1Title),
            "/untyped": TestHTTPResponse(body: Array("<!DOCTYPE html><title>No type</title><p>hi".utf8)),
        ])

        let (summary, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none; $0.maxBytesPerPage = 100_000 }

        #expect(sink.byPath["/doc.pdf"]?.processed == false)
        #expect(sink.byPath["/doc.pdf"]?.skippedReason?.contains("not HTML") == true)
        #expect(sink.byPath["/huge"]?.error?.contains("larger than the limit") == true)
        #expect(sink.byPath["/cafe"]?.result?.title == "Café")
        #expect(sink.byPath["/untyped"]?.processed == true)
        #expect(summary.pagesNotHTML == 1)
    }

    @Test("sends credentials only to their hosts, also across redirects")
    func credentialsStayHome() throws {
        let other = try TestHTTPServer.routes(["/landing": sitePage("Other")])
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/hop"]),
            "/hop": .redirect(to: other.url("/landing")),
        ])

        _ = try crawl(server) {
            $0.honoursRobots = false
            $0.sitemaps = .none
            // Both origins are in scope, but the credentials belong to the first one only.
            $0.scope = CrawlScope(startURLs: $0.startURLs, extraOrigins: [try! Origin(other.baseURL)])
            $0.credentialHeaders = [HTTPHeader(name: "X-Staging-Token", value: "s3cret"), HTTPHeader(name: "Cookie", value: "session=abc")]
            $0.credentialHosts = ["127.0.0.1:\(server.port)"]
        }

        #expect(server.requests.allSatisfy { $0.header("X-Staging-Token") == "s3cret" && $0.header("Cookie") == "session=abc" })
        #expect(other.requests.count == 1)
        #expect(other.requests.allSatisfy { $0.header("X-Staging-Token") == nil && $0.header("Cookie") == nil })
    }

    @Test("an unreachable start URL is reported as such")
    func unreachableStart() throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        var plan = CrawlPlan(startURLs: [try URLNormalizer().normalize("http://127.0.0.1:\(port)/")])
        plan.fetchPolicy = FetchPolicy(retries: 0)
        let sink = CollectingSink()

        let summary = try PageAuditor.crawler(crawl: plan, audit: AuditPlan(rules: RuleCatalog.defaultRules), sink: sink).run()

        #expect(summary.startUnreachable)
        #expect(sink.all.count == 1)
        #expect(sink.all.first?.error?.contains("could not connect") == true)
    }

    @Test("without a Sitemap line in robots.txt, or without robots.txt, /sitemap.xml is read")
    func sitemapFallback() throws {
        func site(robots: String) throws -> TestHTTPServer {
            try TestHTTPServer { request in
                let base = "http://127.0.0.1:\(request.header("Host")!.split(separator: ":").last!)"
                switch request.path {
                case "/robots.txt": return .text(robots)
                case "/sitemap.xml":
                    return TestHTTPResponse(headers: [("Content-Type", "application/xml")], body: Array("<urlset><url><loc>\(base)/orphan</loc></url></urlset>".utf8))
                case "/": return sitePage("Home")
                case "/orphan": return sitePage("Orphan")
                default: return .notFound
                }
            }
        }
        let withRobots = try site(robots: "User-agent: *\nDisallow: /nothing-here\n")
        let (summary, sink) = try crawl(withRobots)
        #expect(sink.auditedPaths == ["/", "/orphan"])
        #expect(summary.sitemapsRead == 1)

        let withoutRobots = try site(robots: "")
        let (_, unrestricted) = try crawl(withoutRobots) { $0.honoursRobots = false }
        #expect(unrestricted.auditedPaths == ["/", "/orphan"])
        #expect(!withoutRobots.requests.contains { $0.path == "/robots.txt" })
    }

    @Test("rel=nofollow and meta robots nofollow are honoured unless the plan follows nofollow", arguments: [false, true])
    func nofollow(followsNofollow: Bool) throws {
        let server = try TestHTTPServer.routes([
            "/": sitePage("Home", links: ["/plain"], extra: #"<a rel="external nofollow" href="/marked">marked</a>"#),
            "/plain": .html(#"<!doctype html><html lang=en><head><title>Plain</title><meta name="robots" content="index, nofollow"></head><body><main><h1>Plain</h1><a href="/behind-meta">x</a></main></body></html>"#),
            "/marked": sitePage("Marked"),
            "/behind-meta": sitePage("Behind meta"),
        ])

        let (_, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none; $0.followsNofollow = followsNofollow }

        if followsNofollow {
            #expect(sink.auditedPaths == ["/", "/plain", "/marked", "/behind-meta"])
        } else {
            #expect(sink.auditedPaths == ["/", "/plain"])
            #expect(!server.requests.contains { $0.path == "/marked" || $0.path == "/behind-meta" })
        }
    }

    @Test("follows meta refresh, audits iframe and frame sources in their pages rather than as pages, resolves links against <base href>, and notes rel=canonical without crawling it")
    func otherLinkSources() throws {
        let server = try TestHTTPServer.routes([
            "/": .html("""
                <!doctype html><html lang=en><head><title>Home</title>
                <meta http-equiv="refresh" content="30; URL='/refreshed'">
                <link rel="canonical" href="/canonical-home"></head>
                <body><main><h1>Home</h1><iframe title="map" src="/framed"></iframe>
                <a href="/based">based</a> <a href="/frames">frames</a></main></body></html>
                """),
            "/based": .html(#"<!doctype html><html lang=en><head><title>Based</title><base href="/docs/v2/"></head><body><main><h1>Based</h1><a href="guide">guide</a></main></body></html>"#),
            "/frames": .html(#"<!doctype html><html lang=en><head><title>Frames</title></head><frameset cols="50%,50%"><frame src="/frame-left" title="left"><frame src="/frame-right" title="right"></frameset></html>"#),
            "/refreshed": sitePage("Refreshed"),
            "/framed": sitePage("Framed"),
            "/docs/v2/guide": sitePage("Guide"),
            "/frame-left": sitePage("Left"),
            "/frame-right": sitePage("Right"),
            "/canonical-home": sitePage("Canonical"),
        ])

        let (_, sink) = try crawl(server) { $0.honoursRobots = false; $0.sitemaps = .none }

        #expect(sink.auditedPaths == ["/", "/based", "/frames", "/refreshed", "/docs/v2/guide"])
        #expect(sink.byPath["/"]?.result?.frames.audited == 1)
        #expect(sink.byPath["/frames"]?.result?.frames.audited == 2)
        for path in ["/framed", "/frame-left", "/frame-right"] { #expect(server.requests.count { $0.path == path } == 1, "\(path) fetched once, as a frame") }
        #expect(!server.requests.contains { $0.path == "/guide" || $0.path == "/based/guide" }, "the base decides, not the page URL")
        #expect(sink.byPath["/"]?.canonicalURL == server.url("/canonical-home"))
        #expect(!server.requests.contains { $0.path == "/canonical-home" }, "a canonical URL is noted, not queued")
    }

    @Test("spellings of one URL (scheme and host case, dot segments, percent-encoding case, fragments) make one audit")
    func urlSpellings() throws {
        let server = try TestHTTPServer { request in
            let port = request.header("Host")!.split(separator: ":").last!
            switch request.path {
            case "/":
                return sitePage("Home", links: [
                    "HTTP://LocalHost:\(port)/caf%c3%a9",
                    "http://LOCALHOST:\(port)/a/../b/./../caf%C3%A9",
                    "/./caf%c3%A9#menu",
                    "caf%C3%A9#",
                ])
            case "/caf%C3%A9": return sitePage("Café")
            default: return .notFound
            }
        }

        // localhost rather than 127.0.0.1, so the host has letters whose case can differ.
        let (summary, sink) = try crawl(server, start: "/") {
            $0.startURLs = [try! URLNormalizer().normalize("http://localhost:\(server.port)/")]
            $0.scope = CrawlScope(startURLs: $0.startURLs)
            $0.honoursRobots = false
            $0.sitemaps = .none
        }

        #expect(Set(sink.all.filter(\.processed).map(\.url)) == ["http://localhost:\(server.port)/", "http://localhost:\(server.port)/caf%C3%A9"])
        #expect(summary.pagesAudited == 2)
        #expect(server.requests.filter { $0.path.lowercased() == "/caf%c3%a9" }.count == 1)
        #expect(server.requests.count == 2)
    }

    @Test("stops at max-pages")
    func pageLimit() throws {
        let server = try TestHTTPServer { request in
            let number = Int(request.pathWithoutQuery.dropFirst()) ?? 0
            return sitePage("Page \(number)", links: (1...5).map { "/\(number * 5 + $0)" })
        }

        let (summary, sink) = try crawl(server, start: "/0") { $0.honoursRobots = false; $0.sitemaps = .none; $0.maxPages = 25 }

        #expect(sink.all.count == 25)
        #expect(summary.skippedByLimit > 0)
    }

    @Test("with the frontier mostly on disk, two origins are crawled whole, each page fetched once, and no file is left behind")
    func frontierOnDisk() throws {
        let site = GeneratedSite(pageCount: 300)
        let server = try TestHTTPServer { site.response(for: $0.pathWithoutQuery) }
        let folder = try ReportTestFolder("frontier")
        let origins = ["http://127.0.0.1:\(server.port)", "http://localhost:\(server.port)"]
        let (summary, sink) = try crawl(server) {
            $0.startURLs = origins.map { try! URLNormalizer().normalize($0 + site.startPath) }
            $0.scope = CrawlScope(startURLs: $0.startURLs)
            $0.honoursRobots = false
            $0.sitemaps = .none
            $0.maxDepth = 1_000
            // Two URLs of each origin in memory: the rest of the frontier goes through its file.
            $0.frontierMemory = 2
            $0.frontierDirectory = folder.path
        }

        for origin in origins {
            let recorded = sink.all.filter { $0.url.hasPrefix(origin + "/") }.map { String($0.url.dropFirst(origin.count)) }
            #expect(recorded.count == site.recordedPaths.count, "\(origin): every URL recorded once")
            #expect(Set(recorded) == site.recordedPaths, "\(origin)")
        }
        #expect(summary.pagesAudited == 2 * site.auditedCount)
        var fetches: [String: Int] = [:]
        for request in server.requests { fetches[(request.header("Host") ?? "") + request.pathWithoutQuery, default: 0] += 1 }
        #expect(fetches.filter { $0.value > 1 } == [:], "no page fetched twice")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
