import CanopyHTML
@testable import CanopyRules
import Testing

/// Whole pages for the structure rules whose outcome depends on the page as a whole
/// (page-has-heading-one, heading-order), and the autocomplete grammar, token by token.
struct StructurePageTests {
    typealias Outcome = RuleOutcome

    static func outcomes(of ruleID: String, on html: String, scope: AuditScope = .wholeDocument) throws -> [String: Outcome] {
        try ruleOutcomes(of: ruleID, on: html, scope: scope)
    }

    static func page(_ body: String) -> String {
        #"<!DOCTYPE html><html lang="en" id="root"><head><title>Tea</title></head><body>\#(body)</body></html>"#
    }

    // MARK: page-has-heading-one

    @Test(arguments: [
        "<h1>Tea Garden</h1>",
        #"<div role="heading" aria-level="1">Tea Garden</div>"#,
        #"<h4 aria-level="1">Tea Garden</h4>"#,
        #"<main><section><h1 class="sr-only">Deep inside</h1></section></main>"#,
        #"<h1 style="position: absolute; left: -9999px">Off screen, still read</h1>"#,
        #"<div role="dialog" aria-modal="true"><p>Sign in</p></div>"#,
        #"<dialog open><p>Any shown dialog counts as a modal for axe</p></dialog>"#,
        #"<div role="dialog"><p>So does role=dialog</p></div>"#,
    ])
    func pagesWithALevelOneHeadingPass(body: String) throws {
        #expect(try Self.outcomes(of: "page-has-heading-one", on: Self.page(body)) == ["root": .pass])
    }

    @Test(arguments: [
        "<p>No headings at all</p>",
        "<h2>Only level two</h2><h3>And three</h3>",
        #"<h1 role="alert">A heading element with another role</h1>"#,
        #"<h1 aria-level="2">Demoted by aria-level</h1>"#,
        #"<h1 role="alert" aria-level="1">Role wins over aria-level</h1>"#,
        #"<div aria-level="1">aria-level without a heading role</div>"#,
        #"<h1 hidden>Hidden</h1><div style="display:none"><h1>Not rendered</h1></div><div aria-hidden="true"><h1>Hidden from AT</h1></div>"#,
        #"<div role="dialog" aria-modal="true" hidden>A closed modal</div>"#,
        #"<dialog><div role="dialog">Inside a closed dialog</div></dialog>"#,
        #"<div role="dialog" style="visibility: hidden">Invisible</div>"#,
    ])
    func pagesWithoutAReachableLevelOneHeadingFail(body: String) throws {
        #expect(try Self.outcomes(of: "page-has-heading-one", on: Self.page(body)) == ["root": .violation])
    }

    @Test func aPageWhoseFramesMayHoldTheHeadingNeedsReview() throws {
        let body = #"<p>Intro</p><iframe src="content.html" title="Content"></iframe>"#
        #expect(try Self.outcomes(of: "page-has-heading-one", on: Self.page(body)) == ["root": .incomplete])
        let withHeading = #"<h1>Tea</h1><iframe src="content.html" title="Content"></iframe>"#
        #expect(try Self.outcomes(of: "page-has-heading-one", on: Self.page(withHeading)) == ["root": .pass])
    }

    @Test func onlyTheRootElementIsJudged() throws {
        // An <html> inside <svg> is no root; the parser also drops stray <html> tags.
        let body = #"<svg><html id="inner"></html></svg><h2>Tea</h2>"#
        #expect(try Self.outcomes(of: "page-has-heading-one", on: Self.page(body)) == ["root": .violation])
    }

    // MARK: heading-order

    static let outlinePage = page(
        """
        <header><h1 id="title">Tea Garden</h1></header>
        <main>
          <h2 id="green">Green tea</h2>
          <h3 id="sencha">Sencha</h3>
          <h5 id="skip">Brewing (skips h4)</h5>
          <h2 id="black">Black tea</h2>
          <div role="heading" id="aria-default">ARIA default level 2</div>
          <div role="heading" aria-level="4" id="aria-skip">Level 4 after 2</div>
          <h3 hidden>Hidden headings leave the outline</h3>
          <h5 aria-level="3" id="relabelled">aria-level 3 after 4</h5>
          <h6 aria-level="0" id="bad-level">aria-level 0 keeps h6</h6>
          <h2 aria-level="7" id="deep">Level 7 after 6</h2>
          <h2 aria-level="9" id="deeper">Level 9 after 7</h2>
          <h3 role="presentation">Not a heading: counts as no level</h3>
          <h2 id="after-non-heading">Follows a non-heading</h2>
        </main>
        <footer><h2 id="footer">Contact</h2></footer>
        """
    )

    @Test func headingLevelsAcrossAPage() throws {
        #expect(try Self.outcomes(of: "heading-order", on: Self.outlinePage) == [
            "title": .pass, "green": .pass, "sencha": .pass, "skip": .violation, "black": .pass,
            "aria-default": .pass, "aria-skip": .violation, "relabelled": .pass, "bad-level": .violation,
            "deep": .pass, "deeper": .violation, "after-non-heading": .violation, "footer": .pass,
        ])
    }

    @Test func headingsOutsideTheAuditedPartStillSetTheOrder() throws {
        let page = Self.page(#"<header><h1 id="a">Foo</h1></header><main><h2>Bar</h2></main><footer><h3 id="c">Baz</h3></footer>"#)
        let scope = AuditScope(include: [try SelectorList("header"), try SelectorList("footer")])
        #expect(try Self.outcomes(of: "heading-order", on: page, scope: scope) == ["a": .pass, "c": .pass])
    }

    @Test func aHeadingAfterAFrameNeedsReview() throws {
        let page = Self.page(#"<h1 id="a">Tea</h1><iframe src="menu.html" title="Menu"></iframe><h3 id="b">Sencha</h3><h4 id="c">Brewing</h4>"#)
        #expect(try Self.outcomes(of: "heading-order", on: page) == ["a": .pass, "b": .incomplete, "c": .pass])
    }

    @Test func theFirstHeadingPassesWhateverItsLevel() throws {
        let page = Self.page(#"<p>Intro</p><h4 id="first">Deep start</h4><h5 id="next">Next</h5>"#)
        #expect(try Self.outcomes(of: "heading-order", on: page) == ["first": .pass, "next": .pass])
    }

    // MARK: autocomplete grammar

    @Test(arguments: [
        "name", "  Email ", "section-a billing name", "shipping work tel", "home email webauthn", "ON", "xoff",
        "section-x mobile tel-extension",
    ])
    func validAutocompleteValues(value: String) {
        #expect(AutocompleteGrammar.verdict(for: value) == .valid)
    }

    @Test(arguments: [
        "mail", "work name", "billing section-a name", "name email", "section- name", "webauthn", "name webauthn extra",
        "on off",
    ])
    func invalidAutocompleteValues(value: String) {
        #expect(AutocompleteGrammar.verdict(for: value) == .invalid)
    }

    @Test func harmlessNonStandardValuesNeedReview() {
        #expect(AutocompleteGrammar.verdict(for: "billing text") == .ignoredButSafe)
        #expect(AutocompleteGrammar.verdict(for: "Gender") == .ignoredButSafe)
    }
}
