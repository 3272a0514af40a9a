import CanopyHTML
import Testing

struct ClientRenderingTests {
    /// The full verdict, checked against the crawl's early-stopping one: the same flag on every page.
    private func verdict(_ html: String) -> ClientRenderingDetector.Verdict {
        let document = HTMLParser().parse(html: html)
        let full = ClientRenderingDetector().verdict(for: document)
        let quick = ClientRenderingDetector().verdictIfBare(for: document)
        #expect((quick?.isClientRendered ?? false) == full.isClientRendered, "the early-stopping check disagrees")
        return full
    }

    // MARK: Shells: flagged

    @Test func createReactAppShell() {
        let result = verdict("""
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>React App</title>
            <script defer="defer" src="/static/js/main.8c1e3a.js"></script><link href="/static/css/main.css" rel="stylesheet"></head>
            <body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>
            """)
        #expect(result.isClientRendered)
        #expect(result.signals.contains(.emptyApplicationRoot("<div id=\"root\">")))
        #expect(result.signals.contains(.noscriptAsksForJavaScript("You need to enable JavaScript to run this app.")))
    }

    @Test func angularShell() {
        let result = verdict("""
            <!doctype html><html lang="en"><head><title>Shop</title><base href="/"></head>
            <body><app-root>Loading…</app-root>
            <script src="runtime.js" type="module"></script><script src="polyfills.js" type="module"></script><script src="main.js" type="module"></script>
            </body></html>
            """)
        #expect(result.isClientRendered)
        #expect(result.signals.contains(.emptyApplicationRoot("<app-root>")))
        #expect(result.signals.contains(.frameworkMarker("Angular")))
    }

    @Test func vueShell() {
        let result = verdict("""
            <!DOCTYPE html><html lang="en"><head><title>Vite App</title>
            <script type="module" crossorigin src="/assets/index-4f1c2.js"></script></head>
            <body><div id="app"></div></body></html>
            """)
        #expect(result.isClientRendered)
        #expect(result.signals.first == .emptyApplicationRoot("<div id=\"app\">"))
    }

    @Test func noscriptAndEmptyBody() {
        let result = verdict("""
            <html><head><title>Portal</title></head><body>
            <noscript><p>Please enable JavaScript in your browser to use this portal.</p></noscript>
            <script src="/bundle.js"></script></body></html>
            """)
        #expect(result.isClientRendered)
        #expect(result.signals == [.noscriptAsksForJavaScript("Please enable JavaScript in your browser to use this portal.")])
    }

    @Test func bareBodyWithLargeInlineBundle() {
        let bundle = String(repeating: "var a=document.createElement('div');", count: 200)
        let result = verdict("<html><head><title>x</title></head><body><div class=\"mount\"></div><script>\(bundle)</script></body></html>")
        #expect(result.isClientRendered)
        #expect(result.signals.count == 1)
        guard case .littleTextManyScripts(let text, let external, let inline) = result.signals.first else {
            Issue.record("expected the script payload signal, got \(result.signals)")
            return
        }
        #expect(text == 0 && external == 0 && inline == bundle.utf8.count)
    }

    // MARK: Server-rendered pages: never flagged

    @Test func javadocLikePage() {
        let members = (1...12).map { "<tr><td><code>method\($0)()</code></td><td>Returns the \($0)th value of the sequence, as documented.</td></tr>" }
        let result = verdict("""
            <!DOCTYPE HTML><html lang="en"><head><title>String (Java SE 17 &amp; JDK 17)</title>
            <script type="text/javascript" src="../../../script.js"></script>
            <script type="text/javascript" src="../../../script-dir/jquery-3.5.1.min.js"></script>
            <script type="text/javascript" src="../../../script-dir/jquery-ui.min.js"></script></head>
            <body class="class-declaration-page"><script type="text/javascript">var evenRowColor = "even-row-color"; loadScripts(document, 'script');</script>
            <noscript><div>JavaScript is disabled on your browser.</div></noscript>
            <div class="flex-box"><header role="banner" class="flex-header"><nav role="navigation"><a href="../../../index.html">Overview</a></nav></header>
            <div class="flex-content"><main role="main"><div class="header"><h1 title="Class String" class="title">Class String</h1></div>
            <section class="description"><p>The <code>String</code> class represents character strings.</p></section>
            <table>\(members.joined())</table></main></div></div></body></html>
            """)
        #expect(!result.isClientRendered)
        // The noscript message is seen, but the content outweighs it.
        #expect(result.signals.contains(.noscriptAsksForJavaScript("JavaScript is disabled on your browser.")))
    }

    @Test func serverRenderedNextPage() {
        let result = verdict("""
            <!DOCTYPE html><html><head><title>Kettles</title><script src="/_next/static/chunks/main.js" defer></script>
            <script src="/_next/static/chunks/pages/_app.js" defer></script></head>
            <body><div id="__next"><header><a href="/">Home</a></header><main><h1>Kettles</h1>
            <p>Our kettles boil a litre of water in under three minutes and switch themselves off when they are done.</p>
            <ul><li><a href="/kettles/steel">Steel kettle</a></li><li><a href="/kettles/glass">Glass kettle</a></li></ul></main></div>
            <script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{}},"page":"/kettles"}</script></body></html>
            """)
        #expect(!result.isClientRendered)
        // Short enough for the script signal to fire, but headed and written: content of its own.
        #expect(result.signals.contains(.frameworkMarker("Next.js")))
    }

    @Test func shortButRealPage() {
        let result = verdict("""
            <html lang="en"><head><title>Opening hours</title><script src="/analytics.js"></script><script src="/consent.js"></script></head>
            <body><h1>Opening hours</h1><p>Mon–Fri 9–17</p></body></html>
            """)
        #expect(!result.isClientRendered)
    }

    @Test func noscriptFallbackWithRealContent() {
        let result = verdict("""
            <html lang="en"><head><title>Store finder</title><script type="module" src="/map.js"></script></head>
            <body><div id="app"><h1>Find a store</h1><p>Enter your postcode.</p><form><input name="postcode"><button>Search</button></form></div>
            <noscript>The map needs JavaScript; the list of stores below works without it.</noscript>
            <ul><li>Leeds, Briggate 12</li><li>York, Stonegate 3</li></ul></body></html>
            """)
        #expect(!result.isClientRendered)
        #expect(!result.signals.contains { if case .emptyApplicationRoot = $0 { true } else { false } })
    }

    @Test func emptyPageWithoutScriptsIsAuditedAsItIs() {
        // Nothing will fill it in: the rules should report the empty page.
        let result = verdict("<html><head><title>Blank</title></head><body><div id=\"root\"></div></body></html>")
        #expect(!result.isClientRendered)
    }
}
