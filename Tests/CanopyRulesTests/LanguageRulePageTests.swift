import CanopyHTML
import CanopyRules
import Testing

/// Whole pages for html-lang-valid (axe-core has no fixture for it, only full-page tests) and
/// valid-lang.
struct LanguageRulePageTests {
    static func audit(_ ruleID: String, _ html: String, scope: AuditScope = .wholeDocument) throws -> RuleResult {
        let rule = try #require(RuleCatalog.rule(withID: ruleID))
        return try #require(Auditor(rules: [rule]).audit(HTMLParser().parse(html: html), scope: scope).rules.first)
    }

    static func page(htmlAttributes: String, body: String = "<p>Hello</p>") -> String {
        "<!DOCTYPE html><html \(htmlAttributes)><head><title>Page</title></head><body>\(body)</body></html>"
    }

    @Test(arguments: [
        "en", "EN", "en-US", "en-gb", "zh-Hant-TW", "sr-Latn-RS", "de-CH-1996", "fil", "haw", "yue-HK", "en-XX",
        "es-419", "  fr  ", "ar-x-private",
    ])
    func validPageLanguagePasses(_ lang: String) throws {
        let result = try Self.audit("html-lang-valid", Self.page(htmlAttributes: "lang=\"\(lang)\""))
        #expect(result.nodes.count == 1)
        #expect(result.passes.count == 1, "lang=\"\(lang)\": \(result.nodes.map(\.outcome))")
    }

    @Test(arguments: ["english", "xx", "e", "en_US", "i-klingon", "x-private", "123", "gibberish-US", " ", "\t", "en.US", "zz-ZZ"])
    func invalidPageLanguageFails(_ lang: String) throws {
        let result = try Self.audit("html-lang-valid", Self.page(htmlAttributes: "lang=\"\(lang)\""))
        let violation = try #require(result.violations.first, "lang=\"\(lang)\" should fail")
        guard case .violation(let message) = violation.outcome else { return }
        #expect(message.contains("lang=\"\(lang)\""))
        #expect(violation.target == "html")
    }

    @Test func xmlLangIsCheckedToo() throws {
        let both = try Self.audit("html-lang-valid", Self.page(htmlAttributes: #"lang="en" xml:lang="english""#))
        let violation = try #require(both.violations.first)
        guard case .violation(let message) = violation.outcome else { return }
        #expect(message.contains(#"xml:lang="english""#))
        #expect(!message.contains(#"lang="en""#))

        #expect(try Self.audit("html-lang-valid", Self.page(htmlAttributes: #"xml:lang="fr""#)).passes.count == 1)
        #expect(try Self.audit("html-lang-valid", Self.page(htmlAttributes: #"lang="english" xml:lang="english""#)).violations.count == 1)
    }

    @Test func missingOrEmptyLanguageIsLeftToHTMLHasLang() throws {
        #expect(try Self.audit("html-lang-valid", Self.page(htmlAttributes: "")).nodes.isEmpty)
        #expect(try Self.audit("html-lang-valid", Self.page(htmlAttributes: #"lang="""#)).nodes.isEmpty)
        #expect(try Self.audit("html-lang-valid", Self.page(htmlAttributes: #"lang="" xml:lang="""#)).nodes.isEmpty)
        // An empty lang does not hide an invalid xml:lang.
        #expect(try Self.audit("html-lang-valid", Self.page(htmlAttributes: #"lang="" xml:lang="xx""#)).violations.count == 1)
    }

    @Test func onlyTheRootElementCounts() throws {
        let page = Self.page(htmlAttributes: #"lang="en""#, body: #"<p lang="xx">Wrong inner language</p>"#)
        let result = try Self.audit("html-lang-valid", page)
        #expect(result.nodes.map(\.target) == ["html"])
        #expect(result.passes.count == 1)
    }

    @Test func auditScopeWithoutTheRootLeavesItOut() throws {
        let page = Self.page(htmlAttributes: #"lang="english""#, body: "<main><p>Hi</p></main>")
        let scoped = try Self.audit("html-lang-valid", page, scope: AuditScope(include: [try SelectorList("main")]))
        #expect(scoped.nodes.isEmpty)
        let excluded = try Self.audit("html-lang-valid", page, scope: AuditScope(exclude: [try SelectorList("main")]))
        #expect(excluded.violations.count == 1)
    }

    @Test func pageLanguageAndInnerLanguagesTogether() throws {
        let page = """
            <!DOCTYPE html>
            <html lang="en-GB"><head><title>Greetings</title></head>
            <body>
              <p id="fr" lang="fr">Bonjour</p>
              <p id="typo" lang="en_GB">Hello</p>
              <blockquote id="empty" lang="xx"><img src="divider.png" alt=""></blockquote>
              <div id="wrapper" lang="xx"><span id="de" lang="de">Hallo</span></div>
              <div hidden><p id="hidden" lang="xx">Hidden</p></div>
              <section id="quiet" lang="qq"><p aria-hidden="true">Shown on screen</p></section>
            </body></html>
            """
        #expect(try Self.audit("html-lang-valid", page).passes.count == 1)
        let inner = try Self.audit("valid-lang", page)
        var outcomes: [String: String] = [:]
        for node in inner.nodes {
            switch node.outcome {
            case .pass: outcomes[node.element.id ?? node.target] = "pass"
            case .violation: outcomes[node.element.id ?? node.target] = "violation"
            case .incomplete: outcomes[node.element.id ?? node.target] = "incomplete"
            }
        }
        #expect(outcomes == [
            "fr": "pass", "typo": "violation", "empty": "pass", "wrapper": "pass", "de": "pass",
            "quiet": "violation",
        ])
    }
}
