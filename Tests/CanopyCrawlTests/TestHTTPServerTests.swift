import CanopyCrawl
import CanopyTestSupport
import Foundation
import Testing

@Suite("TestHTTPServer")
struct TestHTTPServerTests {
    @Test("binds 127.0.0.1 on a real port and reports its URLs")
    func addresses() throws {
        let server = try TestHTTPServer { _ in .text("ok") }

        #expect(server.port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        #expect(server.url("/a?b=c") == "http://127.0.0.1:\(server.port)/a?b=c")
        #expect(server.url("a") == "http://127.0.0.1:\(server.port)/a")
    }

    @Test("stop() returns promptly while a delayed response is in flight")
    func stopDuringDelay() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse.text("never").delayed(by: .seconds(30)) }
        let url = server.url("/slow")
        let box = ResultBox()
        let thread = Thread {
            box.set(Result { () throws(FetchError) in try Fetcher().fetch(FetchRequest(url: url, timeout: 20)) })
        }
        thread.start()
        #expect(waitUntil { server.requests.count == 1 })

        let clock = ContinuousClock()
        let start = clock.now
        server.stop()
        #expect(clock.now - start < .seconds(2))

        // The client sees the connection close instead of a response.
        #expect(waitUntil { box.get() != nil })
        guard case .failure = box.get() else {
            Issue.record("the fetch should have failed when the server stopped")
            return
        }
        server.stop()  // a second stop is harmless
    }

    @Test("HEAD gets headers with Content-Length and no body")
    func headRequest() throws {
        let server = try TestHTTPServer { _ in .text("twelve bytes") }

        let (status, reply) = try rawExchange(port: server.port, "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")

        #expect(status == 200)
        #expect(reply.contains("Content-Length: 12\r\n"))
        #expect(reply.hasSuffix("\r\n\r\n"))
    }

    @Test("a request body framed by Content-Length is read whole, and pipelined requests are both answered")
    func requestBodyAndPipelining() throws {
        let server = try TestHTTPServer { request in .text("\(request.method) \(request.path) \(request.body.count)") }

        let (_, reply) = try rawExchange(
            port: server.port,
            "POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                + "GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )

        #expect(reply.contains("POST /form 5"))
        #expect(reply.contains("GET /next 0"))
        #expect(server.requests.map(\.body) == [Array("hello".utf8), []])
        #expect(server.requests.map(\.connectionNumber) == [1, 1])
    }

    @Test("a malformed request line gets 400")
    func malformedRequest() throws {
        let server = try TestHTTPServer { _ in .text("ok") }

        let (status, _) = try rawExchange(port: server.port, "NONSENSE\r\n\r\n")

        #expect(status == 400)
        #expect(server.requests.isEmpty)
    }

    /// Sends `request` over a plain socket and reads until the server closes.
    private func rawExchange(port: Int, _ request: String) throws -> (status: Int?, reply: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        let bytes = Array(request.utf8)
        try #require(bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        let reply = String(decoding: received, as: UTF8.self)
        let status = reply.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        return (status, reply)
    }
}

/// Hands a fetch result from a background thread to the test.
private final class ResultBox: Sendable {
    private let result = LockedState<Result<FetchResponse, FetchError>?>(nil)
    func set(_ value: Result<FetchResponse, FetchError>) { result.withLock { $0 = value } }
    func get() -> Result<FetchResponse, FetchError>? { result.withLock { $0 } }
}
