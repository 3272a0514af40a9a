import CanopyHTML
@testable import CanopyRules
import Testing

/// Whole pages for the landmark rules and region, as axe-core's full-page tests check them:
/// which elements each rule reports, and with which outcome.
struct LandmarkPageTests {
    enum Outcome: Equatable { case pass, violation, incomplete }

    /// Every node the rule reported, as (id or tag name, outcome), in document order.
    static func results(of rule: any Rule, on markup: String) throws -> [(String, Outcome)] {
        let html = markup.lowercased().hasPrefix("<!doctype") ? markup
            : "<!DOCTYPE html><html lang=\"en\"><head><title>Page</title></head><body>\(markup)</body></html>"
        let result = try #require(Auditor(rules: [rule]).audit(HTMLParser().parse(html: html)).rules.first)
        return result.nodes.map { node in
            let outcome: Outcome = switch node.outcome {
            case .pass: .pass
            case .violation: .violation
            case .incomplete: .incomplete
            }
            return (node.element.id ?? node.element.localName, outcome)
        }
    }

    static func violations(of rule: any Rule, on markup: String) throws -> [String] {
        try results(of: rule, on: markup).filter { $0.1 == .violation }.map(\.0)
    }

    static let sitePage = """
        <!DOCTYPE html>
        <html lang="en"><head><title>Tea Garden</title></head>
        <body>
          <a id="skip" href="#content">Skip to content</a>
          <header id="banner"><h1 id="title">Tea Garden</h1>
            <nav id="menu" aria-label="Main"><a id="home" href="/">Home</a></nav>
          </header>
          <main id="content">
            <article id="story"><header id="story-header">Green tea</header><p id="story-text">Fresh</p>
              <footer id="story-footer">Posted Monday</footer></article>
            <section id="specials" aria-label="Specials"><header id="specials-header">Today</header></section>
            <section id="plain"><p>Unnamed</p></section>
          </main>
          <aside id="related" aria-label="Related"><p>More</p></aside>
          <footer id="site-footer"><nav id="footer-links" aria-label="Footer"><a href="/about">About</a></nav></footer>
          <script>var ready = true;</script>
        </body></html>
        """

    @Test func wellStructuredPagePassesEveryLandmarkRule() throws {
        #expect(try Self.results(of: LandmarkOneMainRule(), on: Self.sitePage).map(\.1) == [.pass])
        #expect(try Self.results(of: LandmarkNoDuplicateMainRule(), on: Self.sitePage).map(\.0) == ["content"])
        #expect(try Self.violations(of: LandmarkNoDuplicateMainRule(), on: Self.sitePage).isEmpty)
        // The first <header> carries the page-wide banner result; headers in article/section are no banners.
        #expect(try Self.results(of: LandmarkNoDuplicateBannerRule(), on: Self.sitePage).map(\.0) == ["banner"])
        #expect(try Self.violations(of: LandmarkNoDuplicateBannerRule(), on: Self.sitePage).isEmpty)
        #expect(try Self.results(of: LandmarkNoDuplicateContentinfoRule(), on: Self.sitePage).map(\.0) == ["story-footer"])
        #expect(try Self.violations(of: LandmarkNoDuplicateContentinfoRule(), on: Self.sitePage).isEmpty)
        #expect(try Self.results(of: LandmarkMainIsTopLevelRule(), on: Self.sitePage).map(\.1) == [.pass])
        #expect(try Self.violations(of: RegionRule(), on: Self.sitePage).isEmpty)
    }

    @Test func landmarkUniqueListsEachLandmarkOnceOnTheSitePage() throws {
        let results = try Self.results(of: LandmarkUniqueRule(), on: Self.sitePage)
        // Article headers/footers, the unnamed section and the header inside a section are not landmarks.
        #expect(results.map(\.0) == ["banner", "menu", "content", "specials", "related", "site-footer", "footer-links"])
        #expect(results.allSatisfy { $0.1 == .pass })
    }

    @Test func duplicateLandmarksFailOnTheFirstOnly() throws {
        let page = """
            <header id="h1">One</header><header id="h2">Two</header>
            <main id="m1">A</main><div role="main" id="m2">B</div>
            <footer id="f1">One</footer><section aria-label="S"><footer id="f-in-section">Not contentinfo</footer></section>
            """
        #expect(try Self.results(of: LandmarkNoDuplicateBannerRule(), on: page).map(\.0) == ["h1"])
        #expect(try Self.violations(of: LandmarkNoDuplicateBannerRule(), on: page) == ["h1"])
        #expect(try Self.violations(of: LandmarkNoDuplicateMainRule(), on: page) == ["m1"])
        #expect(try Self.violations(of: LandmarkNoDuplicateContentinfoRule(), on: page).isEmpty)
        // landmark-unique: the later twin is dropped, the first one fails.
        let unique = try Self.results(of: LandmarkUniqueRule(), on: page)
        #expect(unique.filter { $0.1 == .violation }.map(\.0) == ["h1", "m1"])
        #expect(!unique.map(\.0).contains("h2") && !unique.map(\.0).contains("m2"))
    }

