import Foundation

/// A request as the test server received it.
public struct LoopbackRequest: Sendable {
    public let method: String
    /// The request target as sent, query included, e.g. "/search?q=a".
    public let path: String
    /// "HTTP/1.1" or "HTTP/1.0".
    public let version: String
    /// Header fields in the order received, names as spelled by the client.
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]
    /// Which accepted connection carried the request, counting from 1, so a test
    /// can tell whether the client reused a connection.
    public let connectionNumber: Int
    /// When the server finished reading the request, for checks of pacing.
    public let receivedAt: Date

    public init(
        method: String,
        path: String,
        version: String = "HTTP/1.1",
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        connectionNumber: Int = 1
    ) {
        self.method = method
        self.path = path
        self.version = version
        self.headers = headers
        self.body = body
        self.connectionNumber = connectionNumber
        self.receivedAt = Date()
    }

    /// The path without its query string.
    public var pathWithoutQuery: String {
        path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
    }

    /// The first value of the named header, matching the name case-insensitively.
    public func header(_ name: String) -> String? {
        headerValues(name).first
    }

    /// Every value of the named header, in order.
    public func headerValues(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}
