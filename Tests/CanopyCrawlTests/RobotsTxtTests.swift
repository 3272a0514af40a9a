import CanopyCrawl
import Testing

@Suite("robots.txt")
struct RobotsTxtTests {
    static let canopy = "Canopy/0.1 (+accessibility audit)"

    @Test("the group naming Canopy applies, else the * group")
    func groupSelection() {
        let text = """
            User-agent: *
            Disallow: /

            User-agent: Canopy
            Disallow: /private
            """
        let ours = RobotsTxt(text, userAgent: Self.canopy)
        #expect(ours.isAllowed(path: "/"))
        #expect(ours.isAllowed(path: "/public/page"))
        #expect(!ours.isAllowed(path: "/private/page"))
        let other = RobotsTxt(text, userAgent: "OtherBot/2.0")
        #expect(!other.isAllowed(path: "/public/page"))
    }

    @Test("product tokens match without regard to case, and only whole tokens")
    func productTokenMatching() {
        let text = "user-AGENT: CANOPY/9.9\ndisallow: /a\n\nUser-agent: canopy-news\nDisallow: /b\n"
        let robots = RobotsTxt(text, userAgent: "canopy")
        #expect(!robots.isAllowed(path: "/a"))
        #expect(robots.isAllowed(path: "/b"))
        #expect(RobotsTxt.productToken(from: Self.canopy) == "canopy")
        #expect(RobotsTxt.productToken(from: "  Mozilla/5.0 (X11)") == "mozilla")
    }

    @Test("consecutive user-agent lines share a group; several groups for one agent combine")
    func groupMembership() {
        let text = """
            User-agent: OtherBot
            User-agent: Canopy
            Disallow: /shared

            User-agent: SomeoneElse
            Disallow: /theirs

            User-agent: canopy
            Disallow: /second
            """
        let robots = RobotsTxt(text, userAgent: Self.canopy)
        #expect(!robots.isAllowed(path: "/shared/x"))
        #expect(!robots.isAllowed(path: "/second"))
        #expect(robots.isAllowed(path: "/theirs"))
    }

    @Test("the longest match wins and allow wins a tie", arguments: [
        ("/p", true), ("/page", true), ("/q", false), ("/folder/page.html", true), ("/folder/other", false),
        ("/tie", true), ("/tie/deeper", true),
    ])
    func longestMatch(path: String, allowed: Bool) {
        let text = """
            User-agent: *
            Allow: /p
            Disallow: /
            Disallow: /folder
            Allow: /folder/page
            Disallow: /tie
            Allow: /tie
            """
        #expect(RobotsTxt(text, userAgent: Self.canopy).isAllowed(path: path) == allowed)
    }

    @Test("* matches any run of characters and a final $ anchors the end", arguments: [
        ("/docs/manual.pdf", false), ("/manual.pdf?download=1", true), ("/manual.pdfx", true),
        ("/a/private/b", false), ("/private/b", true), ("/fish", false), ("/fishing/rod", false), ("/Fish", true),
        ("/", false), ("/index.html", true), ("/cost$5", false), ("/cost$", true),
    ])
    func wildcards(path: String, allowed: Bool) {
        let text = """
            User-agent: *
            Disallow: /*.pdf$
            Disallow: /*/private/
            Disallow: /fish*
            Disallow: /$
            Disallow: /cost$5
            """
        #expect(RobotsTxt(text, userAgent: Self.canopy).isAllowed(path: path) == allowed)
    }

    @Test("rules and paths are compared after percent-encoding normalization", arguments: [
        ("/~joe/index.html", false), ("/%7Ejoe/index.html", false), ("/foo/b%C3%A4r", false), ("/foo/b\u{E4}r/x", false),
        ("/a%3cd", false), ("/a%3Cd", false), ("/foo/bar", true),
    ])
    func percentEncodingInRules(path: String, allowed: Bool) {
        let text = "User-agent: *\nDisallow: /%7ejoe/\nDisallow: /foo/b\u{E4}r\nDisallow: /a%3Cd\n"
        #expect(RobotsTxt(text, userAgent: Self.canopy).isAllowed(path: path) == allowed)
    }

    @Test func urlsAreMatchedByPathAndQuery() throws {
        let robots = RobotsTxt("User-agent: *\nDisallow: /search?\n", userAgent: Self.canopy)
        #expect(!robots.isAllowed(try CrawlURL("https://a.com/search?q=x")))
        #expect(robots.isAllowed(try CrawlURL("https://a.com/search")))
    }