    @Test func hiddenAndOverriddenLandmarksDoNotCount() throws {
        let page = """
            <main id="m1">A</main><main id="m2" hidden>B</main><div aria-hidden="true"><main id="m3">C</main></div>
            <main id="m4" role="region" aria-label="Not main">D</main>
            <header id="h1">One</header><header id="h2" role="group">Two</header><header id="h3" style="display:none">Three</header>
            """
        #expect(try Self.violations(of: LandmarkNoDuplicateMainRule(), on: page).isEmpty)
        #expect(try Self.violations(of: LandmarkNoDuplicateBannerRule(), on: page).isEmpty)
        #expect(try Self.results(of: LandmarkOneMainRule(), on: page).map(\.1) == [.pass])
        #expect(try Self.results(of: LandmarkOneMainRule(), on: #"<main hidden>A</main><div role="main" aria-hidden="true">B</div>"#).map(\.1) == [.violation])
    }

    @Test func explicitBannerRoleCountsInsideSectioningContent() throws {
        let page = #"<header id="h">Site</header><article><div id="story-banner" role="banner">Story</div></article>"#
        #expect(try Self.violations(of: LandmarkNoDuplicateBannerRule(), on: page) == ["h"])
    }

    @Test func mainInsideOtherLandmarks() throws {
        let page = """
            <nav><main id="in-nav">A</main></nav>
            <div role="region" aria-label="Promo"><div id="in-region" role="main">B</div></div>
            <form aria-label="Order"><main id="in-form">C</main></form>
            <div role="form"><main id="in-role-form">D</main></div>
            <article><header><main id="in-article-header">E</main></header></article>
            <main id="top">F</main>
            """
        let results = try Self.results(of: LandmarkMainIsTopLevelRule(), on: page)
        #expect(results.filter { $0.1 == .violation }.map(\.0) == ["in-nav", "in-region", "in-role-form"])
        #expect(results.filter { $0.1 == .pass }.map(\.0) == ["in-form", "in-article-header", "top"])
    }

    @Test func pageWithoutMainButWithFrameIsIncomplete() throws {
        let framed = #"<p>Intro</p><iframe title="Body" src="body.html"></iframe>"#
        #expect(try Self.results(of: LandmarkOneMainRule(), on: framed).map(\.1) == [.incomplete])
        #expect(try Self.results(of: LandmarkOneMainRule(), on: #"<p>Intro</p><iframe hidden src="x.html"></iframe>"#).map(\.1) == [.violation])
    }

    @Test func regionReportsTheOutermostLooseElement() throws {
        let page = """
            <div id="wrapper"><h1 id="loose-title">Tea</h1><p id="loose-text">Intro</p></div>
            <div id="layout"><p id="beside-main">Beside</p><main id="main"><p id="inside">Inside</p></main></div>
            <article id="story"><header id="story-header">Story</header></article>
            """
        let results = try Self.results(of: RegionRule(), on: page)
        #expect(results.filter { $0.1 == .violation }.map(\.0) == ["wrapper", "beside-main", "story"])
        #expect(results.filter { $0.1 == .incomplete }.isEmpty)
        for id in ["loose-title", "loose-text", "layout", "main", "inside", "story-header"] {
            #expect(results.contains { $0.0 == id && $0.1 == .pass }, "\(id) should pass")
        }
    }

    @Test func regionIgnoresWhatNeedsNoLandmark() throws {
        let page = """
            <a id="skip" href="#main">Skip</a>
            <div id="alert" role="alert">Saved</div><p id="live" aria-live="assertive">Error</p>
            <div id="dialog" role="dialog">Confirm</div><button id="button">Go</button><svg id="logo"></svg>
            <iframe id="frame" title="Ad" src="ad.html"></iframe>
            <p id="hidden" style="display: none">Gone</p><div id="empty">   </div>
            <main id="main">Welcome</main>
            """
        #expect(try Self.violations(of: RegionRule(), on: page).isEmpty)
        // A same-page link after a link to another page is no skip link.
        let late = ##"<nav><a href="/">Home</a></nav><a id="late" href="#main">Skip</a><main id="main">Welcome</main>"##
        #expect(try Self.violations(of: RegionRule(), on: late) == ["late"])
        // Text directly in the body is not reported (axe never reports the body).
        #expect(try Self.violations(of: RegionRule(), on: "Loose text<main>Welcome</main>").isEmpty)
    }

    /// The shape of axe-core's full-page region tests: one wrapper of loose content is reported
    /// once; text directly in the body is not; labelled forms and sections are landmarks.
    @Test func regionFullPages() throws {
        let failing = """
            <div id="wrapper">
              <a href="stuff.html#top" id="not-skip">Not a skip link</a>
              <form><div><h1 id="top" tabindex="0">Header</h1></div></form>
              <ul><li>Home</li><li>Other</li></ul>
              <section><p>Content</p></section>
            </div>
            Loose body text
            <main id="main"></main>
            <script>var done = true;</script>
            """
        #expect(try Self.violations(of: RegionRule(), on: failing) == ["wrapper"])
        let passing = """
            <a href="#top" id="skip">Skip</a>
            <div id="wrapper"><div role="main"><h1 id="top" tabindex="0">Header</h1></div></div>
            <form aria-label="Order"><p>Form</p></form>
            <ul role="navigation"><li>Home</li></ul>
            <section aria-labelledby="heading"><h1 id="heading">Section</h1><p>Content</p></section>
            <section aria-label="Second"><p>Content</p></section>
            <div role="complementary"></div>
            """
        #expect(try Self.violations(of: RegionRule(), on: passing).isEmpty)
    }
}
