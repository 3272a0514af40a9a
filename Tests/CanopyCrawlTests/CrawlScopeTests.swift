import CanopyCrawl
import Testing

@Suite("Crawl scope")
struct CrawlScopeTests {
    func url(_ text: String) throws -> CrawlURL { try CrawlURL(text) }

    @Test("by default only the start URLs' origins are in scope")
    func sameOrigin() throws {
        let scope = CrawlScope(startURLs: [try url("https://shop.test/en/"), try url("https://blog.test:8443/")])
        #expect(scope.decision(for: try url("https://shop.test/other")) == .inScope)
        #expect(scope.decision(for: try url("https://blog.test:8443/post")) == .inScope)
        #expect(scope.decision(for: try url("http://shop.test/en/")) == .offOrigin)
        #expect(scope.decision(for: try url("https://shop.test:444/")) == .offOrigin)
        #expect(scope.decision(for: try url("https://www.shop.test/")) == .offOrigin)
        #expect(scope.decision(for: try url("https://blog.test/")) == .offOrigin)
    }

    @Test("listed origins, and origins added later (after a redirect), are in scope too")
    func extraOrigins() throws {
        var scope = CrawlScope(startURLs: [try url("http://shop.test/")], extraOrigins: [try Origin("https://cdn.shop.test")])
        #expect(scope.contains(try url("https://cdn.shop.test/x")))
        #expect(!scope.contains(try url("https://shop.test/")))
        scope.addOrigin(try url("https://shop.test/").origin)
        #expect(scope.contains(try url("https://shop.test/")))
    }

    @Test("a host added on its own is in scope on every scheme and port, and no other host is")
    func wholeHosts() throws {
        var scope = CrawlScope(startURLs: [try url("http://shop.test/a")])
        scope.addHost("Shop.Test")
        #expect(scope.contains(try url("https://shop.test/a")))
        #expect(scope.contains(try url("http://shop.test:8080/a")))
        #expect(scope.decision(for: try url("https://www.shop.test/a")) == .offOrigin)
        #expect(scope.decision(for: try url("https://shop.test.evil.example/a")) == .offOrigin)
    }

    @Test("exclude patterns win over include patterns; with includes, anything else is not included")
    func includeAndExclude() throws {
        let scope = CrawlScope(
            startURLs: [try url("https://shop.test/")],
            include: [try URLPattern("/docs/"), try URLPattern("re:/blog/\\d{4}/")],
            exclude: [try URLPattern("/docs/internal"), try URLPattern("re:\\.pdf$"), try URLPattern("/search?")]
        )
        #expect(scope.decision(for: try url("https://shop.test/docs/a")) == .inScope)
        #expect(scope.decision(for: try url("https://shop.test/blog/2024/post")) == .inScope)
        #expect(scope.decision(for: try url("https://shop.test/blog/latest")) == .notIncluded)
        #expect(scope.decision(for: try url("https://shop.test/docs/internal/x")) == .excludedByPattern)
        #expect(scope.decision(for: try url("https://shop.test/docs/manual.pdf")) == .excludedByPattern)
        #expect(scope.decision(for: try url("https://shop.test/docs/manual.pdf?v=2")) == .inScope)
        #expect(scope.decision(for: try url("https://other.test/docs/a")) == .offOrigin)
        #expect(CrawlScope.Decision.excludedByPattern.description == "excluded-by-pattern")
    }

    @Test("a path prefix matches the path and query, percent-encoding normalized")
    func pathPrefixes() throws {
        #expect(try URLPattern("/caf\u{E9}/").matches(url("https://a.test/caf%c3%a9/menu")))
        #expect(try URLPattern("/%7Euser").matches(url("https://a.test/~user/x")))
        #expect(try URLPattern("/search?q=").matches(url("https://a.test/search?q=shoes")))
        #expect(try !URLPattern("/search?q=").matches(url("https://a.test/search")))
        #expect(try !URLPattern("/docs/").matches(url("https://a.test/Docs/")))
    }

    @Test("a regular expression is searched for in the whole normalized URL")
    func regexes() throws {
        let pattern = try URLPattern("re:^https://a\\.test/(en|fr)/")
        #expect(try pattern.matches(url("HTTPS://A.TEST/fr/page")))
        #expect(try !pattern.matches(url("https://a.test/de/page")))
        #expect(try URLPattern("re:[?&]page=\\d+").matches(url("https://a.test/list?sort=a&page=3")))
    }

    @Test("a pattern is a path prefix or re:…, and a bad regex says why")
    func invalidPatterns() {
        #expect(throws: URLPatternError.self) { try URLPattern("docs/") }
        #expect(throws: URLPatternError.self) { try URLPattern("re:") }
        #expect {
            try URLPattern("re:(unclosed")
        } throws: { error in
            let error = error as? URLPatternError
            return error?.pattern == "re:(unclosed" && error?.message.hasPrefix("invalid regular expression") == true
        }
    }
}
