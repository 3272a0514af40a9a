import CanopyCrawl
import CanopyHTML
import CanopyTestSupport
import Foundation
import Testing

/// Keeps what the processor said about each page.
private final class OwnershipSink: CrawlSink, @unchecked Sendable {
    private let pages = LockedState<[CrawledPage<Bool>]>([])
    func record(_ page: CrawledPage<Bool>) { pages.withLock { $0.append(page) } }
    var all: [CrawledPage<Bool>] { pages.withLock { $0 } }
}

@Suite("SiteCrawler hands fetched pages over")
struct PageHandoverTests {
    /// On a page of megabytes the body is most of what outlives the parse: if the crawler (its
    /// queue, its completion, its response) kept a reference, freeing it after parsing would free
    /// nothing.
    @Test("the body a processor takes has no other owner, at either end of a redirect")
    func bodyHasOneOwner() throws {
        let big = String(repeating: "<p>Paragraph of text.</p>\n", count: 4_000)
        let server = try TestHTTPServer.routes([
            "/": .html("<!doctype html><title>Home</title><a href=\"/moved\">moved</a><a href=\"/big\">big</a>"),
            "/moved": .raw("HTTP/1.1 301 Moved\r\nLocation: /landing\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
            "/landing": .html("<!doctype html><title>Landing</title>"),
            "/big": .html("<!doctype html><title>Big</title>\(big)"),
        ])
        var plan = CrawlPlan(startURLs: [try URLNormalizer().normalize(server.url("/"))])
        plan.fetchPolicy = FetchPolicy(maxInFlight: 4, maxPerHost: 4, retries: 0, backoff: 0.01)
        plan.timeout = 5
        plan.workerThreads = 2
        plan.honoursRobots = false
        plan.sitemaps = .none
        let sink = OwnershipSink()
        let crawler = SiteCrawler<Bool>(
            plan: plan,
            process: { page in
                let links = LinkExtractor().extract(from: HTMLParser().parse(bytes: page.response.body), pageURL: try! URLNormalizer().normalize(page.url))
                // Consumed, not copied: a copy of the page would still hold the body.
                var body = (consume page).takeBody()
                let before = body.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
                // Writing to a buffer that has another owner copies it first.
                let after = body.withUnsafeMutableBufferPointer { UInt(bitPattern: $0.baseAddress) }
                return ProcessedPage(links: links.followableURLs(honouringNoFollow: true), result: before == after)
            },
            sink: sink
        )
        _ = try crawler.run()

        let processed = sink.all.filter { $0.result != nil }
        #expect(Set(processed.map { URLComponents(string: $0.url)!.path }) == ["/", "/moved", "/big"])
        for page in processed {
            #expect(page.result == true, "\(page.url): the crawler still held the body")
        }
    }
}
