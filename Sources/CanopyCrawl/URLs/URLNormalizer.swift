/// Parses, resolves and normalizes URLs the way a browser reads an `href`, then puts
/// them in the normal form of `CrawlURL`, so that de-duplication sees one URL per page.
///
/// Parsing follows the WHATWG URL rules for http(s) where they differ from RFC 3986:
/// leading and trailing spaces and controls are ignored, tabs and newlines anywhere are
/// removed, "\" counts as "/", and "http:page" relative to an http base is relative.
public struct URLNormalizer: Sendable, Hashable {
    /// Query parameter names to drop, as globs with `*`, matched ignoring ASCII case
    /// (e.g. "utm_*", "sessionid").
    public var strippedQueryParameters: [String]
    /// Sort query parameters by name (stable, so repeated names keep their order).
    /// Off by default: some servers read parameters in order.
    public var sortsQueryParameters: Bool

    public init(stripQueryParameters: [String] = [], sortQueryParameters: Bool = false) {
        self.strippedQueryParameters = stripQueryParameters
        self.sortsQueryParameters = sortQueryParameters
        strippedPatterns = stripQueryParameters.map { Array($0.utf8) }
    }

    private let strippedPatterns: [[UInt8]]

    public static func == (lhs: URLNormalizer, rhs: URLNormalizer) -> Bool {
        lhs.strippedQueryParameters == rhs.strippedQueryParameters && lhs.sortsQueryParameters == rhs.sortsQueryParameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(strippedQueryParameters)
        hasher.combine(sortsQueryParameters)
    }

    /// An absolute http(s) URL in normal form.
    public func normalize(_ text: String) throws(URLRejection) -> CrawlURL {
        try parse(text, base: nil)
    }

    /// `reference` (absolute or relative, as written in an `href`) resolved against
    /// `base` (the page URL, or its `<base href>`) and normalized.
    public func resolve(_ reference: String, against base: CrawlURL) throws(URLRejection) -> CrawlURL {
        try parse(reference, base: base)
    }

    /// `url` with this normalizer's query rules applied, for a URL made by another one.
    public func normalize(_ url: CrawlURL) -> CrawlURL {
        guard let query = url.query else { return url }
        return CrawlURL(scheme: url.scheme, host: url.host, port: url.port, path: url.path, query: normalizedQuery(Array(query.utf8)))
    }

    // MARK: Parsing

    private func parse(_ text: String, base: CrawlURL?) throws(URLRejection) -> CrawlURL {
        var input = Self.cleaned(text)
        if let fragment = input.firstIndex(of: UInt8(ascii: "#")) { input.removeSubrange(fragment...) }

        if let (scheme, afterColon) = Self.scheme(in: input) {
            guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
            let rest = input[afterColon...]
            // "http:page" against an http base is relative, as in browsers.
            if let base, base.scheme == scheme, !Self.startsWithSlash(rest) {
                return try relative(rest, base: base)
            }
            return try absolute(scheme: scheme, rest.drop(while: Self.isSlash))
        }
        guard let base else { throw .relativeWithoutBase }
        return try relative(input[...], base: base)
    }

    private func relative(_ reference: ArraySlice<UInt8>, base: CrawlURL) throws(URLRejection) -> CrawlURL {
        if reference.count >= 2, Self.isSlash(reference[reference.startIndex]), Self.isSlash(reference[reference.startIndex + 1]) {
            return try absolute(scheme: base.scheme, reference.drop(while: Self.isSlash))
        }
        let (pathPart, queryPart) = Self.splitQuery(reference)
        let path: [UInt8]
        var query = queryPart
        if pathPart.isEmpty {
            path = Array(base.path.utf8)
            if query == nil, let baseQuery = base.query { query = Array(baseQuery.utf8)[...] }
        } else if Self.isSlash(pathPart[pathPart.startIndex]) {
            path = Array(pathPart)
        } else {
            // Merge (RFC 3986 §5.2.3): the base path up to its last "/", then the reference.
            var basePath = base.path
            path = basePath.withUTF8 { basePath in
                let lastSlash = basePath.lastIndex(of: UInt8(ascii: "/")) ?? 0
                var merged: [UInt8] = []
                merged.reserveCapacity(lastSlash + 1 + pathPart.count)
                merged.append(contentsOf: basePath[...lastSlash])
                merged.append(contentsOf: pathPart)
                return merged
            }
        }
        return CrawlURL(
            scheme: base.scheme, host: base.host, port: base.port,
            path: Self.normalizedPath(path), query: query.flatMap { normalizedQuery(Array($0)) }
        )
    }

