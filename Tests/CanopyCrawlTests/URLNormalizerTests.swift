@testable import CanopyCrawl
import Foundation
import Testing

@Suite("URL normalization")
struct URLNormalizerTests {
    let normalizer = URLNormalizer()

    func normalized(_ text: String) throws -> String {
        try normalizer.normalize(text).string
    }

    @Test("scheme and host are lowercased, the path keeps its case", arguments: [
        ("HTTP://Example.COM/Path/To", "http://example.com/Path/To"),
        ("hTTpS://WWW.Example.com", "https://www.example.com/"),
    ])
    func caseOfSchemeAndHost(input: String, expected: String) throws {
        #expect(try normalized(input) == expected)
    }

    @Test("default ports are dropped, others kept", arguments: [
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:80/a", "https://example.com:80/a"),
        ("http://example.com:8080", "http://example.com:8080/"),
        ("http://example.com:/a", "http://example.com/a"),
        ("http://example.com:0080/a", "http://example.com/a"),
    ])
    func ports(input: String, expected: String) throws {
        #expect(try normalized(input) == expected)
    }

    @Test("dot segments are removed, escaped dots included", arguments: [
        ("http://a.com/a/b/../c/./d", "http://a.com/a/c/d"),
        ("http://a.com/a/b/..", "http://a.com/a/"),
        ("http://a.com/a/b/.", "http://a.com/a/b/"),
        ("http://a.com/../../x", "http://a.com/x"),
        ("http://a.com/a/%2e%2E/b", "http://a.com/b"),
        ("http://a.com/a//b", "http://a.com/a//b"),
    ])
    func dotSegments(input: String, expected: String) throws {
        #expect(try normalized(input) == expected)
    }

    @Test("an empty path becomes / and the fragment is dropped", arguments: [
        ("http://a.com", "http://a.com/"),
        ("http://a.com?x=1", "http://a.com/?x=1"),
        ("http://a.com/page#section-2", "http://a.com/page"),
        ("http://a.com/page?x=1#frag?not=query", "http://a.com/page?x=1"),
        ("http://a.com/page?", "http://a.com/page"),
    ])
    func emptyPathAndFragment(input: String, expected: String) throws {
        #expect(try normalized(input) == expected)
    }

    @Test("percent-encoding is normalized without double encoding", arguments: [
        ("http://a.com/%7euser/%41%62", "http://a.com/~user/Ab"),
        ("http://a.com/a%2fb", "http://a.com/a%2Fb"),
        ("http://a.com/%e2%82%ac", "http://a.com/%E2%82%AC"),
        ("http://a.com/%25", "http://a.com/%25"),
        ("http://a.com/100%", "http://a.com/100%25"),
        ("http://a.com/%zz", "http://a.com/%25zz"),
        ("http://a.com/caf\u{E9} menu", "http://a.com/caf%C3%A9%20menu"),
        ("http://a.com/a<b>", "http://a.com/a%3Cb%3E"),
        ("http://a.com/s?q=a b&r=%7e&s=%2b", "http://a.com/s?q=a%20b&r=~&s=%2B"),
    ])
    func percentEncoding(input: String, expected: String) throws {
        #expect(try normalized(input) == expected)
    }

    @Test func normalizingTwiceChangesNothing() throws {
        let inputs = [
            "HTTP://A.com:80/x/../%7ey/%2F?b=%20&a", "https://b.com/caf\u{E9}?q=\u{E9}", "http://c.com/100%/%%41",
            "http://[::1]:8080/a/./b", "http://d.com/a%2e%2e/b",
        ]
        for input in inputs {
            let once = try normalized(input)
            #expect(try normalized(once) == once, "\(input)")
        }
    }

    @Test("internationalized host names are left as given, ASCII letters lowercased")
    func internationalizedHost() throws {
        let url = try normalizer.normalize("http://B\u{FC}cher.Example/")
        #expect(url.host == "b\u{FC}cher.example")
        #expect(try normalized("http://xn--bcher-kva.example/") == "http://xn--bcher-kva.example/")
    }

    @Test func ipv6Hosts() throws {
        let url = try normalizer.normalize("http://[2001:DB8::1]:8080/x")
        #expect(url.host == "[2001:db8::1]")
        #expect(url.port == 8080)
        #expect(url.string == "http://[2001:db8::1]:8080/x")
        #expect(try normalized("https://[::1]:443/") == "https://[::1]/")
    }

