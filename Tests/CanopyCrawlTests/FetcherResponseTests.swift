import CanopyCrawl
import CanopyTestSupport
import Testing

@Suite("Fetcher: responses")
struct FetcherResponseTests {
    let fetcher = Fetcher()

    @Test("a 200 comes back with its body, headers and content type")
    func okResponse() throws {
        let server = try TestHTTPServer.routes([
            "/page": TestHTTPResponse.html("<h1>Hello</h1>").withHeader("X-Served-By", "test"),
        ])
        let url = server.url("/page")

        let response = try fetcher.fetch(FetchRequest(url: url))

        #expect(response.status == 200)
        #expect(response.body == Array("<h1>Hello</h1>".utf8))
        #expect(response.contentType == "text/html; charset=utf-8")
        #expect(response.header("x-served-by") == "test")
        #expect(response.header("CONTENT-LENGTH") == "14")
        #expect(response.requestedURL == url)
        #expect(response.finalURL == url)
        #expect(response.redirectChain.isEmpty)
        #expect(response.elapsed > 0)
        #expect(server.requests.map(\.path) == ["/page"])
        #expect(server.requests.first?.method == "GET")
    }

    @Test("HTTP error statuses are responses, not errors", arguments: [400, 404, 410, 500, 503])
    func errorStatusIsAResponse(status: Int) throws {
        let server = try TestHTTPServer { _ in .text("status \(status)", status: status) }

        let response = try fetcher.fetch(FetchRequest(url: server.url("/missing")))

        #expect(response.status == status)
        #expect(response.body == Array("status \(status)".utf8))
        #expect(response.contentType == "text/plain; charset=utf-8")
    }

    @Test("the default 404 route answers unknown paths")
    func notFoundRoute() throws {
        let server = try TestHTTPServer.routes(["/": .html("home")])

        let response = try fetcher.fetch(FetchRequest(url: server.url("/nope?x=1")))

        #expect(response.status == 404)
        #expect(response.body == Array("Not Found".utf8))
        #expect(server.requests.first?.path == "/nope?x=1")
    }

    @Test("a response without Content-Type has a nil contentType")
    func missingContentType() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse(status: 200, body: Array("x".utf8)) }

        let response = try fetcher.fetch(FetchRequest(url: server.baseURL))

        #expect(response.contentType == nil)
        #expect(response.body == [UInt8(ascii: "x")])
    }

    @Test("a gzip body is decoded, and Accept-Encoding was offered")
    func gzipDecoded() throws {
        let original = Array(String(repeating: "<p>compressed page</p>\n", count: 4000).utf8)
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200,
                headers: [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
                body: GzipStoredEncoder.encode(original)
            )
        }

        let response = try fetcher.fetch(FetchRequest(url: server.baseURL))

        #expect(response.body == original)
        #expect(server.requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test("with acceptCompressed off, no encoding is asked for and bytes are left as sent")
    func compressionDisabled() throws {
        let encoded = GzipStoredEncoder.encode(Array("plain".utf8))
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(status: 200, headers: [("Content-Encoding", "gzip")], body: encoded)
        }

        let response = try fetcher.fetch(FetchRequest(url: server.baseURL, acceptCompressed: false))

        #expect(response.body == encoded)
        #expect(server.requests.first?.header("Accept-Encoding") == nil)
    }

    @Test("custom headers and the user agent reach the server")
    func customHeadersSent() throws {
        let server = try TestHTTPServer { _ in .text("ok") }
        let request = FetchRequest(
            url: server.baseURL,
            headers: [
                HTTPHeader("X-Canopy-Run", "42"),
                HTTPHeader("Accept-Language", "fr-CA, fr;q=0.8"),
                HTTPHeader("X-Empty", ""),
            ]
        )

        _ = try fetcher.fetch(request)

        let received = try #require(server.requests.first)
        #expect(received.header("x-canopy-run") == "42")
        #expect(received.header("Accept-Language") == "fr-CA, fr;q=0.8")
        #expect(received.headerValues("X-Empty") == [""])
        #expect(received.header("User-Agent") == FetchRequest.defaultUserAgent)
    }

    @Test("a custom user agent replaces the default")
    func customUserAgent() throws {
        let server = try TestHTTPServer { _ in .text("ok") }

        _ = try fetcher.fetch(FetchRequest(url: server.baseURL, userAgent: "CanopyTest/9"))

        #expect(server.requests.first?.header("User-Agent") == "CanopyTest/9")
    }

    @Test("header names that are not tokens, and values with line breaks, are refused before sending",
          arguments: [HTTPHeader("X-Evil", "a\r\nInjected: yes"), HTTPHeader("Bad Name", "v"), HTTPHeader("", "v")])
    func invalidHeaderRefused(header: HTTPHeader) throws {
        let server = try TestHTTPServer { _ in .text("ok") }

        #expect(throws: FetchError.invalidHeader(header.name)) {
            try fetcher.fetch(FetchRequest(url: server.baseURL, headers: [header]))
        }
        #expect(server.connectionCount == 0)
    }
}
