import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for `canopy demo`: it serves the bundled sample shop to
/// the crawler, so the demo needs no network and no setup.
///
/// Deliberately small and strict: it listens on the loopback address only (port 0, so the system
/// picks a free port and two demos never collide), answers GET and HEAD, keeps connections alive
/// as HTTP/1.1 clients expect, and gives each connection its own thread with read and write
/// timeouts, so one stalled client cannot hold up the others or `stop()`. Requests larger than
/// `maximumHeaderBytes`, with a body, or with another method are refused.
public final class DemoServer: @unchecked Sendable {
    // @unchecked: the mutable state (`stopped`, `clients`) is only touched under `lock`.

    /// What the server tells the handler about a request.
    public struct Request: Sendable {
        public var method: String
        /// The path without the query.
        public var path: String
        /// The Host header (e.g. `127.0.0.1:41234`), for absolute URLs in robots.txt and sitemaps.
        public var host: String

        public init(method: String, path: String, host: String) {
            self.method = method
            self.path = path
            self.host = host
        }
    }

    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]

        public init(status: Int = 200, contentType: String, body: [UInt8]) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }

        public static func html(_ text: String) -> Response { Response(contentType: "text/html; charset=utf-8", body: Array(text.utf8)) }
        public static func text(_ text: String, status: Int = 200) -> Response {
            Response(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
        }
    }

    /// Answers a request; nil means 404.
    public typealias Handler = @Sendable (Request) -> Response?

    public static let maximumHeaderBytes = 16 * 1024
    public static let maximumConnections = 64
    /// Bytes read and dropped after an error response before the connection is closed.
    static let maximumDrainBytes = 256 * 1024
    /// Seconds a connection may sit idle (between or inside requests) before it is closed.
    public static let idleTimeout = 5

    public let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var stopped = false
    private var clients: Set<Int32> = []
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// Starts listening at once. Call `stop()` when done: the accept thread keeps the server alive until then.
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw DemoServerError.socket("socket", errno) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw DemoServerError.socket("bind/listen on 127.0.0.1", code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "canopy-demo-server"
        thread.start()
    }

    /// `http://127.0.0.1:PORT`
    public var origin: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting, closes open connections, and returns once the listening socket is closed.
    public func stop() {
        let wasRunning: Bool = lock.withLock {
            guard !stopped else { return false }
            stopped = true
            // Wakes connection threads blocked in recv; each closes its own descriptor. Done under
            // the lock: a thread closes its descriptor only after leaving `clients`, so no number
            // here can have been closed and handed to another socket of the process meanwhile.
            for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
            return true
        }
        guard wasRunning else { return }
        acceptLoopEnded.wait()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer {
            close(listener)
            acceptLoopEnded.signal()
        }
        while !isStopped {
            // poll with a timeout instead of a blocking accept: closing a socket another thread
            // is blocked on does not wake it on every system, and this way stop() is never stuck.
            var watched = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, 200)
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // Out of descriptors, or the client gave up: wait a little and go on.
                if errno != EINTR && errno != EAGAIN && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            let admitted: Bool = lock.withLock {
                guard !stopped, clients.count < Self.maximumConnections else { return false }
                clients.insert(client)
                return true
            }
            guard admitted else {
                close(client)
                continue
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer {
            lock.withLock { _ = clients.remove(client) }
            close(client)
        }
        var timeout = timeval(tv_sec: Self.idleTimeout, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !isStopped {
            guard let headerEnd = Self.headerEnd(in: buffer) else {
                guard buffer.count <= Self.maximumHeaderBytes else {
                    refuse(Self.status(431, "Request Header Fields Too Large"), to: client)
                    return
                }
                let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }  // closed, timed out, or shut down by stop()
                buffer.append(contentsOf: chunk[0..<count])
                continue
            }
            guard headerEnd <= Self.maximumHeaderBytes else {
                refuse(Self.status(431, "Request Header Fields Too Large"), to: client)
                return
            }
            let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
            buffer.removeSubrange(0..<(headerEnd + 4))
            guard let (request, keepAlive, hasBody) = Self.parse(head) else {
                refuse(Self.status(400, "Bad Request"), to: client)
                return
            }
            guard request.method == "GET" || request.method == "HEAD" else {
                refuse(Self.status(405, "Method Not Allowed", extra: "Allow: GET, HEAD\r\n"), to: client)
                return
            }
            guard !hasBody else {
                refuse(Self.status(400, "Bad Request"), to: client)
                return
            }
            let response = handler(request) ?? Response.text("Not found\n", status: 404)
            var message = Array(Self.responseHead(response, keepAlive: keepAlive).utf8)
            if request.method == "GET" { message += response.body }
            guard send(message, to: client), keepAlive else { return }
        }
    }

    /// Sends an error response and closes gracefully: closing a socket that still holds unread
    /// request bytes makes the kernel reset the connection, and a reset can reach the client before
    /// it has read the response. So the write side is shut first and what the client still sends is
    /// read and dropped, for a bounded time and amount, before the caller closes.
    private func refuse(_ bytes: [UInt8], to client: Int32) {
        guard send(bytes, to: client) else { return }
        shutdown(client, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < Self.maximumDrainBytes {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            drained += count
        }
    }

    /// Sends all of `bytes`; false when the client is gone.
    @discardableResult
    private func send(_ bytes: [UInt8], to client: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                #if canImport(Glibc)
                return Glibc.send(client, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                #else
                return Darwin.send(client, buffer.baseAddress! + sent, buffer.count - sent, 0)
                #endif
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private static func headerEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The request line and the headers the server uses; nil when the request line is malformed.
    private static func parse(_ head: String) -> (Request, keepAlive: Bool, hasBody: Bool)? {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3, parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1.") else { return nil }
        var host = "127.0.0.1", connection = "", hasBody = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "host": host = value
            case "connection": connection = value.lowercased()
            case "content-length": hasBody = value != "0"
            case "transfer-encoding": hasBody = true
            default: break
            }
        }
        let target = parts[1]
        let path = String(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
        // HTTP/1.1 keeps the connection unless told otherwise; HTTP/1.0 only when asked to.
        let keepAlive = parts[2] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        return (Request(method: String(parts[0]), path: path, host: host), keepAlive, hasBody)
    }

    private static func responseHead(_ response: Response, keepAlive: Bool) -> String {
        "HTTP/1.1 \(response.status) \(reason(response.status))\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    }

    private static func status(_ code: Int, _ reason: String, extra: String = "") -> [UInt8] {
        Array("HTTP/1.1 \(code) \(reason)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 404: "Not Found"
        default: "Status"
        }
    }
}

public enum DemoServerError: Error, CustomStringConvertible {
    case socket(String, Int32)

    public var description: String {
        switch self {
        case .socket(let call, let code): "the demo server could not start: \(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