    /// RFC 3986 §5.4's examples, base "http://a/b/c/d;p?q".
    @Test("relative references resolve as RFC 3986 §5.4 says", arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g/"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q"),
        ("g#s", "http://a/b/c/g"), (";x", "http://a/b/c/;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"),
        ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("./../g", "http://a/b/g"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/../y", "http://a/b/c/y"),
        ("http:g", "http://a/b/c/g"), ("https:g", "https://g/"), ("HTTP://OTHER/x", "http://other/x"),
    ])
    func rfc3986Resolution(reference: String, expected: String) throws {
        let base = try CrawlURL("http://a/b/c/d;p?q")
        #expect(try normalizer.resolve(reference, against: base).string == expected)
    }

    @Test("hrefs are read as browsers read them: spaces trimmed, tabs and newlines removed, backslashes as slashes")
    func browserLeniency() throws {
        let base = try CrawlURL("https://a.com/dir/page")
        #expect(try normalizer.resolve("  next\n/page\t ", against: base).string == "https://a.com/dir/next/page")
        #expect(try normalizer.resolve("\\\\other.com\\x\\y", against: base).string == "https://other.com/x/y")
        #expect(try normalizer.resolve("..\\up", against: base).string == "https://a.com/up")
        #expect(try normalizer.normalize("http:\\\\b.com\\x").string == "http://b.com/x")
    }

    @Test("only http and https are accepted", arguments: [
        ("javascript:void(0)", "javascript"), ("JavaScript:alert(1)", "javascript"), ("mailto:team@example.com", "mailto"),
        ("file:///etc/passwd", "file"), ("gopher://example.com/", "gopher"), ("data:text/html,<p>hi", "data"),
        ("ftp://example.com/x", "ftp"), ("tel:+4412345", "tel"), ("  vbscript:msgbox", "vbscript"),
    ])
    func otherSchemesRejected(reference: String, scheme: String) throws {
        let base = try CrawlURL("https://a.com/")
        #expect(throws: URLRejection.unsupportedScheme(scheme)) { try normalizer.resolve(reference, against: base) }
        #expect(throws: URLRejection.unsupportedScheme(scheme)) { try normalizer.normalize(reference) }
        #expect(URLRejection.unsupportedScheme(scheme).description.contains("only http and https"))
    }

    @Test func malformedURLsRejectedWithTheirReason() {
        #expect(throws: URLRejection.relativeWithoutBase) { try normalizer.normalize("/just/a/path") }
        #expect(throws: URLRejection.missingHost) { try normalizer.normalize("http://") }
        #expect(throws: URLRejection.missingHost) { try normalizer.normalize("http://:8080/") }
        #expect(throws: URLRejection.invalidPort("99999")) { try normalizer.normalize("http://a.com:99999/") }
        #expect(throws: URLRejection.invalidPort("8o")) { try normalizer.normalize("http://a.com:8o/") }
        #expect(throws: URLRejection.invalidHost("a b.com")) { try normalizer.normalize("http://a b.com/") }
        #expect(throws: URLRejection.invalidHost("a<b")) { try normalizer.normalize("http://a<b/") }
        #expect(throws: URLRejection.invalidHost("[::1")) { try normalizer.normalize("http://[::1/") }
        #expect(throws: URLRejection.credentialsInURL) { try normalizer.normalize("https://user:secret@a.com/") }
    }

    @Test("query parameters are stripped by glob, ignoring case")
    func queryStripping() throws {
        let stripping = URLNormalizer(stripQueryParameters: ["utm_*", "sessionid"])
        let url = try stripping.normalize("http://a.com/p?utm_source=x&id=3&UTM_Medium=y&sessionid=abc&sessionidx=1&x=utm_z")
        #expect(url.string == "http://a.com/p?id=3&sessionidx=1&x=utm_z")
        #expect(try stripping.normalize("http://a.com/p?utm_campaign=1&SessionID=2").string == "http://a.com/p")
        #expect(try stripping.normalize("http://a.com/p?%75tm_source=x&k").string == "http://a.com/p?k")
    }

    @Test("empty parameters are dropped; order is kept unless sorting is asked for")
    func querySorting() throws {
        #expect(try normalized("http://a.com/p?b=2&&a=1&") == "http://a.com/p?b=2&a=1")
        let sorting = URLNormalizer(sortQueryParameters: true)
        #expect(try sorting.normalize("http://a.com/p?b=2&a=1&b=1&c").string == "http://a.com/p?a=1&b=2&b=1&c")
        #expect(URLNormalizer().sortsQueryParameters == false)
    }

    @Test("a URL made by one normalizer can take another's query rules")
    func reapplyingQueryRules() throws {
        let url = try CrawlURL("http://a.com/p?z=1&utm_term=x&a=2")
        let rules = URLNormalizer(stripQueryParameters: ["utm_*"], sortQueryParameters: true)
        #expect(rules.normalize(url).string == "http://a.com/p?a=2&z=1")
    }

    @Test func partsOriginAndCoding() throws {
        let url = try CrawlURL("https://Shop.Example.com:8443/a/b?x=1")
        #expect(url.scheme == "https")
        #expect(url.host == "shop.example.com")
        #expect(url.effectivePort == 8443)
        #expect(url.pathAndQuery == "/a/b?x=1")
        #expect(url.origin == Origin(scheme: "https", host: "shop.example.com", port: 8443))
        #expect(url.origin.description == "https://shop.example.com:8443")
        #expect(try CrawlURL("http://a.com/x").origin == CrawlURL("http://A.com:80/y").origin)
        #expect(try Origin("https://a.com").description == "https://a.com")

        let data = try JSONEncoder().encode([url])
        #expect(String(decoding: data, as: UTF8.self) == #"["https:\/\/shop.example.com:8443\/a\/b?x=1"]"#)
        #expect(try JSONDecoder().decode([CrawlURL].self, from: data) == [url])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CrawlURL].self, from: Data(#"["mailto:x@y"]"#.utf8)) }
    }

    @Test("every spelling of one page is one URL")
    func spellingsOfOnePageAreEqual() throws {
        let spellings = [
            "http://example.com/docs/", "HTTP://EXAMPLE.COM:80/docs/", "http://example.com/docs/#top",
            "http://example.com/a/../docs/", "http://example.com/%64ocs/", "http://example.com/docs/./",
        ]
        let urls = Set(try spellings.map { try normalizer.normalize($0) })
        #expect(urls.count == 1)
    }

    /// RFC 3986 §5.2.4 written plainly, segment arrays and all: what the fast version must equal.
    static func referenceRemovingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let segments = path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var output: [ArraySlice<UInt8>] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment.elementsEqual(".".utf8) {
                if isLast { output.append([]) }
            } else if segment.elementsEqual("..".utf8) {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append([]) }
            } else {
                output.append(segment)
            }
        }
        return [UInt8(ascii: "/")] + Array(output.joined(separator: [UInt8(ascii: "/")]))
    }

    @Test("dot-segment removal equals the plain algorithm on 20,000 random paths")
    func dotSegmentsAgreeWithTheReference() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["", ".", "..", "a", ".b", "..c", "d.", "...", "e..f"]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let path = "/" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            let bytes = Array(path.utf8)
            #expect(URLNormalizer.removingDotSegments(bytes) == Self.referenceRemovingDotSegments(bytes), "\(path)")
        }
    }

    /// The path's normal form written plainly: backslashes turned, every byte through the
    /// percent-encoding normal form, a leading "/", dot segments removed.
    static func referenceNormalizedPath(_ raw: [UInt8]) -> String {
        var encoded = PercentEncoding.normalize(raw.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }, as: .path)
        if encoded.first != UInt8(ascii: "/") { encoded.insert(UInt8(ascii: "/"), at: 0) }
        return String(decoding: Self.referenceRemovingDotSegments(encoded), as: UTF8.self)
    }

    @Test("path normalization equals the plain algorithm on 20,000 random paths, plain ones and ones to encode")
    func normalizedPathsAgreeWithTheReference() {
        var generator = SystemRandomNumberGenerator()
        // Pieces kept as written, and pieces the normal form changes (a backslash, escapes of
        // unreserved and reserved bytes, a stray "%", a space, a quote, a brace, non-ASCII).
        let plain = ["", ".", "..", "a", "b.html", "c-d_e~f", "g;h=i", "j:k@l", "$m!n*o"]
        let changed = ["\\", "%2e", "%2E%2e", "%7e", "%2f", "%", "%zz", " ", "\"", "{p}", "é", "`"]
        for round in 0..<20_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let pieces = round % 2 == 0 ? plain : plain + changed
            let leading = Bool.random(using: &generator) ? "/" : ""
            let path = leading + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            let bytes = Array(path.utf8)
            #expect(URLNormalizer.normalizedPath(bytes) == Self.referenceNormalizedPath(bytes), "\(path)")
        }
    }
}
