import CanopyHTML
import CanopyRules
import Testing

/// Whole pages for the opt-in page-level rules that axe-core tests only with full pages (bypass,
/// the top-level banner and contentinfo rules, html-xml-lang-mismatch, skip-link): which elements
/// each rule reports, and with which outcome. Every element a rule applies to carries an id.
struct OptInPageTests {
    /// A page around `body`, with an id on `<html>` so that page-level results can be named.
    static func page(_ body: String, head: String = "") -> String {
        #"<!DOCTYPE html><html lang="en" id="page"><head><title>Tea Garden</title>\#(head)</head><body>\#(body)</body></html>"#
    }

    /// As `ruleOutcomes`, for a page served from `url` (same-page links are resolved against it).
    static func outcomes(of ruleID: String, on html: String, url: String) throws -> [String: RuleOutcome] {
        let rule = try #require(RuleCatalog.rule(withID: ruleID))
        let result = try #require(Auditor(rules: [rule]).audit(HTMLParser().parse(html: html, url: url)).rules.first)
        var outcomes: [String: RuleOutcome] = [:]
        for node in result.nodes {
            let id = try #require(node.element.id, "\(ruleID) applied to an element without id: \(node.html)")
            switch node.outcome {
            case .pass: outcomes[id] = .pass
            case .violation: outcomes[id] = .violation
            case .incomplete: outcomes[id] = .incomplete
            }
        }
        return outcomes
    }

    // MARK: bypass

    static let navigation = #"<nav><a href="/">Home</a> <a href="/teas">Teas</a> <a href="/about">About</a></nav>"#

    @Test func bypassPassesWithAnyOneMechanism() throws {
        let mechanisms = [
            "<main><p>Menu</p></main>",
            #"<div role="main"><p>Menu</p></div>"#,
            "<h3>Menu</h3>",
            #"<div role="heading" aria-level="2">Menu</div>"#,
            ##"<a href="#menu">Skip to the menu</a><div id="menu">Menu</div>"##,
            // A skip link that shows only on focus is hidden in the markup; it still counts.
            ##"<a href="#menu" style="display: none">Skip</a><div id="menu">Menu</div>"##,
            // Even a same-page link to nowhere counts: the rule only asks whether one is offered.
            ##"<a href="#nowhere">Skip</a>"##,
        ]
        for mechanism in mechanisms {
            #expect(try ruleOutcomes(of: "bypass", on: Self.page(Self.navigation + mechanism)) == ["page": .pass], "\(mechanism)")
        }
    }

    @Test func bypassNeedsReviewWithoutAMechanism() throws {
        let pages = [
            "<div><p>Menu</p></div>",
            // Hidden headings and main content do not help anyone skip.
            #"<h2 hidden>Menu</h2><main aria-hidden="true"><p>Menu</p></main><h3 style="visibility: hidden">Menu</h3>"#,
            // An explicit role other than heading takes the heading away; a role on <main> does not matter.
            #"<h1 role="presentation">Tea Garden</h1><h2 role="tab">Menu</h2>"#,
            // Router links (#/ and #!) go to other views, and # alone to the top.
            ##"<a href="#/menu">Menu</a><a href="#!about">About</a><a href="#">Top</a>"##,
            // Links to another page's fragment do not skip anything here.
            ##"<a href="/teas#menu">Menu</a>"##,
        ]
        for body in pages {
            // Canopy reports failures of bypass as needs review, as axe-core does.
            #expect(try ruleOutcomes(of: "bypass", on: Self.page(Self.navigation + body)) == ["page": .incomplete], "\(body)")
        }
    }

