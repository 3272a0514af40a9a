import CCurl

/// Fetches one URL over HTTP(S) with libcurl, following redirects within the
/// request's limits. Stateless, so one value can be shared by many threads;
/// each call uses its own curl handle.
public struct Fetcher: Sendable {
    public init() {}

    public func fetch(_ request: FetchRequest) throws(FetchError) -> FetchResponse {
        try FetchURL.validate(request.url)
        for header in request.headers
        where !HTTPHeader.isValidName(header.name) || !HTTPHeader.isValidValue(header.value) {
            throw .invalidHeader(header.name)
        }
        try CurlLibrary.ensureInitialized()
        let transfer = try CurlTransfer(request: request)
        return try transfer.perform()
    }
}

/// libcurl must be initialised once per process before handles are used from
/// several threads. Swift runs a static let's initializer exactly once, under
/// a lock, which is the guarantee curl_global_init needs.
enum CurlLibrary {
    private static let globalInitCode: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    static func ensureInitialized() throws(FetchError) {
        let code = globalInitCode
        guard code == CURLE_OK else {
            throw .transport(
                code: Int(code.rawValue),
                message: "libcurl could not be initialised: \(String(cString: curl_easy_strerror(code)))"
            )
        }
    }
}
