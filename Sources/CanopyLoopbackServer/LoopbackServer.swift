import Glibc

/// A real HTTP/1.1 server on 127.0.0.1 and a random port: a listener thread accepts, and each
/// connection gets its own thread that reads requests, asks `handler` for the response and sends
/// it, keeping the connection open as HTTP/1.1 keep-alive allows. It serves `canopy demo`'s
/// sample shop and the benchmarks' sites, and every test that needs real sockets; responses can
/// carry faults (delays, drips, resets, bad framing) for the crawler's fault-injection tests.
///
/// It binds the loopback address only, never another interface. Each user starts its own server;
/// `stop()` (or deinit) ends every thread and closes every socket.
public final class LoopbackServer: Sendable {
    public let port: Int
    private let core: ServerCore

    /// Binds 127.0.0.1 (never another interface) on a port the system picks,
    /// and starts serving at once.
    /// - Parameter recordsRequests: keep every request for `requests` (tests assert on them); a
    ///   server that answers a whole crawl of a large site keeps none.
    public init(recordsRequests: Bool = true, handler: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) throws {
        let core = try ServerCore(recordsRequests: recordsRequests, handler: handler)
        try core.start()
        self.core = core
        self.port = core.port
    }

    /// A server that answers the paths in `table` (matched with their query
    /// first, then without it) and 404 for everything else.
    public static func routes(_ table: [String: LoopbackResponse]) throws -> LoopbackServer {
        try LoopbackServer { request in
            table[request.path] ?? table[request.pathWithoutQuery] ?? .notFound
        }
    }

    deinit {
        core.stop()
    }

    /// "http://127.0.0.1:PORT"
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The absolute URL of `path` on this server.
    public func url(_ path: String) -> String {
        path.hasPrefix("/") ? baseURL + path : baseURL + "/" + path
    }

    /// Every request received so far, in arrival order.
    public var requests: [LoopbackRequest] { core.receivedRequests }

    /// How many connections were accepted so far.
    public var connectionCount: Int { core.acceptedConnectionCount }

    /// Closes the listener and every connection, and returns once all server
    /// threads have ended. A response waiting out its delay is abandoned.
    /// Calling it again does nothing. Not to be called from inside the handler,
    /// which runs on one of the threads it waits for.
    public func stop() {
        core.stop()
    }

    /// A port on 127.0.0.1 where connections are refused, for as long as the returned value lives.
    public static func refusingPort() throws -> RefusingPort {
        try RefusingPort()
    }
}

/// A port on 127.0.0.1 bound but not listening: connecting is refused. Holding the socket, rather
/// than closing it and handing out its number, keeps another test's server (tests run in
/// parallel) from being given that port and answering. Keep it alive for the whole test, e.g.
/// `defer { withExtendedLifetime(refusing) {} }`.
public final class RefusingPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    fileprivate init() throws {
        let socket = try ServerCore.makeLoopbackSocket(listening: false)
        descriptor = socket.descriptor
        port = socket.port
    }

    deinit { close(descriptor) }
}

/// Everything the server threads share. Kept apart from `LoopbackServer` so
/// the threads do not keep the public object alive: when a test drops its
/// server, deinit runs and stops them.
private final class ServerCore: Sendable {
    private struct State {
        var stopping = false
        var requests: [LoopbackRequest] = []
        var acceptedConnections = 0
        var openConnections: Set<Int32> = []
        var acceptThread: POSIXThread?
        var connectionThreads: [POSIXThread] = []
    }

    let port: Int
    private let listener: Int32
    /// Written once by stop(); every thread polls the read end with its socket,
    /// so a blocked read or a response delay ends at once.
    private let stopSignalRead: Int32
    private let stopSignalWrite: Int32
    private let handler: @Sendable (LoopbackRequest) -> LoopbackResponse
    private let recordsRequests: Bool
    private let state = LockedState(State())

    /// Requests larger than this in their head are refused with 431 (browsers send a few KiB).
    static let maxHeadBytes = 64 * 1024

