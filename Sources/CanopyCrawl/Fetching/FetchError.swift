/// Why a fetch produced no response. HTTP error statuses are not here: they
/// come back as a `FetchResponse`.
public enum FetchError: Error, Equatable, CustomStringConvertible {
    /// The URL (requested, or a redirect target) uses a scheme other than http or https.
    case unsupportedScheme(String)
    /// The URL cannot be parsed as an absolute URL with a host.
    case invalidURL(String)
    /// A request header has a name that is not an HTTP token, or a value with a line break.
    case invalidHeader(String)
    /// The body grew past `FetchRequest.maxBodyBytes`.
    case bodyTooLarge(limit: Int)
    /// The server redirected more than `FetchRequest.maxRedirects` times.
    case tooManyRedirects(limit: Int)
    /// `FetchRequest.timeout` or `connectTimeout` elapsed.
    case timedOut
    /// The host could not be resolved or reached; the text names the URL and the reason.
    case couldNotConnect(String)
    /// Any other libcurl failure: `code` is the CURLcode, `message` names the URL.
    case transport(code: Int, message: String)

    public var description: String {
        switch self {
        case .unsupportedScheme(let url):
            return "cannot fetch \(url): only http and https URLs are supported"
        case .invalidURL(let url):
            return "invalid URL \"\(url)\": expected an absolute http or https URL with a host"
        case .invalidHeader(let name):
            return "invalid request header \"\(name)\": the name must be an HTTP token and the value must not contain line breaks"
        case .bodyTooLarge(let limit):
            return "response body is larger than the limit of \(limit) bytes"
        case .tooManyRedirects(let limit):
            return "more than \(limit) redirects"
        case .timedOut:
            return "the request timed out"
        case .couldNotConnect(let detail):
            return "could not connect to \(detail)"
        case .transport(let code, let message):
            return "transfer failed: \(message) (curl error \(code))"
        }
    }
}
