import CanopyCrawl
import CanopyTestSupport
import Testing

@Suite("Fetcher: limits and failures")
struct FetcherFailureTests {
    let fetcher = Fetcher()

    @Test("a body longer than the cap, announced by Content-Length, fails with bodyTooLarge")
    func bodyCapWithContentLength() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse(body: Array(repeating: 0x61, count: 100_000)) }

        #expect(throws: FetchError.bodyTooLarge(limit: 10_000)) {
            try fetcher.fetch(FetchRequest(url: server.baseURL, maxBodyBytes: 10_000))
        }
    }

    @Test("a body of unknown length is cut off once it passes the cap")
    func bodyCapWithoutContentLength() throws {
        // No Content-Length: the body ends when the server closes the connection,
        // so only the write callback can notice the size.
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n".utf8)
        let server = try TestHTTPServer { _ in .raw(head + Array(repeating: 0x62, count: 200_000)) }

        #expect(throws: FetchError.bodyTooLarge(limit: 50_000)) {
            try fetcher.fetch(FetchRequest(url: server.baseURL, maxBodyBytes: 50_000))
        }
    }

    @Test("a body exactly at the cap is accepted")
    func bodyAtCap() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse(body: Array(repeating: 0x63, count: 4096)) }

        let response = try fetcher.fetch(FetchRequest(url: server.baseURL, maxBodyBytes: 4096))

        #expect(response.body.count == 4096)
    }

    @Test("a port nobody listens on fails with couldNotConnect naming the URL")
    func unreachablePort() throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let url = "http://127.0.0.1:\(refusing.port)/page"

        let error = #expect(throws: FetchError.self) {
            try fetcher.fetch(FetchRequest(url: url))
        }

        guard case .couldNotConnect(let detail) = error else {
            Issue.record("expected couldNotConnect, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix(url))
        #expect(error?.description.contains(url) == true)
    }

    @Test("a server slower than the timeout fails with timedOut, promptly")
    func timeout() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse.text("late").delayed(by: .seconds(5)) }
        let clock = ContinuousClock()
        let start = clock.now

        #expect(throws: FetchError.timedOut) {
            try fetcher.fetch(FetchRequest(url: server.baseURL, timeout: 0.3))
        }

        #expect(clock.now - start < .seconds(3))
    }

    @Test("a body cut short by the server is a transport error")
    func truncatedBody() throws {
        let server = try TestHTTPServer { _ in .raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b") }

        let error = #expect(throws: FetchError.self) {
            try fetcher.fetch(FetchRequest(url: server.baseURL))
        }

        guard case .transport(let code, let message) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code == 18)  // CURLE_PARTIAL_FILE
        #expect(message.contains(server.baseURL))
    }

    @Test("a reply that is not HTTP is a transport error, not an unsupported scheme")
    func garbageReply() throws {
        let server = try TestHTTPServer { _ in .raw("SSH-2.0-OpenSSH_9.2\r\n") }

        let error = #expect(throws: FetchError.self) {
            try fetcher.fetch(FetchRequest(url: server.baseURL))
        }

        guard case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }

    @Test("many fetches from several threads at once all succeed")
    func concurrentFetches() throws {
        let server = try TestHTTPServer { request in
            .text("page \(request.path)").delayed(by: .milliseconds(20))
        }
        let fetcher = self.fetcher
        let fetchesPerThread = 6

        let results = runOnThreads(8) { thread in
            (0..<fetchesPerThread).map { index -> Result<[UInt8], FetchError> in
                Result { () throws(FetchError) in
                    try fetcher.fetch(FetchRequest(url: server.url("/t\(thread)/p\(index)"))).body
                }
            }
        }

        for (thread, threadResults) in results.enumerated() {
            for (index, result) in threadResults.enumerated() {
                #expect(result == .success(Array("page /t\(thread)/p\(index)".utf8)))
            }
        }
        #expect(server.requests.count == 8 * fetchesPerThread)
    }
}
