import CanopyCrawl
import CanopyHTML
import Testing

@Suite("Link extraction")
struct LinkExtractorTests {
    let extractor = LinkExtractor()

    func links(_ html: String, at url: String = "https://site.test/docs/page.html") throws -> PageLinks {
        let pageURL = try CrawlURL(url)
        return extractor.extract(from: HTMLParser().parse(html: html, url: url), pageURL: pageURL)
    }

    @Test("a, area, iframe, frame and meta refresh targets, in document order, resolved and normalized")
    func everySource() throws {
        let page = try links("""
            <html><head><meta http-equiv="Refresh" content="5; url=/next"></head><body>
            <a href="intro.html">Intro</a>
            <map name="m"><area href="../map/area#x" alt="x"></map>
            <iframe src="//cdn.site.test/embed"></iframe>
            <a>no href</a>
            <a href="HTTPS://SITE.TEST/Docs/./Other">other</a>
            </body></html>
            """)
        #expect(page.links.map(\.url.string) == [
            "https://site.test/next", "https://site.test/docs/intro.html", "https://site.test/map/area",
            "https://cdn.site.test/embed", "https://site.test/Docs/Other",
        ])
        #expect(page.links.map(\.source) == [.metaRefresh, .anchor, .area, .iframe, .anchor])
        #expect(page.links[1].line == 2)
        let frames = try links("<frameset><frame src='left.html'><frame src='right.html'></frameset>")
        #expect(frames.links.map(\.url.string) == ["https://site.test/docs/left.html", "https://site.test/docs/right.html"])
        #expect(frames.links.allSatisfy { $0.source == .frame })
    }

    @Test("the first base element with an href decides how relative links resolve")
    func baseHref() throws {
        let page = try links("""
            <head><base target="_blank"><base href="https://other.test/root/"><base href="/ignored/"></head>
            <body><a href="a">a</a><a href="/b">b</a></body>
            """)
        #expect(page.baseURL.string == "https://other.test/root/")
        #expect(page.links.map(\.url.string) == ["https://other.test/root/a", "https://other.test/b"])

        let relativeBase = try links("<base href='../shared/'><a href='x'>x</a>")
        #expect(relativeBase.links.map(\.url.string) == ["https://site.test/shared/x"])

        let unusableBase = try links("<base href='javascript:alert(1)'><a href='x'>x</a>")
        #expect(unusableBase.baseURL.string == "https://site.test/docs/page.html")
        #expect(unusableBase.links.map(\.url.string) == ["https://site.test/docs/x"])
    }

    @Test("non-http(s) targets are dropped and counted by reason")
    func rejectedTargets() throws {
        let page = try links("""
            <a href="javascript:void(0)">1</a><a href="JavaScript:go()">2</a><a href="mailto:a@b.test">3</a>
            <a href="tel:+441">4</a><a href="http://bad host/">5</a><iframe src="data:text/html,hi"></iframe>
            <a href="ok.html">ok</a>
            """)
        #expect(page.links.map(\.url.string) == ["https://site.test/docs/ok.html"])
        #expect(page.rejected == [
            .unsupportedScheme("javascript"): 2, .unsupportedScheme("mailto"): 1, .unsupportedScheme("tel"): 1,
            .invalidHost("bad host"): 1, .unsupportedScheme("data"): 1,
        ])
    }

    @Test("links to the page itself and repeated links appear once or not at all")
    func duplicatesAndSelf() throws {
        let page = try links("""
            <a href="#top">top</a><a href="">self</a><a href="page.html?">self again</a>
            <a href="x.html">x</a><a href="./x.html#part">x again</a>
            """)
        #expect(page.links.map(\.url.string) == ["https://site.test/docs/x.html"])
    }

    @Test("a text written again is taken as it was the first time: rejected ones counted each time, the page itself never a link, a link kept where it first appeared")
    func repeatedTexts() throws {
        let page = try links("""
            <a href="mailto:a@b.test">1</a><a href="#top">2</a><a href="x.html" rel="nofollow">3</a>
            <area href="x.html" alt="x">
            <a href="mailto:a@b.test">4</a><a href="#top">5</a><a href="./x.html">6</a><a href="y.html" rel="nofollow">7</a>
            <a href="y.html" rel="nofollow">8</a><a href="mailto:a@b.test">9</a>
            """)
        #expect(page.links.map(\.url.path) == ["/docs/x.html", "/docs/y.html"])
        #expect(page.links.map(\.source) == [.anchor, .anchor])
        #expect(page.links.map(\.line) == [1, 3])
        // x.html is also written without nofollow (the area, then another spelling); y.html never is.
        #expect(page.links.map(\.isNoFollow) == [false, true])
        #expect(page.rejected == [.unsupportedScheme("mailto"): 3])
    }

    @Test("rel=nofollow and meta robots are reported; the caller decides whether to honour them")
    func noFollow() throws {
        let page = try links("""
            <a href="/sponsored" rel="sponsored NoFollow">ad</a>
            <a href="/both" rel="nofollow">1</a><a href="/both">2</a>
            <a href="/plain">plain</a>
            """)
        #expect(page.links.map(\.isNoFollow) == [true, false, false])
        #expect(!page.metaRobotsNoFollow)
        #expect(page.followableURLs(honouringNoFollow: true).map(\.path) == ["/both", "/plain"])
        #expect(page.followableURLs(honouringNoFollow: false).map(\.path) == ["/sponsored", "/both", "/plain"])

        let robots = try links("<meta name='ROBOTS' content='noindex, NOFOLLOW'><a href='/a'>a</a>")
        #expect(robots.metaRobotsNoFollow && robots.metaRobotsNoIndex)
        #expect(robots.followableURLs(honouringNoFollow: true).isEmpty)
        #expect(robots.followableURLs(honouringNoFollow: false).map(\.path) == ["/a"])
        let none = try links("<meta name='robots' content='none'>")
        #expect(none.metaRobotsNoFollow && none.metaRobotsNoIndex)
        let indexOnly = try links("<meta name='robots' content='noindex'>")
        #expect(!indexOnly.metaRobotsNoFollow && indexOnly.metaRobotsNoIndex)
    }

    @Test("rel=canonical is noted, never followed")
    func canonical() throws {
        let other = try links("<link rel='canonical' href='/docs/Page.html'><a href='/a'>a</a>")
        #expect(other.canonical?.string == "https://site.test/docs/Page.html")
        #expect(!other.canonicalIsSelf)
        #expect(!other.links.contains { $0.url == other.canonical })
        let same = try links("<link rel='Canonical' href='https://SITE.test:443/docs/page.html#x'>")
        #expect(same.canonicalIsSelf)
        #expect(try links("<p>none</p>").canonical == nil)
    }

    @Test("query rules of the normalizer apply to every link")
    func queryRules() throws {
        let extractor = LinkExtractor(normalizer: URLNormalizer(stripQueryParameters: ["utm_*"]))
        let url = try CrawlURL("https://site.test/")
        let page = extractor.extract(from: HTMLParser().parse(html: "<a href='/a?utm_source=x&id=1'>a</a>"), pageURL: url)
        #expect(page.links.map(\.url.string) == ["https://site.test/a?id=1"])
    }

    @Test("meta refresh content is read as HTML reads it", arguments: [
        ("5; url=/next", "/next"), ("0;URL='/quoted' trailing", "/quoted"), ("3, url = \"/double\"", "/double"),
        ("0; /no-url-keyword", "/no-url-keyword"), ("1.5;url=/decimal", "/decimal"), ("0; urlish", "urlish"),
    ])
    func refreshContent(content: String, target: String) throws {
        let page = try links("<meta http-equiv='refresh' content=\"\(content.replacingOccurrences(of: "\"", with: "&quot;"))\">")
        #expect(page.links.map(\.url.path) == [try CrawlURL("https://site.test/docs/").resolvingPath(target)])
    }

    @Test("a refresh without a URL, or with a malformed time, is no link", arguments: ["5", "0;", "soon; url=/x", ""])
    func refreshWithoutTarget(content: String) throws {
        #expect(try links("<meta http-equiv='refresh' content='\(content)'>").links.isEmpty)
    }
}

private extension CrawlURL {
    func resolvingPath(_ reference: String) throws -> String {
        try URLNormalizer().resolve(reference, against: self).path
    }
}