    @Test func bypassDoesNotApplyToPagesWithoutLinks() throws {
        #expect(try ruleOutcomes(of: "bypass", on: Self.page("<p>Welcome</p>")).isEmpty)
        // An anchor without href is no link.
        #expect(try ruleOutcomes(of: "bypass", on: Self.page(#"<a name="top">Top</a><p>Welcome</p>"#)).isEmpty)
        // The rule is about the page: an audit limited to a part of it leaves the page out.
        let scoped = try ruleOutcomes(
            of: "bypass", on: Self.page(Self.navigation + #"<div id="widget"><p>Menu</p></div>"#),
            scope: AuditScope(include: [try SelectorList("#widget")]))
        #expect(scoped.isEmpty)
    }

    // MARK: landmark-banner-is-top-level, landmark-contentinfo-is-top-level

    static let sitePage = OptInPageTests.page(
        """
        <header id="site-header"><h1>Tea Garden</h1><nav aria-label="Main"><a href="/">Home</a></nav></header>
        <main id="main">
          <article><header id="article-header">Green tea</header><p>Fresh</p><footer id="article-footer">Posted Monday</footer></article>
          <section aria-label="Specials"><header id="section-header">Today</header><footer id="section-footer">Until 6pm</footer></section>
          <aside><footer id="aside-footer">Related</footer></aside>
          <nav aria-label="Pages"><header id="nav-header">Pages</header></nav>
          <div><header id="main-header">In main</header></div>
        </main>
        <footer id="site-footer"><p>© Tea Garden</p></footer>
        """)

    @Test func siteHeaderAndFooterAtTopLevelPass() throws {
        // Headers and footers inside sectioning content (article, section, aside, nav, main) are
        // no banner or contentinfo, so the rules leave them alone.
        #expect(try ruleOutcomes(of: "landmark-banner-is-top-level", on: Self.sitePage) == ["site-header": .pass])
        #expect(try ruleOutcomes(of: "landmark-contentinfo-is-top-level", on: Self.sitePage) == ["site-footer": .pass])
    }

    @Test func bannerInsideAnotherLandmarkFails() throws {
        let page = Self.page(
            """
            <div role="main"><header id="in-role-main">Tea Garden</header></div>
            <div role="complementary"><div><header id="in-complementary">Tea Garden</header></div></div>
            <nav aria-label="Site"><div id="role-in-nav" role="banner">Tea Garden</div></nav>
            <section aria-label="Intro"><div id="role-in-named-section" role="banner">Tea Garden</div></section>
            <div role="form"><header id="in-role-form">Tea Garden</header></div>
            <header id="outer"><header id="in-header">Tea Garden</header></header>
            """)
        #expect(try ruleOutcomes(of: "landmark-banner-is-top-level", on: page) == [
            "in-role-main": .violation, "in-complementary": .violation, "role-in-nav": .violation,
            "role-in-named-section": .violation, "in-role-form": .violation, "outer": .pass, "in-header": .violation,
        ])
    }

    @Test func bannerChecksFollowRolesAndVisibility() throws {
        let page = Self.page(
            """
            <article><div id="role-in-article" role="banner">Story banner</div></article>
            <section><div id="role-in-section" role="banner">An unnamed section is no landmark</div></section>
            <form aria-label="Search"><header id="in-named-form">A form without role is never counted</header></form>
            <header id="overridden" role="navigation"><a href="/">Home</a></header>
            <div role="main"><header id="hidden" hidden>Tea Garden</header><header id="aria-hidden" aria-hidden="true">Tea</header></div>
            <div role="presentation"><header id="in-presentation">Tea Garden</header></div>
            """)
        #expect(try ruleOutcomes(of: "landmark-banner-is-top-level", on: page) == [
            "role-in-article": .pass, "role-in-section": .pass, "in-named-form": .pass, "in-presentation": .pass,
        ])
    }

    @Test func contentinfoInsideAnotherLandmarkFails() throws {
        let page = Self.page(
            """
            <div role="main"><footer id="in-role-main">© Tea Garden</footer></div>
            <header><div id="role-in-banner" role="contentinfo">© Tea Garden</div></header>
            <aside aria-label="Related"><div id="role-in-aside" role="contentinfo">© Tea Garden</div></aside>
            <div role="region" aria-label="Legal"><footer id="in-region">© Tea Garden</footer></div>
            <div role="search"><footer id="in-search">Search tips</footer></div>
            <article><div id="role-in-article" role="contentinfo">Not in a landmark</div></article>
            <footer id="role-overridden" role="group">Not contentinfo</footer>
            <div role="main"><footer id="hidden" style="display: none">© Tea Garden</footer></div>
            <main><div><footer id="in-main">Belongs to main</footer></div></main>
            """)
        #expect(try ruleOutcomes(of: "landmark-contentinfo-is-top-level", on: page) == [
            "in-role-main": .violation, "role-in-banner": .violation, "role-in-aside": .violation,
            "in-region": .violation, "in-search": .violation, "role-in-article": .pass,
        ])
    }

    // MARK: html-xml-lang-mismatch

    @Test func xmlLangMustNameTheSameBaseLanguage() throws {
        func outcome(_ attributes: String) throws -> [String: RuleOutcome] {
            try ruleOutcomes(
                of: "html-xml-lang-mismatch",
                on: #"<!DOCTYPE html><html id="page" \#(attributes)><head><title>T</title></head><body><p>Hi</p></body></html>"#)
        }
        #expect(try outcome(#"lang="en" xml:lang="en""#) == ["page": .pass])
        #expect(try outcome(#"lang="en-US" xml:lang="EN-gb""#) == ["page": .pass])
        #expect(try outcome(#"lang=" pt-BR " xml:lang="pt""#) == ["page": .pass])
        #expect(try outcome(#"lang="en" xml:lang="fr""#) == ["page": .violation])
        #expect(try outcome(#"lang="zh-Hant" xml:lang="ja-JP""#) == ["page": .violation])
        // Only one declaration, or one that names no known language: other rules' business.
        #expect(try outcome(#"lang="en""#).isEmpty)
        #expect(try outcome(#"xml:lang="en""#).isEmpty)
        #expect(try outcome(#"lang="en" xml:lang="english""#).isEmpty)
        #expect(try outcome(#"lang="" xml:lang="fr""#).isEmpty)
    }

    @Test func xmlLangMismatchLooksAtTheRootOnly() throws {
        let page = Self.page(#"<div id="inner" lang="en" xml:lang="fr"><p>Hi</p></div>"#)
        #expect(try ruleOutcomes(of: "html-xml-lang-mismatch", on: page).isEmpty)
    }

    // MARK: skip-link

    static let offScreen = "position: absolute; left: -10000px"

    @Test func offScreenSkipLinksNeedAReachableTarget() throws {
        let page = Self.page(
            ##"""
            <a id="to-main" href="#main" style="\##(Self.offScreen)">Skip to content</a>
            <a id="to-name" href="#menu" style="\##(Self.offScreen)">Skip to the menu</a>
            <a id="angular" href="/#main" style="\##(Self.offScreen)">Skip (Angular)</a>
            <a id="encoded" href="#tea%20list" style="\##(Self.offScreen)">Skip to the list</a>
            <a id="missing" href="#content" style="\##(Self.offScreen)">Skip to content</a>
            <div style="position: absolute; top: -9999px"><a id="in-moved-box" href="#footer">Skip to footer</a></div>
            <a id="to-hidden" href="#search" style="\##(Self.offScreen)">Skip to search</a>
            <nav><a href="/">Home</a></nav>
            <main id="main"><h2 name="menu">Menu</h2><ul id="tea list"><li>Sencha</li></ul></main>
            <form id="search" hidden><input aria-label="Search"></form>
            """##)
        #expect(try ruleOutcomes(of: "skip-link", on: page) == [
            "to-main": .pass, "to-name": .pass, "angular": .pass, "encoded": .pass, "missing": .violation,
            "in-moved-box": .violation, "to-hidden": .incomplete,
        ])
    }

    @Test func onlyLinksBeforeTheFirstPageLinkAreSkipLinks() throws {
        let page = Self.page(
            ##"""
            <a id="first" href="#main" style="\##(Self.offScreen)">Skip</a>
            <a id="top" href="#">Top</a>
            <a id="after-top" href="#nowhere" style="\##(Self.offScreen)">Skip</a>
            <main id="main">Menu</main>
            """##)
        // `#` alone reloads the page's top: it counts as the first link that goes elsewhere.
        #expect(try ruleOutcomes(of: "skip-link", on: page) == ["first": .pass])
        let routed = Self.page(
            ##"<a id="route" href="#/teas">Teas</a><a id="after-route" href="#nowhere" style="\##(Self.offScreen)">Skip</a>"##)
        #expect(try ruleOutcomes(of: "skip-link", on: routed).isEmpty)
        // Hidden page links count too: they are still the first in the document.
        let hiddenFirst = Self.page(
            ##"<a href="/" hidden>Home</a><a id="after-hidden" href="#nowhere" style="\##(Self.offScreen)">Skip</a>"##)
        #expect(try ruleOutcomes(of: "skip-link", on: hiddenFirst).isEmpty)
    }

    @Test func skipLinkPositionsOnlyLayoutKnowsNeedReview() throws {
        // The page's style sheet may or may not move the link off screen.
        let styled = Self.page(
            ##"""
            <a id="styled-missing" class="skip" href="#content">Skip to content</a>
            <a id="styled-found" class="skip" href="#main">Skip to main</a>
            <a id="nudged" href="#content" style="position: absolute; top: -40px">Skip</a>
            <a href="/">Home</a><main id="main">Menu</main>
            """##,
            head: #"<link rel="stylesheet" href="/site.css">"#)
        #expect(try ruleOutcomes(of: "skip-link", on: styled) == [
            "styled-missing": .incomplete, "styled-found": .pass, "nudged": .incomplete,
        ])
        // Without any style, nothing moves the link: it stays on screen and is an ordinary link.
        let unstyled = Self.page(##"<a id="plain" href="#content">Skip</a><a href="/">Home</a>"##)
        #expect(try ruleOutcomes(of: "skip-link", on: unstyled).isEmpty)
        // Clipped (the usual "visually hidden" pattern) is still in place, not off screen.
        let clipped = Self.page(
            ##"<a id="clipped" href="#content" style="position: absolute; clip: rect(0 0 0 0)">Skip</a><a href="/">Home</a>"##)
        #expect(try ruleOutcomes(of: "skip-link", on: clipped).isEmpty)
    }

    @Test func linksToThisPageByAddressAreNotPageLinks() throws {
        let html = Self.page(
            ##"""
            <a id="self-link" href="/menu?day=monday#top">This page</a>
            <a id="skip" href="#main" style="\##(Self.offScreen)">Skip</a>
            <a href="https://tea.example/about">About</a>
            <main id="main">Menu</main>
            """##)
        // Served from /menu, the first link stays on this page, so the skip link still comes first.
        #expect(try Self.outcomes(of: "skip-link", on: html, url: "https://tea.example/menu") == ["skip": .pass])
        // Served from elsewhere, the first link leaves the page, and nothing after it is a skip link.
        #expect(try Self.outcomes(of: "skip-link", on: html, url: "https://tea.example/teas").isEmpty)
    }
}