    /// `rest` is everything after "scheme://": authority, path, query.
    private func absolute(scheme: String, _ rest: ArraySlice<UInt8>) throws(URLRejection) -> CrawlURL {
        let authorityEnd = rest.firstIndex { Self.isSlash($0) || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { throw .credentialsInURL }
        let (host, port) = try Self.hostAndPort(authority, scheme: scheme)
        let (pathPart, queryPart) = Self.splitQuery(rest[authorityEnd...])
        return CrawlURL(
            scheme: scheme, host: host, port: port,
            path: Self.normalizedPath(Array(pathPart)), query: queryPart.flatMap { normalizedQuery(Array($0)) }
        )
    }

    // MARK: Parts

    /// Leading/trailing C0 controls and spaces dropped; tabs and newlines removed anywhere.
    private static func cleaned(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: { $0 > 0x20 }) else { return [] }
            let last = bytes.lastIndex(where: { $0 > 0x20 })!
            let trimmed = bytes[first...last]
            let isRemoved: (UInt8) -> Bool = { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            return trimmed.contains(where: isRemoved) ? trimmed.filter { !isRemoved($0) } : Array(trimmed)
        }
    }

    /// The lowercased scheme and the index after its ":" (RFC 3986 §3.1), if the input starts with one.
    private static func scheme(in input: [UInt8]) -> (String, Int)? {
        for (index, byte) in input.enumerated() {
            if byte == UInt8(ascii: ":") {
                guard index > 0 else { return nil }
                return (String(decoding: ASCII.lowercased(input[..<index]), as: UTF8.self), index + 1)
            }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (index > 0 && isOther) else { return nil }
        }
        return nil
    }

    private static func isSlash(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }

    private static func startsWithSlash(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.first.map(isSlash) ?? false
    }

