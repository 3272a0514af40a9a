import CanopyCrawl
import CanopyTestSupport
import Testing

@Suite("Fetcher: schemes, URLs and credentials")
struct FetcherSecurityTests {
    let fetcher = Fetcher()

    @Test("non-HTTP request URLs are refused before any connection is made")
    func requestSchemeRefused() throws {
        // Something listens on the port, so a connection attempt would show up.
        let server = try TestHTTPServer { _ in .text("should not be reached") }
        let urls = [
            "ftp://127.0.0.1:\(server.port)/file.txt",
            "file:///etc/passwd",
            "gopher://127.0.0.1:\(server.port)/",
            "FILE:///etc/hostname",
            "javascript:alert(1)",
            "mailto:someone@example.com",
        ]

        for url in urls {
            #expect(throws: FetchError.unsupportedScheme(url)) {
                try fetcher.fetch(FetchRequest(url: url))
            }
        }
        #expect(server.connectionCount == 0)
    }

    @Test("upper-case HTTP schemes are accepted")
    func upperCaseSchemeAccepted() throws {
        let server = try TestHTTPServer { _ in .text("ok") }

        let response = try fetcher.fetch(FetchRequest(url: "HTTP://127.0.0.1:\(server.port)/"))

        #expect(response.status == 200)
    }

    @Test("malformed URLs are invalid",
          arguments: ["", "not a url", "http://", "//example.com/page", "http://exa mple.com/", "https://[::1/", "http://host:99999/"])
    func invalidURLs(url: String) {
        #expect(throws: FetchError.invalidURL(url)) {
            try fetcher.fetch(FetchRequest(url: url))
        }
    }

    @Test("a redirect to file:// is refused and the local file is not read")
    func redirectToFileRefused() throws {
        let server = try TestHTTPServer.routes(["/": .redirect(to: "file:///etc/passwd")])

        let error = #expect(throws: FetchError.self) {
            try fetcher.fetch(FetchRequest(url: server.url("/")))
        }

        #expect(error == .unsupportedScheme("file:///etc/passwd"))
        #expect(error?.description.contains("file:///etc/passwd") == true)
    }

    @Test("redirects to other protocols are refused, ftp included (which curl would follow by default)",
          arguments: ["gopher", "ftp", "ftps", "dict"])
    func redirectToOtherProtocolRefused(scheme: String) throws {
        // A listener for the refused target, so any attempt to reach it would be seen.
        let target = try TestHTTPServer { _ in .text("not this protocol") }
        let server = try TestHTTPServer.routes(["/": .redirect(to: "\(scheme)://127.0.0.1:\(target.port)/1", status: 301)])

        let error = #expect(throws: FetchError.self) {
            try fetcher.fetch(FetchRequest(url: server.url("/"), timeout: 3))
        }

        guard case .unsupportedScheme(let refusedURL) = error else {
            Issue.record("expected unsupportedScheme, got \(String(describing: error))")
            return
        }
        #expect(refusedURL.hasPrefix("\(scheme)://127.0.0.1:\(target.port)/"))
        #expect(target.connectionCount == 0)
    }

    @Test("Authorization and Cookie headers are not sent to another port after a redirect")
    func credentialsNotForwardedToOtherPort() throws {
        let other = try TestHTTPServer { _ in .text("other origin") }
        let origin = try TestHTTPServer.routes(["/login": .redirect(to: other.url("/landing"))])

        let response = try fetcher.fetch(credentialedRequest(origin.url("/login")))

        #expect(response.finalURL == other.url("/landing"))
        #expect(origin.requests.first?.header("Authorization") == "Bearer secret-token")
        #expect(origin.requests.first?.header("Cookie") == "session=abc")
        let forwarded = try #require(other.requests.first)
        #expect(forwarded.header("Authorization") == nil)
        #expect(forwarded.header("Cookie") == nil)
        // Non-credential custom headers still go along.
        #expect(forwarded.header("X-Audit") == "yes")
    }

    @Test("Authorization is not sent to another host name after a redirect")
    func credentialsNotForwardedToOtherHost() throws {
        // Same machine and port, but "localhost" is a different host name to curl.
        let server = try TestHTTPServer { request in
            request.path == "/login" ? .redirect(to: "http://localhost:\(request.header("Host")!.split(separator: ":").last!)/landing")
                : .text("landed")
        }

        let response = try fetcher.fetch(credentialedRequest(server.url("/login")))

        #expect(response.status == 200)
        #expect(response.finalURL.hasPrefix("http://localhost:"))
        let requests = server.requests
        #expect(requests.map(\.path) == ["/login", "/landing"])
        #expect(requests.first?.header("Authorization") == "Bearer secret-token")
        #expect(requests.last?.header("Authorization") == nil)
    }

    @Test("Authorization is kept on a same-origin redirect (so the tests above are meaningful)")
    func credentialsKeptOnSameOrigin() throws {
        let server = try TestHTTPServer.routes(["/login": .redirect(to: "/landing"), "/landing": .text("in")])

        _ = try fetcher.fetch(credentialedRequest(server.url("/login")))

        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer secret-token", "Bearer secret-token"])
    }

    private func credentialedRequest(_ url: String) -> FetchRequest {
        FetchRequest(url: url, headers: [
            HTTPHeader("Authorization", "Bearer secret-token"),
            HTTPHeader("Cookie", "session=abc"),
            HTTPHeader("X-Audit", "yes"),
        ])
    }
}
