import CCurl

/// URL checks done before libcurl is involved, and redirect-target resolution
/// with libcurl's own URL parser (so it agrees with what curl follows).
enum FetchURL {
    static let allowedSchemes: Set<String> = ["http", "https"]

    /// Throws unless `url` is an absolute http(s) URL with a host. The scheme is
    /// checked first, from the text alone, so no other protocol ever reaches curl.
    static func validate(_ url: String) throws(FetchError) {
        guard let scheme = scheme(of: url) else { throw .invalidURL(url) }
        guard allowedSchemes.contains(scheme) else { throw .unsupportedScheme(url) }
        guard let parsed = CurlURLHandle(), parsed.set(url, flags: 0) else {
            throw .invalidURL(url)
        }
    }

    /// The lowercased scheme when `url` starts with one (RFC 3986 §3.1:
    /// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), otherwise nil.
    static func scheme(of url: String) -> String? {
        var scheme: [UInt8] = []
        for byte in url.utf8 {
            if byte == UInt8(ascii: ":") {
                return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self).lowercased()
            }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOtherSchemeCharacter = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (!scheme.isEmpty && isOtherSchemeCharacter) else { return nil }
            scheme.append(byte)
        }
        return nil
    }

    /// `reference` (absolute or relative, as in a Location header) resolved
    /// against `base`; schemes curl would refuse still resolve, so a refused
    /// redirect can be reported with its real target.
    static func resolve(_ reference: String, against base: String) -> String? {
        let flags = UInt32(CURLU_NON_SUPPORT_SCHEME)
        guard let url = CurlURLHandle(), url.set(base, flags: flags), url.set(reference, flags: flags) else {
            return nil
        }
        return url.fullURL()
    }
}

/// Owns one CURLU handle from libcurl's URL API and frees it when done.
private final class CurlURLHandle {
    private let handle: OpaquePointer

    init?() {
        guard let handle = canopy_curl_url() else { return nil }
        self.handle = handle
    }

    deinit { canopy_curl_url_cleanup(handle) }

    /// Sets the whole URL; a relative one resolves against the URL already set.
    func set(_ url: String, flags: UInt32) -> Bool {
        canopy_curl_url_set(handle, CURLUPART_URL, url, flags) == CURLUE_OK
    }

    func fullURL() -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard canopy_curl_url_get(handle, CURLUPART_URL, &text, 0) == CURLUE_OK, let text else { return nil }
        defer { canopy_curl_free(text) }
        return String(cString: text)
    }
}