    private static func splitQuery(_ bytes: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>?) {
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (bytes, nil) }
        return (bytes[..<mark], bytes[(mark + 1)...])
    }

    private static func hostAndPort(_ authority: ArraySlice<UInt8>, scheme: String) throws(URLRejection) -> (String, Int?) {
        var hostPart = authority
        var portPart: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalidHost(String(decoding: authority, as: UTF8.self))
            }
            hostPart = authority[...close]
            let afterClose = authority[(close + 1)...]
            if !afterClose.isEmpty {
                guard afterClose.first == UInt8(ascii: ":") else { throw .invalidHost(String(decoding: authority, as: UTF8.self)) }
                portPart = afterClose.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[..<colon]
            portPart = authority[(colon + 1)...]
        }
        let host = try normalizedHost(hostPart)
        var port: Int?
        if let portPart, !portPart.isEmpty {
            let text = String(decoding: portPart, as: UTF8.self)
            guard portPart.count <= 5, portPart.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(text), value <= 65535
            else { throw .invalidPort(text) }
            port = value == CrawlURL.defaultPort(forScheme: scheme) ? nil : value
        }
        return (host, port)
    }

    private static func normalizedHost(_ raw: ArraySlice<UInt8>) throws(URLRejection) -> String {
        guard !raw.isEmpty else { throw .missingHost }
        let host = ASCII.lowercased(raw.contains(UInt8(ascii: "%")) ? PercentEncoding.decode(raw) : Array(raw))
        let text = String(decoding: host, as: UTF8.self)
        if host.first == UInt8(ascii: "[") {
            let inside = host.dropFirst().dropLast()
            let isIPv6Byte: (UInt8) -> Bool = {
                PercentEncoding.hexValue($0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
            }
            guard host.last == UInt8(ascii: "]"), inside.contains(UInt8(ascii: ":")), inside.allSatisfy(isIPv6Byte) else {
                throw .invalidHost(text)
            }
            return text
        }
        // WHATWG's forbidden host code points; non-ASCII (IDN) stays as given.
        let forbidden: Set<UInt8> = Set("#%/:<>?@[\\]^|".utf8)
        guard !host.contains(where: { $0 <= 0x20 || $0 == 0x7F || forbidden.contains($0) }) else {
            throw .invalidHost(text)
        }
        return text
    }

    /// Backslashes as slashes, percent-encoding normalized, dot segments removed
    /// (after decoding, so "%2e%2E" counts as ".."), and "/" for an empty path.
    static func normalizedPath(_ raw: [UInt8]) -> String {
        var encoded: [UInt8]
        if raw.allSatisfy(isKeptAsWritten) {
            // Most links' paths: nothing to turn, decode or encode, so no copy of them is made.
            encoded = raw
        } else {
            var bytes = raw
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\\") { bytes[index] = UInt8(ascii: "/") }
            encoded = PercentEncoding.normalize(bytes, as: .path)
        }
        if encoded.first != UInt8(ascii: "/") { encoded.insert(UInt8(ascii: "/"), at: 0) }
        return String(decoding: removingDotSegments(encoded), as: UTF8.self)
    }

    /// A byte of a path that its normal form keeps as it is: printable ASCII that is no escape's
    /// "%", no backslash and not in the path's percent-encode set.
    private static func isKeptAsWritten(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "\\") && !PercentEncoding.Component.path.mustEncode(byte)
    }

    /// RFC 3986 §5.2.4 for a path that starts with "/". Every link of every crawled page comes
    /// through here, so segments are ranges of the path, not arrays of their own.
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        func endsSegment(_ index: Int) -> Bool { index == path.count || path[index] == slash }
        // Most paths have no "." or ".." segment: then there is nothing to do.
        var hasDotSegment = false
        for index in path.indices.dropFirst() where path[index] == dot && path[index - 1] == slash {
            if endsSegment(index + 1) || (path[index + 1] == dot && endsSegment(index + 2)) {
                hasDotSegment = true
                break
            }
        }
        guard hasDotSegment else { return path }

        // The kept segments, each written with the "/" before it, so that ".." takes back the
        // last one by cutting at the result's last "/": one pass, no list of segments.
        var result: [UInt8] = []
        result.reserveCapacity(path.count)
        var start = 1
        while true {
            var end = start
            while end < path.count, path[end] != slash { end += 1 }
            let isLast = end == path.count
            switch end - start {
            case 1 where path[start] == dot:
                if isLast { result.append(slash) }
            case 2 where path[start] == dot && path[start + 1] == dot:
                if let lastKept = result.lastIndex(of: slash) { result.removeSubrange(lastKept...) }
                if isLast { result.append(slash) }
            default:
                result.append(slash)
                result.append(contentsOf: path[start..<end])
            }
            if isLast { break }
            start = end + 1
        }
        return result.isEmpty ? [slash] : result
    }

    /// Percent-encoding normalized, empty parameters and stripped names dropped,
    /// optionally sorted by name; nil when nothing remains.
    private func normalizedQuery(_ raw: [UInt8]) -> String? {
        let encoded = PercentEncoding.normalize(raw, as: .query)
        var parameters = encoded.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        if !strippedPatterns.isEmpty {
            parameters.removeAll { parameter in
                let name = PercentEncoding.decode(parameter.prefix { $0 != UInt8(ascii: "=") })
                return strippedPatterns.contains { ASCII.globMatches($0, name) }
            }
        }
        if sortsQueryParameters {
            // Array.sort is not stable, so sort indices to keep repeated names in order.
            let names = parameters.map { $0.prefix { $0 != UInt8(ascii: "=") } }
            let order = parameters.indices.sorted { a, b in
                names[a].lexicographicallyPrecedes(names[b]) || (names[a].elementsEqual(names[b]) && a < b)
            }
            parameters = order.map { parameters[$0] }
        }
        guard !parameters.isEmpty else { return nil }
        return String(decoding: Array(parameters.joined(separator: [UInt8(ascii: "&")])), as: UTF8.self)
    }
}