    @Test("Crawl-delay comes from the chosen group; invalid values are ignored")
    func crawlDelay() {
        let text = "User-agent: *\nCrawl-delay: 7\n\nUser-agent: Canopy\nCrawl-delay: 2.5\nDisallow: /x\n"
        #expect(RobotsTxt(text, userAgent: Self.canopy).crawlDelay == 2.5)
        #expect(RobotsTxt(text, userAgent: "Other").crawlDelay == 7)
        #expect(RobotsTxt("User-agent: *\nCrawl-delay: soon\n", userAgent: Self.canopy).crawlDelay == nil)
        #expect(RobotsTxt("User-agent: *\nCrawl-delay: -3\n", userAgent: Self.canopy).crawlDelay == nil)
        #expect(RobotsTxt("User-agent: *\nDisallow: /\n", userAgent: Self.canopy).crawlDelay == nil)
    }

    @Test("Sitemap lines are collected wherever they are, for every crawler")
    func sitemaps() {
        let text = """
            Sitemap: https://a.com/sitemap-1.xml
            User-agent: OtherBot
            Disallow: /
            SITEMAP:   https://a.com/sitemap-2.xml.gz   # compressed
            """
        #expect(RobotsTxt(text, userAgent: Self.canopy).sitemaps == ["https://a.com/sitemap-1.xml", "https://a.com/sitemap-2.xml.gz"])
    }

    @Test("/robots.txt is always allowed, an empty Disallow allows everything, no matching group allows everything")
    func implicitAllowances() {
        #expect(RobotsTxt("User-agent: *\nDisallow: /\n", userAgent: Self.canopy).isAllowed(path: "/robots.txt"))
        #expect(RobotsTxt("User-agent: *\nDisallow:\n", userAgent: Self.canopy).isAllowed(path: "/anything"))
        #expect(RobotsTxt("User-agent: OtherBot\nDisallow: /\n", userAgent: Self.canopy).isAllowed(path: "/anything"))
        #expect(RobotsTxt("", userAgent: Self.canopy).isAllowed(path: "/anything"))
    }

    @Test("rules before any user-agent line, comments, unknown lines and garbage are ignored")
    func garbageTolerated() {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]  // a BOM before the first line
        bytes += Array("Disallow: /orphan\r\n<html><body>oops</body></html>\r\n".utf8)
        bytes += [0x00, 0xFF, 0xFE, 0x0A]
        bytes += Array("User-agent: * # everyone\rUnknown-directive: yes\rDisallow: /secret # hidden\r".utf8)
        bytes += Array("Disallow /no-colon\nAllow: /secret/open\n".utf8)
        let robots = RobotsTxt(bytes: bytes, userAgent: Self.canopy)
        #expect(robots.isAllowed(path: "/orphan"))
        #expect(!robots.isAllowed(path: "/secret/x"))
        #expect(robots.isAllowed(path: "/secret/open/y"))
        #expect(robots.isAllowed(path: "/no-colon"))
    }

    @Test("only the first 512 KiB are read, and never half a line")
    func sizeCap() {
        var text = "User-agent: *\nDisallow: /early\n"
        let filler = "# " + String(repeating: "x", count: 1000) + "\n"
        // Fill to exactly 10 bytes before the cap, so the next rule straddles it.
        let target = RobotsTxt.defaultMaxBytes - 10
        while text.utf8.count + filler.utf8.count + 2 <= target { text += filler }
        text += "#" + String(repeating: "y", count: target - text.utf8.count - 2) + "\n"
        #expect(text.utf8.count == target)
        text += "Disallow: /straddles-the-cap-and-is-cut\nDisallow: /late\n"
        let robots = RobotsTxt(text, userAgent: Self.canopy)
        #expect(!robots.isAllowed(path: "/early"))
        #expect(robots.isAllowed(path: "/late"))
        #expect(robots.isAllowed(path: "/straddles"))
        let smallCap = RobotsTxt(bytes: Array("User-agent: *\nDisallow: /a\nDisallow: /b\n".utf8), userAgent: Self.canopy, maxBytes: 30)
        #expect(!smallCap.isAllowed(path: "/a"))
        #expect(smallCap.isAllowed(path: "/b"))
    }

    @Test("the HTTP status of /robots.txt decides as RFC 9309 §2.3.1 says", arguments: [
        (200, false), (301, true), (308, true), (404, true), (410, true), (401, true), (429, false), (500, false), (503, false),
    ])
    func fetchStatus(status: Int, allowsPrivate: Bool) {
        let body = Array("User-agent: *\nDisallow: /private\n".utf8)
        let robots = RobotsTxt.forResponse(status: status, body: body, userAgent: Self.canopy)
        #expect(robots.isAllowed(path: "/private") == allowsPrivate)
        #expect(robots.isAllowed(path: "/public") == (status < 500 && status != 429))
    }
}