    init(recordsRequests: Bool, handler: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) throws {
        let socket = try Self.makeLoopbackSocket(listening: true)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let error = errno
            close(socket.descriptor)
            throw LoopbackServerError(operation: "pipe", errorNumber: error)
        }
        pipeEnds.forEach(Self.closeOnExec)
        self.listener = socket.descriptor
        self.port = socket.port
        self.stopSignalRead = pipeEnds[0]
        self.stopSignalWrite = pipeEnds[1]
        self.handler = handler
        self.recordsRequests = recordsRequests
    }

    func start() throws {
        do {
            let thread = try POSIXThread { [self] in acceptConnections() }
            state.withLock { $0.acceptThread = thread }
        } catch {
            closeDescriptors()
            throw error
        }
    }

    var receivedRequests: [LoopbackRequest] { state.withLock { $0.requests } }
    var acceptedConnectionCount: Int { state.withLock { $0.acceptedConnections } }

    func stop() {
        let alreadyStopping = state.withLock { state in
            defer { state.stopping = true }
            return state.stopping
        }
        guard !alreadyStopping else { return }
        var signal: UInt8 = 1
        _ = write(stopSignalWrite, &signal, 1)
        // The accept thread goes first, so no connection thread starts after
        // the list below is read.
        state.withLock { $0.acceptThread }?.join()
        let connectionThreads = state.withLock { state in
            // Wakes a thread blocked in send() to a client that stopped reading.
            for descriptor in state.openConnections {
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
            return state.connectionThreads
        }
        for thread in connectionThreads {
            thread.join()
        }
        closeDescriptors()
    }

    private func closeDescriptors() {
        close(listener)
        close(stopSignalRead)
        close(stopSignalWrite)
    }

    // MARK: - Accepting

    private func acceptConnections() {
        while waitUntilReadable(listener, timeoutMilliseconds: -1) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                // The client may have gone between poll and accept; anything else
                // (e.g. out of descriptors) is retried after a short pause.
                if errno != EAGAIN && errno != EINTR && errno != ECONNABORTED {
                    _ = waitUntilReadable(nil, timeoutMilliseconds: 10)
                }
                continue
            }
            Self.closeOnExec(connection)
            let connectionNumber: Int? = state.withLock { state in
                guard !state.stopping else { return nil }
                state.acceptedConnections += 1
                state.openConnections.insert(connection)
                return state.acceptedConnections
            }
            guard let connectionNumber else {
                close(connection)
                return
            }
            do {
                let thread = try POSIXThread { [self] in
                    serve(connection, number: connectionNumber)
                }
                state.withLock { $0.connectionThreads.append(thread) }
            } catch {
                forget(connection)
            }
        }
    }

    // MARK: - Serving one connection

    private func serve(_ connection: Int32, number connectionNumber: Int) {
        defer { forget(connection) }
        var buffer: [UInt8] = []
        var scanned = 0
        while true {
            switch HTTPRequestParser.parse(&buffer, scanned: &scanned, maxHeadBytes: Self.maxHeadBytes, connectionNumber: connectionNumber) {
            case .incomplete:
                guard receive(from: connection, into: &buffer) else { return }
            case .failed(let status):
                let response = LoopbackResponse.text(LoopbackResponse.reasonPhrase(for: status), status: status)
                _ = sendAll(response.serialized(omitBody: false, closeAfterwards: true), to: connection)
                return
            case .request(let request):
                if recordsRequests { state.withLock { $0.requests.append(request) } }
                let response = handler(request)
                if response.delay > .zero {
                    // Returns true only when stop() signalled during the delay.
                    if waitUntilReadable(nil, timeoutMilliseconds: Self.milliseconds(response.delay)) { return }
                }
                if response.resetsConnection {
                    // Linger 0: close() sends RST instead of an orderly FIN.
                    var noLinger = linger(l_onoff: 1, l_linger: 0)
                    setsockopt(connection, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size))
                    return
                }
                if let total = response.streamedBodyBytes {
                    streamBody(of: response, total: total, to: connection)
                    return
                }
                let closeAfterwards = response.rawBytes != nil || response.closesConnection
                    || !Self.clientKeepsAlive(request)
                let bytes = response.serialized(omitBody: request.method == "HEAD", closeAfterwards: closeAfterwards)
                if let drip = response.drip {
                    guard sendDripping(bytes, pieces: drip.pieces, interval: drip.interval, to: connection), !closeAfterwards else { return }
                    continue
                }
                guard sendAll(bytes, to: connection), !closeAfterwards else { return }
            }
        }
    }

    private static func clientKeepsAlive(_ request: LoopbackRequest) -> Bool {
        let tokens = request.headerValues("Connection")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t").lowercased() }
        if request.version == "HTTP/1.0" {
            return tokens.contains("keep-alive")
        }
        return !tokens.contains("close")
    }

    /// Removes the connection from the open set before closing it, so stop()
    /// never shuts down a descriptor number that was meanwhile reused.
    private func forget(_ connection: Int32) {
        state.withLock { _ = $0.openConnections.remove(connection) }
        close(connection)
    }

    /// Appends what arrived; false on end of stream, error or stop.
    private func receive(from connection: Int32, into buffer: inout [UInt8]) -> Bool {
        guard waitUntilReadable(connection, timeoutMilliseconds: -1) else { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Sends `bytes` in pieces with pauses; false when the client left or the server stops.
    private func sendDripping(_ bytes: [UInt8], pieces: Int, interval: Duration, to connection: Int32) -> Bool {
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            guard sendAll(Array(bytes[offset..<end]), to: connection) else { return false }
            offset = end
            if offset < bytes.count, waitUntilReadable(nil, timeoutMilliseconds: Self.milliseconds(interval)) { return false }
        }
        return true
    }

    /// A head, then `total` filler bytes in 64 KiB writes until done or the client hangs up.
    private func streamBody(of response: LoopbackResponse, total: Int, to connection: Int32) {
        var head = "HTTP/1.1 200 OK\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += response.announcesLength ? "Content-Length: \(total)\r\n" : ""
        head += "Connection: close\r\n\r\n"
        guard sendAll(Array(head.utf8), to: connection) else { return }
        let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        var sent = 0
        while sent < total {
            let count = min(filler.count, total - sent)
            guard sendAll(Array(filler[..<count]), to: connection) else { return }
            sent += count
        }
    }

    private func sendAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that hung up must not kill the test process with SIGPIPE.
            let sent = bytes.withUnsafeBytes {
                send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Waits until `descriptor` is readable (true) or the stop signal arrives
    /// (false). With no descriptor, it is an interruptible sleep that returns
    /// true only when stopped.
    private func waitUntilReadable(_ descriptor: Int32?, timeoutMilliseconds: Int32) -> Bool {
        var polled = [pollfd(fd: stopSignalRead, events: Int16(POLLIN), revents: 0)]
        if let descriptor {
            polled.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
        }
        while true {
            let ready = poll(&polled, nfds_t(polled.count), timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            let stopped = polled[0].revents != 0
            if descriptor == nil { return stopped }
            return ready > 0 && !stopped
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, total))
    }

    // MARK: - Sockets

    /// Keeps the descriptor out of processes that other tests spawn, where it
    /// would hold the port or the connection open. (pipe2 and accept4, which
    /// set this atomically, are not visible from Swift's Glibc module.)
    static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// A TCP socket bound to 127.0.0.1 on a system-chosen port. Loopback only:
    /// a test server must never be reachable from the network.
    static func makeLoopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackServerError(operation: "socket", errorNumber: errno) }
        func fail(_ operation: String) -> LoopbackServerError {
            let error = LoopbackServerError(operation: operation, errorNumber: errno)
            close(descriptor)
            return error
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let addressSize = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, addressSize) }
        }
        guard bound == 0 else { throw fail("bind") }
        if listening {
            guard listen(descriptor, 128) == 0 else { throw fail("listen") }
        }
        var boundAddress = sockaddr_in()
        var boundSize = addressSize
        let named = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundSize) }
        }
        guard named == 0 else { throw fail("getsockname") }
        return (descriptor, Int(UInt16(bigEndian: boundAddress.sin_port)))
    }
}

private extension Substring {
    func trimmingCharacters(in characters: String) -> Substring {
        var text = self
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return text
    }
}
