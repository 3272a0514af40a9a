import CanopyCrawl
import Testing

struct CrawlErrorKindTests {
    @Test func fetchErrorsHaveTheirOwnKinds() {
        let cases: [(FetchError, String)] = [
            (.timedOut, "timeout"),
            (.bodyTooLarge(limit: 1024), "too large"),
            (.couldNotConnect("http://127.0.0.1:1/: refused"), "could not connect"),
            (.unsupportedScheme("ftp://x/"), "unsupported scheme"),
            (.invalidURL("http://"), "invalid URL"),
            (.invalidHeader("X Bad"), "invalid header"),
            (.tooManyRedirects(limit: 5), "too many redirects"),
            (.transport(code: 56, message: "recv failure"), "transfer failed"),
        ]
        for (error, kind) in cases {
            #expect(CrawlErrorKind.of(error: error.description, statusCode: nil) == kind, "\(error)")
        }
    }

    @Test func statusesRedirectsAndOtherErrors() {
        #expect(CrawlErrorKind.of(error: "HTTP 404", statusCode: 404) == "HTTP 404")
        #expect(CrawlErrorKind.of(error: "HTTP 503: Retry-After asks for 120 s, more than the 30 s the crawl waits at most; not retried", statusCode: 503) == "HTTP 503")
        #expect(CrawlErrorKind.of(error: "redirect loop: http://a/ → http://a/x → http://a/", statusCode: 302) == "redirect loop")
        #expect(CrawlErrorKind.of(error: "redirect to ::bad refused: not a URL", statusCode: 301) == "redirect refused")
        #expect(CrawlErrorKind.of(error: "more than 10 redirects", statusCode: 302) == "too many redirects")
        // Errors recorded by other parts of Canopy group by the words before their colon.
        #expect(CrawlErrorKind.of(error: "sign-in lost: the sign-in page came back after signing in again", statusCode: 200) == "sign-in lost")
        #expect(CrawlErrorKind.of(error: "something went wrong", statusCode: nil) == "other")
    }
}
