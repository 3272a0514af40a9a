import CCurl

/// One fetch on one curl easy handle. It lives on one thread only (the caller's
/// for `perform`, the event loop's in a multi handle): libcurl runs the callbacks
/// on the thread that drives the transfer, so the state they fill in needs no locking.
final class CurlTransfer {
    /// Status line and headers of one response, with the URL it answered.
    private struct ResponseHead {
        var url: String
        var status: Int
        var headers: [HTTPHeader] = []

        var isInterim: Bool { status < 200 }
        var isRedirect: Bool { (300..<400).contains(status) }
    }

    let request: FetchRequest
    /// The easy handle, for adding to a multi handle.
    let handle: UnsafeMutableRawPointer
    private var customHeaders: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes a detailed message here when a transfer fails.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    private var responses: [ResponseHead] = []
    private var body: [UInt8] = []
    private var bodyLimitExceeded = false
    /// Header lines after the body are trailers, not headers of the response.
    private var bodyStarted = false

    init(request: FetchRequest) throws(FetchError) {
        guard let handle = canopy_curl_easy_init() else {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "\(request.url): could not create a curl handle")
        }
        self.request = request
        self.handle = handle
        let errorBufferSize = Int(CURL_ERROR_SIZE)
        errorBuffer = .allocate(capacity: errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: errorBufferSize)
        try configure()
    }

    deinit {
        canopy_curl_easy_cleanup(handle)
        canopy_curl_slist_free_all(customHeaders)
        errorBuffer.deallocate()
    }

    func perform() throws(FetchError) -> FetchResponse {
        let clock = ContinuousClock()
        let start = clock.now
        // The callbacks reach this object through an unretained pointer; the
        // method's own reference keeps it alive until curl_easy_perform returns.
        let code = withExtendedLifetime(self) { canopy_curl_easy_perform(handle) }
        return try complete(code: code, elapsed: Self.seconds(clock.now - start))
    }

    /// The outcome of the transfer once libcurl reports it done with `code`.
    func complete(code: CURLcode, elapsed: Double) throws(FetchError) -> FetchResponse {
        guard code == CURLE_OK else { throw error(for: code) }
        return try response(elapsed: elapsed)
    }

    // MARK: - Configuration

    private func configure() throws(FetchError) {
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        // Without this, curl uses signals for DNS timeouts, which is unsafe with threads.
        try set(CURLOPT_NOSIGNAL, 1)
        // Refuse every other protocol, both for the URL and for redirect targets
        // (a redirect to file:// must never read local files).
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // HTTP/2 over TLS where the server offers it in ALPN (so a multi handle with
        // CURLMOPT_PIPELINING multiplexes a host's requests on one connection), HTTP/1.1 for
        // cleartext: h2c upgrades are rare and cost a round trip. libcurl's own default has
        // changed between versions, so it is set rather than assumed. A libcurl built without
        // HTTP/2 refuses the option and speaks HTTP/1.1, which is fine, hence no check.
        _ = canopy_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        try set(CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
        try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout))
        try set(CURLOPT_USERAGENT, request.userAgent)
        if request.acceptCompressed {
            // The empty string means "every encoding this libcurl can decode".
            try set(CURLOPT_ACCEPT_ENCODING, "")
        }
        // Lets curl refuse a too-long body from Content-Length before reading it;
        // bodies of unknown length are capped in the write callback.
        try setOffset(CURLOPT_MAXFILESIZE_LARGE, max(0, request.maxBodyBytes))
        // Through an HTTPS proxy, keeps the proxy's "200 Connection established"
        // out of the header callback so it is not mistaken for a response.
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try configureCustomHeaders()
        try configureCallbacks()
        if let body = request.postBody {
            // The size first, so that COPYPOSTFIELDS copies exactly these bytes, NULs included.
            try setOffset(CURLOPT_POSTFIELDSIZE_LARGE, body.count)
            let code = body.withUnsafeBytes { bytes in
                canopy_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
            try check(code, CURLOPT_COPYPOSTFIELDS)
        }
    }

    private func configureCustomHeaders() throws(FetchError) {
        guard !request.headers.isEmpty else { return }
        for header in request.headers {
            // "Name:" would tell curl to remove the header; "Name;" sends it empty.
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            guard let extended = canopy_curl_slist_append(customHeaders, line) else {
                throw .transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "\(request.url): could not build the header list")
            }
            customHeaders = extended
        }
        try check(canopy_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, customHeaders), CURLOPT_HTTPHEADER)
    }

    private func configureCallbacks() throws(FetchError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(canopy_curl_setopt_write_callback(handle) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }, CURLOPT_WRITEFUNCTION)
        try set(CURLOPT_WRITEDATA, pointer: context)
        try check(canopy_curl_setopt_header_callback(handle) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let line = UnsafeRawBufferPointer(start: data, count: size * count)
            transfer.receiveHeaderLine(line)
            return line.count
        }, CURLOPT_HEADERFUNCTION)
        try set(CURLOPT_HEADERDATA, pointer: context)
    }

    private func set(_ option: CURLoption, _ value: Int) throws(FetchError) {
        try check(canopy_curl_setopt_long(handle, option, value), option)
    }

    private func setOffset(_ option: CURLoption, _ value: Int) throws(FetchError) {
        try check(canopy_curl_setopt_offt(handle, option, curl_off_t(value)), option)
    }

    private func set(_ option: CURLoption, _ value: String) throws(FetchError) {
        try check(canopy_curl_setopt_string(handle, option, value), option)
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer) throws(FetchError) {
        try check(canopy_curl_setopt_pointer(handle, option, pointer), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(FetchError) {
        guard code == CURLE_OK else {
            throw .transport(
                code: Int(code.rawValue),
                message: "\(request.url): libcurl refused option \(option.rawValue): \(Self.describe(code))"
            )
        }
    }

    // MARK: - Callbacks

    /// Returns how many bytes were taken; anything short of all of them makes
    /// curl abort with CURLE_WRITE_ERROR, which is how the body cap stops a
    /// transfer of unknown length.
    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        if !bodyStarted { reserveAnnouncedLength() }
        bodyStarted = true
        guard chunk.count <= request.maxBodyBytes - body.count else {
            bodyLimitExceeded = true
            return 0
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// Sizes the body for the length the response announces (compressed, when it is: a lower
    /// bound then), so a 6 MB page is not copied through doubling buffers that peak at
    /// one and a half times its size.
    private func reserveAnnouncedLength() {
        var length: curl_off_t = -1
        guard canopy_curl_getinfo_offt(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK,
              length > 0, length <= request.maxBodyBytes
        else { return }
        body.reserveCapacity(Int(length))
    }

    /// Called once per header line of every response, redirects and 1xx included.
    /// A status line opens a new response; the lines after it belong to it.
    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var line = String(decoding: bytes, as: UTF8.self)
        while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" {
            line.removeLast()
        }
        if line.hasPrefix("HTTP/"), let status = Self.statusCode(ofStatusLine: line) {
            responses.append(ResponseHead(url: currentURL() ?? request.url, status: status))
            // A response that ends up redirected never delivers its body, but a
            // fresh start per response keeps the cap about the final body alone.
            body.removeAll(keepingCapacity: true)
            bodyStarted = false
            return
        }
        guard !line.isEmpty, !bodyStarted, !responses.isEmpty else { return }
        let lastIndex = responses.count - 1
        if line.first == " " || line.first == "\t" {
            // Obsolete line folding (RFC 9112 §5.2): the line continues the previous value.
            guard !responses[lastIndex].headers.isEmpty else { return }
            let continuation = Self.trimmingWhitespace(Substring(line))
            let headerIndex = responses[lastIndex].headers.count - 1
            responses[lastIndex].headers[headerIndex].value += " " + continuation
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = Self.trimmingWhitespace(line[line.index(after: colon)...])
        responses[lastIndex].headers.append(HTTPHeader(name: name, value: value))
    }

    // MARK: - Results

    private func response(elapsed: Double) throws(FetchError) -> FetchResponse {
        let heads = responses.filter { !$0.isInterim }
        guard let finalHead = heads.last else {
            throw .transport(code: Int(CURLE_WEIRD_SERVER_REPLY.rawValue), message: "\(request.url): no HTTP response was received")
        }
        var status = 0
        _ = canopy_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        // Each response is paired with the one after it: that one answered the
        // URL the redirect pointed at.
        let chain = zip(heads, heads.dropFirst()).map { redirecting, next in
            Redirect(from: redirecting.url, status: redirecting.status, to: next.url)
        }
        return FetchResponse(
            requestedURL: request.url,
            finalURL: currentURL() ?? finalHead.url,
            status: status == 0 ? finalHead.status : status,
            headers: finalHead.headers,
            body: takeBody(),
            redirectChain: chain,
            elapsed: elapsed
        )
    }

    /// The body, moved into the response: the transfer lives on in the fetch loop for a moment
    /// after its completion is handed to a worker, which then would not be its only owner.
    private func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    private func error(for code: CURLcode) -> FetchError {
        if bodyLimitExceeded || code == CURLE_FILESIZE_EXCEEDED {
            return .bodyTooLarge(limit: request.maxBodyBytes)
        }
        let url = currentURL() ?? request.url
        let message = curlMessage(for: code)
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Also what curl reports for a reply that is not HTTP at all, so it
            // only means a refused scheme when a redirect pointed at one.
            if let target = refusedRedirectTarget() {
                return .unsupportedScheme(target)
            }
            // "Received HTTP/0.9 when not allowed": nothing like a status line came back.
            if responses.isEmpty, message.contains("HTTP/0.9") {
                return .transport(code: Int(code.rawValue), message: "\(url): the reply is not HTTP: it does not start with a status line")
            }
            return .transport(code: Int(code.rawValue), message: "\(url): the reply is not valid HTTP: \(message)")
        case CURLE_WEIRD_SERVER_REPLY:
            return .transport(code: Int(code.rawValue), message: "\(url): the reply is not valid HTTP: \(message)")
        case CURLE_RECV_ERROR where message.contains("chunked-encoding"):
            // Otherwise a receive error is the connection's fault (a reset), not the reply's.
            return .transport(code: Int(code.rawValue), message: "\(url): the reply is not valid HTTP: \(message)")
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: max(0, request.maxRedirects))
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotConnect("\(url) (\(message))")
        case CURLE_URL_MALFORMAT:
            return .invalidURL(lastRedirectLocation().map { $0.location } ?? url)
        default:
            return .transport(code: Int(code.rawValue), message: "\(url): \(message)")
        }
    }

    /// The absolute target of the last redirect when its scheme is one curl was
    /// told to refuse.
    private func refusedRedirectTarget() -> String? {
        guard let (location, base) = lastRedirectLocation() else { return nil }
        let target = FetchURL.resolve(location, against: base) ?? location
        guard let scheme = FetchURL.scheme(of: target), !FetchURL.allowedSchemes.contains(scheme) else {
            return nil
        }
        return target
    }

    private func lastRedirectLocation() -> (location: String, base: String)? {
        guard let last = responses.last, last.isRedirect,
              let location = last.headers.last(where: { $0.hasName("Location") })?.value
        else { return nil }
        return (location, last.url)
    }

    /// The URL curl is working on right now (during a header callback: the URL
    /// whose response is arriving).
    private func currentURL() -> String? {
        var url: UnsafePointer<CChar>?
        guard canopy_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url else {
            return nil
        }
        return String(cString: url)
    }

    private func curlMessage(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? Self.describe(code) : detail
    }

    // MARK: - Helpers

    private static func describe(_ code: CURLcode) -> String {
        String(cString: canopy_curl_easy_strerror(code))
    }

    /// "HTTP/1.1 301 Moved Permanently" or "HTTP/2 200" → the status code.
    private static func statusCode(ofStatusLine line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[1].count == 3, let status = Int(parts[1]) else { return nil }
        return status
    }

    private static func trimmingWhitespace(_ text: Substring) -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isWhitespace($0) }),
              let end = text.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(text[start...end])
    }

    /// curl reads 0 as "no limit", so a finite limit is at least 1 ms, and
    /// infinity (or NaN) is no limit.
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        let milliseconds = (seconds * 1000).rounded(.up)
        guard milliseconds < Double(Int32.max) else { return 0 }
        return max(1, Int(milliseconds))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
