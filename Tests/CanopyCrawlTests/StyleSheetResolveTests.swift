import Testing

@testable import CanopyCrawl

/// A sheet's address as the cache and the digest know it: absolute, without its fragment.
struct StyleSheetResolveTests {
    let fetcher = StyleSheetFetcher { _ in nil }

    @Test func relativeAddressesResolveAgainstThePageAndLoseTheirFragment() {
        #expect(fetcher.resolve("../style.css#print", relativeTo: "http://127.0.0.1:8081/docs/a/page.html") == "http://127.0.0.1:8081/docs/style.css")
        #expect(fetcher.resolve("style.css", relativeTo: "http://127.0.0.1:8081/docs/page.html") == "http://127.0.0.1:8081/docs/style.css")
        #expect(fetcher.resolve("/s.css?v=2#a#b", relativeTo: "http://127.0.0.1:8081/x/y") == "http://127.0.0.1:8081/s.css?v=2")
        #expect(fetcher.resolve("http://127.0.0.1:8081/%C3%A9t%C3%A9.css#x", relativeTo: nil) == "http://127.0.0.1:8081/%C3%A9t%C3%A9.css")
        #expect(fetcher.resolve("http://127.0.0.1:8081/plain.css", relativeTo: nil) == "http://127.0.0.1:8081/plain.css")
    }
}
