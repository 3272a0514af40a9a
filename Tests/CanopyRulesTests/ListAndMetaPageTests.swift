import CanopyHTML
@testable import CanopyRules
import Testing

/// Whole pages for list, listitem, definition-list, dlitem, meta-refresh and meta-viewport:
/// every applicable element's outcome, by id, as axe-core's full-page tests check them.
struct ListAndMetaPageTests {
    typealias Outcome = RuleOutcome

    static func outcomes(of ruleID: String, on html: String) throws -> [String: Outcome] {
        try ruleOutcomes(of: ruleID, on: html)
    }

    static let listPage = """
        <!DOCTYPE html>
        <html lang="en"><head><title>Lists</title></head>
        <body>
          <nav><ul id="menu"><li id="home"><a href="/">Home</a></li><li id="shop"><a href="/shop">Shop</a></li></ul></nav>
          <main>
            <ol id="steps">
              <li id="step1">Boil</li>
              <li id="step2">Pour
                <ul id="nested"><li id="nested1">Slowly</li></ul>
              </li>
            </ol>
            <ul id="broken"><li id="ok">Fine</li><span>Not an item</span></ul>
            <li id="orphan">Orphan</li>
            <ul role="tablist"><li id="tab" role="tab">Ignored: has a role</li></ul>
            <div aria-hidden="true"><ul id="hidden"><p>Hidden</p></ul></div>
            <dl id="glossary">
              <div><dt id="term1">Tea</dt><dd id="desc1">Leaves</dd></div>
              <dt id="term2">Coffee</dt><dd id="desc2">Beans</dd>
            </dl>
            <dl id="backwards"><dd id="early">Description first</dd><dt id="late">Term</dt></dl>
            <dt id="lonely">Term outside</dt>
          </main>
        </body></html>
        """

    @Test func listsOnAWholePage() throws {
        #expect(try Self.outcomes(of: "list", on: Self.listPage) == [
            "menu": .pass, "steps": .pass, "nested": .pass, "broken": .violation,
        ])
    }

    @Test func listItemsOnAWholePage() throws {
        #expect(try Self.outcomes(of: "listitem", on: Self.listPage) == [
            "home": .pass, "shop": .pass, "step1": .pass, "step2": .pass, "nested1": .pass, "ok": .pass, "orphan": .violation,
        ])
    }

    @Test func descriptionListsOnAWholePage() throws {
        #expect(try Self.outcomes(of: "definition-list", on: Self.listPage) == ["glossary": .pass, "backwards": .violation])
        #expect(try Self.outcomes(of: "dlitem", on: Self.listPage) == [
            "term1": .pass, "desc1": .pass, "term2": .pass, "desc2": .pass, "early": .pass, "late": .pass, "lonely": .violation,
        ])
    }

    @Test func metaElementsInTheHeadAreChecked() throws {
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head>
              <title>News</title>
              <meta id="viewport" name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
              <meta id="refresh" http-equiv="refresh" content="600; url=/news">
              <meta id="charset" charset="utf-8">
            </head><body><p>News</p></body></html>
            """
        #expect(try Self.outcomes(of: "meta-viewport", on: page) == ["viewport": .violation])
        #expect(try Self.outcomes(of: "meta-refresh", on: page) == ["refresh": .violation])
    }

    /// Delays as browsers read them (HTML's shared declarative refresh steps), which W3C's ACT
    /// test cases follow: whole seconds, the fraction dropped, and only whitespace, `;` or `,`
    /// after the number.
    @Test func refreshDelays() {
        #expect(MetaRefresh.delay(in: "0") == 0)
        #expect(MetaRefresh.delay(in: " 5;url=/x") == 5)
        #expect(MetaRefresh.delay(in: "1.5.2, /x") == 1)
        #expect(MetaRefresh.delay(in: ".5") == 0)
        #expect(MetaRefresh.delay(in: "30 https://w3.org") == 30)
        #expect(MetaRefresh.delay(in: "0: https://w3.org") == nil)
        #expect(MetaRefresh.delay(in: "url=/x") == nil)
        #expect(MetaRefresh.delay(in: "-00.12 foo") == nil)
        #expect(MetaRefresh.delay(in: "+5; /x") == nil)
        #expect(MetaRefresh.delay(in: "; 30") == nil)
        #expect(MetaRefresh.delay(in: "") == nil)
        #expect(MetaRefresh.delay(in: "99999999999999999999") == Int(Int32.max))
    }

    @Test func viewportNumbersReadLikeParseFloat() {
        #expect(MetaViewportRule.leadingNumber("1.5em") == 1.5)
        #expect(MetaViewportRule.leadingNumber("-.5") == -0.5)
        #expect(MetaViewportRule.leadingNumber("2") == 2)
        #expect(MetaViewportRule.leadingNumber("no") == nil)
        #expect(MetaViewportRule.leadingNumber(".") == nil)
    }
}
