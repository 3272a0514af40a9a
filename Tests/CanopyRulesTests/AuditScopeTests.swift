import CanopyHTML
import CanopyRules
import Testing

struct AuditScopeTests {
    let document = HTMLParser().parse(html: """
        <header id="top"><img id="logo" src="l.png"></header>
        <main id="main">
          <img id="hero" src="h.png">
          <div class="vendor-widget" id="widget"><img id="chat" src="c.png">
            <div class="first-party" id="inner"><img id="back" src="b.png"></div>
          </div>
        </main>
        <footer><img id="foot" src="f.png"></footer>
        """)

    func audited(_ scope: AuditScope) -> Set<String> {
        let result = Auditor(rules: [ImageAltRule()]).audit(document, scope: scope)
        return Set(result.rules[0].nodes.compactMap { $0.element.id })
    }

    @Test func wholeDocumentByDefault() {
        #expect(audited(.wholeDocument) == ["logo", "hero", "chat", "back", "foot"])
    }

    @Test func excludeRemovesTheSubtree() throws {
        let scope = AuditScope(exclude: [try SelectorList(".vendor-widget"), try SelectorList("footer")])
        #expect(audited(scope) == ["logo", "hero"])
    }

    @Test func includeLimitsToSubtrees() throws {
        #expect(audited(AuditScope(include: [try SelectorList("main")])) == ["hero", "chat", "back"])
        #expect(audited(AuditScope(include: [try SelectorList("header"), try SelectorList("footer")])) == ["logo", "foot"])
    }

    @Test func innermostIncludeOrExcludeDecides() throws {
        let scope = AuditScope(include: [try SelectorList("main"), try SelectorList(".first-party")], exclude: [try SelectorList(".vendor-widget")])
        #expect(audited(scope) == ["hero", "back"])
    }

    @Test func pageLevelRulesAreOutOfScopeWhenHtmlIsNotIncluded() throws {
        let result = Auditor(rules: [HTMLHasLangRule()]).audit(document, scope: AuditScope(include: [try SelectorList("main")]))
        #expect(result.inapplicable.map(\.metadata.id) == ["html-has-lang"])
    }

    @Test func lookupsStillSeeTheWholeDocument() throws {
        let page = HTMLParser().parse(html: "<span id=name>Logo</span><main><img id=i src=x aria-labelledby=name></main>")
        let result = Auditor(rules: [ImageAltRule()]).audit(page, scope: AuditScope(include: [try SelectorList("main")]))
        #expect(result.passes.first?.nodes.map { $0.element.id } == ["i"])
    }
}
