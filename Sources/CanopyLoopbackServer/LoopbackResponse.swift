/// What the test server sends back for one request.
public struct LoopbackResponse: Sendable {
    public var status: Int
    /// Sent in this order. Content-Length is always computed from `body`, so a
    /// Content-Length given here is ignored (use `raw` to send a wrong one).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// When set, exactly these bytes are sent instead of a formatted response,
    /// and the connection is then closed, since their framing is unknown.
    /// For fault injection: truncated bodies, malformed status lines, …
    public var rawBytes: [UInt8]?
    /// Waited before anything is sent; cut short when the server stops.
    public var delay: Duration
    /// Close the connection after this response even if the client wants keep-alive.
    public var closesConnection: Bool
    /// Fault injection: send the bytes in this many pieces with `interval` between them
    /// (a slow drip, or a stall in the middle of the body).
    public var drip: (pieces: Int, interval: Duration)?
    /// Fault injection: after the head, stream this many filler bytes without holding them in
    /// memory (gigabyte bodies); `Content-Length` announces them unless `announcesLength` is false.
    public var streamedBodyBytes: Int?
    public var announcesLength = true
    /// Fault injection: reset the connection (TCP RST) instead of answering.
    public var resetsConnection = false

    public init(
        status: Int = 200,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        delay: Duration = .zero,
        closesConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.rawBytes = nil
        self.delay = delay
        self.closesConnection = closesConnection
    }

    public static func html(_ html: String, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(
            status: status,
            headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Array(html.utf8)
        )
    }

    public static func text(_ text: String, status: Int = 200) -> LoopbackResponse {
        LoopbackResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: Array(text.utf8)
        )
    }

    /// `location` is sent as is, so it may be relative ("/next") or absolute.
    public static func redirect(to location: String, status: Int = 302) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: [("Location", location)])
    }

    public static var notFound: LoopbackResponse {
        .text("Not Found", status: 404)
    }

    public static func raw(_ bytes: [UInt8]) -> LoopbackResponse {
        var response = LoopbackResponse()
        response.rawBytes = bytes
        return response
    }

    public static func raw(_ text: String) -> LoopbackResponse {
        raw(Array(text.utf8))
    }

    /// A response that resets the connection.
    public static var reset: LoopbackResponse {
        var response = LoopbackResponse()
        response.resetsConnection = true
        return response
    }

    /// A 200 whose body is `bytes` filler bytes, streamed.
    public static func streamed(bytes: Int, contentType: String = "text/html", announcesLength: Bool = true) -> LoopbackResponse {
        var response = LoopbackResponse(headers: [("Content-Type", contentType)])
        response.streamedBodyBytes = bytes
        response.announcesLength = announcesLength
        return response
    }

    /// The same response, sent in `pieces` parts `interval` apart.
    public func dripped(pieces: Int, interval: Duration) -> LoopbackResponse {
        var copy = self
        copy.drip = (max(1, pieces), interval)
        return copy
    }

    /// The same response, sent after waiting `delay`.
    public func delayed(by delay: Duration) -> LoopbackResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// The same response with one more header.
    public func withHeader(_ name: String, _ value: String) -> LoopbackResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }
}

extension LoopbackResponse {
    /// The bytes on the wire. `omitBody` is for HEAD requests, which get the
    /// headers (Content-Length included) but no body.
    func serialized(omitBody: Bool, closeAfterwards: Bool) -> [UInt8] {
        if let rawBytes { return rawBytes }
        // 1xx, 204 and 304 never carry a body, so they get no Content-Length either.
        let statusForbidsBody = (100..<200).contains(status) || status == 204 || status == 304
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        for (name, value) in headers {
            let lowercasedName = name.lowercased()
            if lowercasedName == "content-length" || lowercasedName == "connection" { continue }
            head += "\(name): \(value)\r\n"
        }
        if !statusForbidsBody {
            head += "Content-Length: \(body.count)\r\n"
        }
        if closeAfterwards {
            head += "Connection: close\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !omitBody && !statusForbidsBody {
            bytes += body
        }
        return bytes
    }

    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
