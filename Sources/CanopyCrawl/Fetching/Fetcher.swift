import CCurl

/// Fetches one URL over HTTP(S) with libcurl, following redirects within the
/// request's limits. Stateless, so one value can be shared by many threads;
/// each call uses its own curl handle.
public struct Fetcher: Sendable {
    public init() {}

    public func fetch(_ request: FetchRequest) throws(FetchError) -> FetchResponse {
        // First: URLs are checked with libcurl's own parser, which must be loaded.
        try CurlLibrary.ensureInitialized()
        try FetchURL.validate(request.url)
        for header in request.headers
        where !HTTPHeader.isValidName(header.name) || !HTTPHeader.isValidValue(header.value) {
            throw .invalidHeader(header.name)
        }
        let transfer = try CurlTransfer(request: request)
        return try transfer.perform()
    }
}

/// libcurl is loaded on first use (`CCurl.h` says why), and must be initialised once per
/// process before handles are used from several threads. Swift runs a static let's initializer
/// exactly once, under a lock, which is the guarantee curl_global_init needs.
enum CurlLibrary {
    private static let globalInitCode: CURLcode = canopy_curl_global_init(Int(CURL_GLOBAL_ALL))

    static func ensureInitialized() throws(FetchError) {
        if let loadError = canopy_curl_load_error() {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: String(cString: loadError))
        }
        let code = globalInitCode
        guard code == CURLE_OK else {
            throw .transport(
                code: Int(code.rawValue),
                message: "libcurl could not be initialised: \(String(cString: canopy_curl_easy_strerror(code)))"
            )
        }
    }
}
