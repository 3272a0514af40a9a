@testable import CanopyHistory
import Testing

struct URLPartsTests {
    /// ASCII URLs are split by bytes; the parts must be those the definition by characters finds,
    /// or page types and fingerprints would change between runs of two versions.
    @Test func bytesAndCharactersAgree() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["http", "https", ":", "/", "//", "://", "?", "#", "&", "=", "a", "host", "8081", ".", "x.html", "\r\n", "\r", "é", "\u{301}"]
        var samples = [
            "", "/", "http://127.0.0.1:8081/java.base/module-summary.html", "https://shop.example/p/12?id=3&b=#top",
            "//cdn.example/a.js", "/path?q#f", "#only", "?q=1", "mailto:x@y", "a://b://c/d", "http:/x", "http://host",
            "http://host?q", "/a#b?c", "://x/y",
        ]
        for _ in 0..<3_000 {
            samples.append((0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for sample in samples {
            let bytes = URLParts(sample), characters = URLParts(byCharacters: sample)
            #expect(bytes.host.map(String.init) == characters.host.map(String.init), "\(sample.debugDescription)")
            #expect(String(bytes.path) == String(characters.path), "\(sample.debugDescription)")
            #expect(bytes.query.map(String.init) == characters.query.map(String.init), "\(sample.debugDescription)")
        }
        let page = URLParts("http://127.0.0.1:8081/docs/a.html?x=1#f")
        #expect(page.host == "127.0.0.1:8081" && page.path == "/docs/a.html" && page.query == "x=1")
    }

    /// A path's segments for page types, split by bytes for ASCII paths, as by characters.
    @Test func pathSegmentsByBytesAndCharactersAgree() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["/", "//", "a", "12", "x.html", ".", "f3a9c2d1e8b7", "-", "_", "\r\n", "é", "\u{301}", "item-42"]
        var samples = ["", "/", "//a//b/", "/java.base/java/io/File.html", "/p/12345/reviews", "/a/\u{301}b/c.html"]
        for _ in 0..<3_000 {
            samples.append((0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for sample in samples {
            let parts = URLParts("http://h" + sample)
            #expect(
                PageTypeClassifier.Classification.segments(of: parts) == PageTypeClassifier.Classification.segmentsByCharacters(of: parts.path),
                "\(sample.debugDescription)"
            )
        }
    }
}
