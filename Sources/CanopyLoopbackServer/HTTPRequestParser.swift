/// Parses HTTP/1.x requests out of the bytes received on a connection.
enum HTTPRequestParser {
    enum Outcome {
        /// More bytes are needed.
        case incomplete
        case request(LoopbackRequest)
        /// The request cannot be served; answer with this status and close.
        case failed(status: Int)
    }

    /// Takes one complete request off the front of `buffer`, leaving any bytes
    /// of the next (pipelined) request in place. `scanned` is how far earlier calls looked for
    /// the end of the head, so a head arriving in many pieces is searched once, not once a piece.
    static func parse(_ buffer: inout [UInt8], scanned: inout Int, maxHeadBytes: Int, connectionNumber: Int) -> Outcome {
        guard let headEnd = endOfHead(in: buffer, from: max(0, scanned - 3)) else {
            scanned = buffer.count
            return buffer.count > maxHeadBytes ? .failed(status: 431) : .incomplete
        }
        guard headEnd <= maxHeadBytes else { return .failed(status: 431) }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        let requestLine = lines.popFirst().map { $0.split(separator: " ", omittingEmptySubsequences: false) } ?? []
        guard requestLine.count == 3, !requestLine[0].isEmpty, !requestLine[1].isEmpty,
              requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0"
        else { return .failed(status: 400) }

        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                return .failed(status: 400)
            }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append((String(line[..<colon]), String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())))
        }
        let probe = LoopbackRequest(method: "", path: "", headers: headers)
        // Request bodies are only ever framed by Content-Length in these tests;
        // chunked uploads are refused rather than misread.
        if probe.header("Transfer-Encoding") != nil {
            return .failed(status: 501)
        }
        let contentLength: Int
        if let declared = probe.header("Content-Length") {
            guard let length = Int(declared), length >= 0 else { return .failed(status: 400) }
            contentLength = length
        } else {
            contentLength = 0
        }
        let bodyStart = headEnd + 4
        guard buffer.count - bodyStart >= contentLength else { return .incomplete }
        let body = Array(buffer[bodyStart..<(bodyStart + contentLength)])
        buffer.removeFirst(bodyStart + contentLength)
        scanned = 0
        return .request(LoopbackRequest(
            method: String(requestLine[0]),
            path: String(requestLine[1]),
            version: String(requestLine[2]),
            headers: headers,
            body: body,
            connectionNumber: connectionNumber
        ))
    }

    /// Index of the "\r\n\r\n" that ends the request head, looking from `start` on.
    private static func endOfHead(in buffer: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= 4, start <= buffer.count - 4 else { return nil }
        for index in start...(buffer.count - 4)
        where buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D && buffer[index + 3] == 0x0A {
            return index
        }
        return nil
    }
}
