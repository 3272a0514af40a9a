import CZlib
import CanopyCrawl
import CanopyTestSupport
import Foundation
import Testing

@Suite("Sitemaps")
struct SitemapParserTests {
    let parser = SitemapParser()

    func parse(_ text: String) throws -> Sitemap {
        try parser.parse(Array(text.utf8))
    }

    @Test("a namespaced urlset: <loc> trimmed and entity-decoded, CDATA read as text")
    func namespacedURLSet() throws {
        let sitemap = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url>
                <loc>
                  https://example.com/a?x=1&amp;y=2
                </loc>
                <lastmod>2024-01-01</lastmod>
              </url>
              <url><loc><![CDATA[https://example.com/b?q=<&>]]></loc></url>
              <url><loc>https://example.com/caf&#233;</loc><priority>0.5</priority></url>
            </urlset>
            """)
        #expect(sitemap.kind == .urlSet)
        #expect(sitemap.pageURLs == ["https://example.com/a?x=1&y=2", "https://example.com/b?q=<&>", "https://example.com/caf\u{E9}"])
        #expect(sitemap.sitemapURLs.isEmpty)
        #expect(sitemap.incompleteReason == nil)
    }

    @Test("<lastmod> before or after <loc>, in each W3C date form, as the latest instant it can mean")
    func lastModified() throws {
        let sitemap = try parse("""
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><lastmod>2024-03-05</lastmod><loc>https://example.com/day</loc></url>
              <url><loc>https://example.com/instant</loc><lastmod>2024-03-05T10:20:30+02:00</lastmod></url>
              <url><loc>https://example.com/fraction</loc><lastmod>2024-03-05T10:20:30.5Z</lastmod></url>
              <url><loc>https://example.com/minutes</loc><lastmod>2024-03-05T10:20-05:30</lastmod></url>
              <url><loc>https://example.com/month</loc><lastmod>2024-02</lastmod></url>
              <url><loc>https://example.com/year</loc><lastmod>2023</lastmod></url>
              <url><loc>https://example.com/no-zone</loc><lastmod>2024-03-05T10:20:30</lastmod></url>
              <url><loc>https://example.com/nonsense</loc><lastmod>last tuesday</lastmod></url>
              <url><loc>https://example.com/none</loc></url>
              <url><loc>https://example.com/extension</loc><news:lastmod xmlns:news="urn:x">2024-01-01</news:lastmod></url>
            </urlset>
            """)
        func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        #expect(sitemap.pageURLs.count == 10)
        // A bare day ends at midnight in the westernmost zone (UTC-12).
        #expect(sitemap.lastModified["https://example.com/day"] == utc("2024-03-06T11:59:59Z"))
        #expect(sitemap.lastModified["https://example.com/instant"] == utc("2024-03-05T08:20:30Z"))
        #expect(sitemap.lastModified["https://example.com/fraction"] == utc("2024-03-05T10:20:30Z").addingTimeInterval(0.5))
        #expect(sitemap.lastModified["https://example.com/minutes"] == utc("2024-03-05T15:50:00Z"))
        #expect(sitemap.lastModified["https://example.com/month"] == utc("2024-03-01T11:59:59Z"))
        #expect(sitemap.lastModified["https://example.com/year"] == utc("2024-01-01T11:59:59Z"))
        for unreadable in ["no-zone", "nonsense", "none", "extension"] {
            #expect(sitemap.lastModified["https://example.com/\(unreadable)"] == nil, "\(unreadable)")
        }
    }

    @Test func urlSetWithoutNamespace() throws {
        let sitemap = try parse("<urlset><url><loc>http://a.com/1</loc></url><url><loc>http://a.com/2</loc></url></urlset>")
        #expect(sitemap.pageURLs == ["http://a.com/1", "http://a.com/2"])
    }

    @Test func sitemapIndex() throws {
        let sitemap = try parse("""
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>https://a.com/sitemap-pages.xml</loc><lastmod>2024-02-02</lastmod></sitemap>
              <sitemap><loc>https://a.com/sitemap-posts.xml.gz</loc></sitemap>
            </sitemapindex>
            """)
        #expect(sitemap.kind == .index)
        #expect(sitemap.sitemapURLs == ["https://a.com/sitemap-pages.xml", "https://a.com/sitemap-posts.xml.gz"])
        #expect(sitemap.pageURLs.isEmpty)
    }

    @Test("extension tags with a loc of their own, and misplaced or empty locs, are ignored")
    func onlyEntryLocsCount() throws {
        let sitemap = try parse("""
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
                    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
              <loc>https://a.com/not-in-a-url</loc>
              <url>
                <loc>https://a.com/page</loc>
                <image:image><image:loc>https://a.com/photo.jpg</image:loc></image:image>
              </url>
              <url><loc>   </loc></url>
              <url><loc/></url>
              <image:url><loc>https://a.com/foreign-entry</loc></image:url>
            </urlset>
            """)
        #expect(sitemap.pageURLs == ["https://a.com/page"])
    }

    @Test("gzip bodies are recognised by their magic bytes and inflated")
    func gzipBodies() throws {
        let xml = Array("<urlset><url><loc>https://a.com/zipped</loc></url></urlset>".utf8)
        #expect(try parser.parse(Self.gzip(xml)).pageURLs == ["https://a.com/zipped"])
        #expect(try parser.parse(GzipStoredEncoder.encode(xml)).pageURLs == ["https://a.com/zipped"])
        // Two gzip members one after the other are one stream (RFC 1952 §2.2).
        let text = Self.gzip(Array("https://a.com/1\n".utf8)) + Self.gzip(Array("https://a.com/2\n".utf8))
        #expect(try parser.parse(text).pageURLs == ["https://a.com/1", "https://a.com/2"])
    }

    @Test("a gzip bomb stops at the size cap instead of filling memory")
    func gzipBomb() throws {
        // 64 MB of one repeated byte compresses to about 64 KB.
        let bomb = Self.gzip([UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024 * 1024))
        #expect(bomb.count < 200_000)
        let capped = SitemapParser(maxBytes: 1024 * 1024)
        #expect(throws: SitemapError.tooLarge(limit: 1024 * 1024)) { try capped.parse(bomb) }
        #expect(throws: SitemapError.tooLarge(limit: 10)) {
            try SitemapParser(maxBytes: 10).parse(Array("<urlset></urlset>".utf8))
        }
    }

    @Test("gzip that does not inflate is an error value")
    func corruptGzip() throws {
        let good = Self.gzip(Array("<urlset><url><loc>https://a.com/x</loc></url></urlset>".utf8))
        #expect(throws: SitemapError.corruptGzip("the gzip data ends early")) { try parser.parse(Array(good.prefix(good.count / 2))) }
        let garbage: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect {
            try parser.parse(garbage)
        } throws: { error in
            guard case .corruptGzip = error as? SitemapError else { return false }
            return true
        }
    }

    @Test("an HTML page or another XML document is not a sitemap")
    func notASitemap() throws {
        #expect(throws: SitemapError.notASitemap(found: "<html>")) {
            try parse("<!DOCTYPE html><html><head><title>Not found</title></head><body>404</body></html>")
        }
        #expect(throws: SitemapError.notASitemap(found: "<rss>")) { try parse("<rss version=\"2.0\"><channel/></rss>") }
        #expect(throws: SitemapError.notASitemap(found: "text that is not a list of URLs")) { try parse("Not found\n") }
        #expect(throws: SitemapError.empty) { try parse("") }
        #expect(throws: SitemapError.empty) { try parse(" \n\t ") }
    }

    @Test("XML broken before the root is an error with its line; broken later keeps what was read")
    func malformedXML() throws {
        #expect {
            try parse("<?xml version=\"1.0\"?>\n\n<\u{1}>")
        } throws: { error in
            guard case .malformedXML(let line, let message) = error as? SitemapError else { return false }
            return line == 3 && !message.isEmpty
        }
        let partial = try parse("<urlset>\n<url><loc>https://a.com/1</loc></url>\n<url><loc>https://a.com/2</loc></url>\n<url><loc>https://a")
        #expect(partial.pageURLs == ["https://a.com/1", "https://a.com/2"])
        #expect(partial.incompleteReason?.contains("not well-formed") == true)
    }

    @Test("the unescaped & many sitemaps have does not lose the other entries")
    func unescapedAmpersand() throws {
        let sitemap = try parse("<urlset><url><loc>https://a.com/1</loc></url><url><loc>https://a.com/s?a=1&b=2</loc></url><url><loc>https://a.com/3</loc></url></urlset>")
        #expect(sitemap.pageURLs.first == "https://a.com/1")
        #expect(sitemap.pageURLs.last == "https://a.com/3")
    }

    @Test("DTD entities are never expanded: no external file is read, no billion laughs")
    func entitiesNotExpanded() throws {
        let hostname = try String(contentsOfFile: "/etc/hostname", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let external = try parse("""
            <?xml version="1.0"?>
            <!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/hostname"><!ENTITY inner "expanded">]>
            <urlset><url><loc>https://a.com/&xxe;/&inner;/x</loc></url></urlset>
            """)
        #expect(external.pageURLs.count == 1)
        #expect(!external.pageURLs[0].contains(hostname) || hostname.isEmpty)
        #expect(!external.pageURLs[0].contains("expanded"))

        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n<!ENTITY lol0 \"lol\">\n"
        for level in 1...12 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        laughs += "]>\n<urlset><url><loc>https://a.com/&lol12;</loc></url></urlset>"
        let started = Date()
        let sitemap = try parse(laughs)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(sitemap.pageURLs.allSatisfy { $0.utf8.count < 100 })
    }

    @Test("entries beyond the limit are ignored and the sitemap says so")
    func entryLimit() throws {
        let limited = SitemapParser(maxEntries: 2)
        let xml = "<urlset>" + (1...5).map { "<url><loc>https://a.com/\($0)</loc></url>" }.joined() + "</urlset>"
        let sitemap = try limited.parse(Array(xml.utf8))
        #expect(sitemap.pageURLs == ["https://a.com/1", "https://a.com/2"])
        #expect(sitemap.incompleteReason == "more than 2 entries; the rest were ignored")
        let text = try limited.parse(Array("https://a.com/1\nhttps://a.com/2\nhttps://a.com/3\n".utf8))
        #expect(text.pageURLs.count == 2)
        #expect(text.incompleteReason != nil)
    }

    @Test("a plain-text sitemap lists one URL per line")
    func textSitemap() throws {
        let body: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("https://a.com/1\r\n\r\n  http://a.com/2  \n".utf8)
        let sitemap = try parser.parse(body)
        #expect(sitemap.kind == .text)
        #expect(sitemap.pageURLs == ["https://a.com/1", "http://a.com/2"])
    }

    @Test("a large sitemap is streamed")
    func largeSitemap() throws {
        let count = 50_000
        var xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for index in 0..<count { xml += "<url><loc>https://a.com/p/\(index)</loc><changefreq>weekly</changefreq></url>\n" }
        xml += "</urlset>\n"
        let sitemap = try parser.parse(Self.gzip(Array(xml.utf8)))
        #expect(sitemap.pageURLs.count == count)
        #expect(sitemap.pageURLs.last == "https://a.com/p/\(count - 1)")
        #expect(sitemap.incompleteReason == nil)
    }

    /// Real deflate compression in gzip format, through zlib.
    static func gzip(_ data: [UInt8]) -> [UInt8] {
        var input = data
        var output = [UInt8](repeating: 0, count: data.count / 2 + 1024)
        var stream = z_stream()
        // 31 = 15-bit window + 16 for a gzip wrapper; deflateInit2 itself is a C macro.
        let status = deflateInit2_(&stream, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK)
        var produced = 0
        input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                precondition(deflate(&stream, Z_FINISH) == Z_STREAM_END)
                produced = outputBuffer.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        return Array(output.prefix(produced))
    }
}
