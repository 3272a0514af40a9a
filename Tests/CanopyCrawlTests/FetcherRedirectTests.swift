import CanopyCrawl
import CanopyTestSupport
import Testing

@Suite("Fetcher: redirects")
struct FetcherRedirectTests {
    let fetcher = Fetcher()

    @Test("a 301 then a 302 then a 200 are recorded in order, with the final URL")
    func redirectChainRecorded() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            // One absolute and one relative Location: both must resolve to absolute URLs.
            case "/old": .redirect(to: "http://127.0.0.1:\(request.header("Host")!.split(separator: ":").last!)/moved", status: 301)
                .withHeader("X-Hop", "old")
            case "/moved": .redirect(to: "/final?from=moved", status: 302).withHeader("X-Hop", "moved")
            case "/final?from=moved": .html("final page")
            default: .notFound
            }
        }

        let response = try fetcher.fetch(FetchRequest(url: server.url("/old")))

        #expect(response.status == 200)
        #expect(response.body == Array("final page".utf8))
        #expect(response.requestedURL == server.url("/old"))
        #expect(response.finalURL == server.url("/final?from=moved"))
        #expect(response.redirectChain == [
            Redirect(from: server.url("/old"), status: 301, to: server.url("/moved")),
            Redirect(from: server.url("/moved"), status: 302, to: server.url("/final?from=moved")),
        ])
        // Only the final response's headers are kept.
        #expect(response.header("X-Hop") == nil)
        #expect(response.contentType == "text/html; charset=utf-8")
        #expect(server.requests.map(\.path) == ["/old", "/moved", "/final?from=moved"])
    }

    @Test("307 and 308 are followed too", arguments: [303, 307, 308])
    func otherRedirectStatuses(status: Int) throws {
        let server = try TestHTTPServer.routes([
            "/a": .redirect(to: "/b", status: status),
            "/b": .text("arrived"),
        ])

        let response = try fetcher.fetch(FetchRequest(url: server.url("/a")))

        #expect(response.redirectChain == [Redirect(from: server.url("/a"), status: status, to: server.url("/b"))])
        #expect(response.body == Array("arrived".utf8))
    }

    @Test("a redirect that ends on a 404 returns the 404 with its chain")
    func redirectToNotFound() throws {
        let server = try TestHTTPServer.routes(["/a": .redirect(to: "/gone", status: 301)])

        let response = try fetcher.fetch(FetchRequest(url: server.url("/a")))

        #expect(response.status == 404)
        #expect(response.finalURL == server.url("/gone"))
        #expect(response.redirectChain.count == 1)
    }

    @Test("one redirect more than the limit fails with tooManyRedirects")
    func redirectLimitExceeded() throws {
        let server = try TestHTTPServer { request in
            let hop = Int(request.path.dropFirst("/hop/".count)) ?? 0
            return .redirect(to: "/hop/\(hop + 1)")
        }

        #expect(throws: FetchError.tooManyRedirects(limit: 3)) {
            try fetcher.fetch(FetchRequest(url: server.url("/hop/0"), maxRedirects: 3))
        }
        // The original request and three followed redirects; the fourth is not followed.
        #expect(server.requests.map(\.path) == ["/hop/0", "/hop/1", "/hop/2", "/hop/3"])
    }

    @Test("exactly as many redirects as the limit is fine")
    func redirectLimitReached() throws {
        let server = try TestHTTPServer { request in
            let hop = Int(request.path.dropFirst("/hop/".count)) ?? 0
            return hop == 3 ? .text("done") : .redirect(to: "/hop/\(hop + 1)")
        }

        let response = try fetcher.fetch(FetchRequest(url: server.url("/hop/0"), maxRedirects: 3))

        #expect(response.redirectChain.count == 3)
        #expect(response.finalURL == server.url("/hop/3"))
    }

    @Test("with a limit of zero, the first redirect is already too many")
    func zeroRedirectsAllowed() throws {
        let server = try TestHTTPServer.routes(["/a": .redirect(to: "/b"), "/b": .text("b")])

        #expect(throws: FetchError.tooManyRedirects(limit: 0)) {
            try fetcher.fetch(FetchRequest(url: server.url("/a"), maxRedirects: 0))
        }
    }

    @Test("the server reuses one keep-alive connection for same-origin redirects")
    func keepAliveAcrossRedirects() throws {
        let server = try TestHTTPServer.routes([
            "/1": .redirect(to: "/2"), "/2": .redirect(to: "/3"), "/3": .text("end"),
        ])

        _ = try fetcher.fetch(FetchRequest(url: server.url("/1")))

        #expect(server.requests.map(\.connectionNumber) == [1, 1, 1])
        #expect(server.connectionCount == 1)
    }
}
