/// A credential value (a header or cookie value, usually from an environment variable)
/// that never shows itself: printing, dumping, interpolating or encoding it gives
/// "••••". Only `revealed()` gives the value, for the request that needs it.
public struct Secret: Sendable, Equatable, Encodable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public static let redacted = "••••"

    private let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The value itself: for building a request, never for a log or a report.
    public func revealed() -> String { value }

    public var description: String { Self.redacted }
    public var debugDescription: String { Self.redacted }
    /// No children, so `dump` and reflection-based printing cannot reach the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.redacted)
    }
}

/// A named credential: a request header or a cookie.
public struct Credential: Sendable, Equatable {
    public var name: String
    public var value: Secret

    public init(name: String, value: Secret) {
        self.name = name
        self.value = value
    }
}
