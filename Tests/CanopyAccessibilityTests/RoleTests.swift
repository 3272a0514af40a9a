import CanopyAccessibility
import CanopyHTML
import Testing

struct RoleTests {
    func roles(_ html: String) -> (AccessibilityModel, Document) {
        let document = HTMLParser().parse(html: html)
        return (AccessibilityModel(document: document), document)
    }

    func role(_ html: String, of id: String = "t") throws -> String? {
        let (model, document) = roles(html)
        return model.role(of: try #require(document.element(withID: id)))
    }

    @Test(arguments: [
        ("<a id=t href=x>l</a>", "link"), ("<a id=t>l</a>", nil), ("<map><area id=t href=x></map>", "link"),
        ("<img id=t src=x>", "img"), ("<img id=t alt=''>", "presentation"), ("<img id=t alt='' aria-label=x>", "img"),
        ("<img id=t alt='' tabindex=0>", "img"), ("<img id=t alt=cat>", "img"),
        ("<section id=t>x</section>", nil), ("<section id=t aria-label='News'>x</section>", "region"),
        ("<section id=t aria-labelledby=h><h2 id=h>News</h2></section>", "region"),
        ("<section id=t title='Only title'>x</section>", nil),
        ("<form id=t></form>", nil), ("<form id=t aria-label=Search></form>", "form"),
        ("<header id=t>x</header>", "banner"), ("<main><header id=t>x</header></main>", nil),
        ("<article><footer id=t>x</footer></article>", nil), ("<div role=region><footer id=t>x</footer></div>", nil),
        ("<footer id=t>x</footer>", "contentinfo"),
        ("<input id=t>", "textbox"), ("<input id=t type=bogus>", "textbox"), ("<input id=t type=email>", "textbox"),
        ("<input id=t list=d><datalist id=d></datalist>", "combobox"), ("<input id=t list=nowhere>", "textbox"),
        ("<input id=t type=search>", "searchbox"), ("<input id=t type=checkbox>", "checkbox"),
        ("<input id=t type=radio>", "radio"), ("<input id=t type=range>", "slider"),
        ("<input id=t type=number>", "spinbutton"), ("<input id=t type=submit>", "button"),
        ("<input id=t type=image>", "button"), ("<input id=t type=password>", "textbox"),
        ("<input id=t type=date>", "textbox"),
        ("<select id=t></select>", "combobox"), ("<select id=t multiple></select>", "listbox"),
        ("<select id=t size=4></select>", "listbox"), ("<select id=t size=1></select>", "combobox"),
        ("<ul><li id=t>x</li></ul>", "listitem"), ("<ul role=none><li id=t>x</li></ul>", "none"),
        ("<ul role=list><li id=t>x</li></ul>", "listitem"),
        ("<table><tr><td id=t>x</td></tr></table>", "cell"), ("<table role=grid><tr><td id=t>x</td></tr></table>", "gridcell"),
        ("<table role=presentation><tr><td id=t>x</td></tr></table>", "presentation"),
        ("<body id=t>x</body>", "document"), ("<dl><dt id=t>a</dt><dd>b</dd></dl>", "term"),
        ("<dl><dt>a</dt><dd id=t>b</dd></dl>", "definition"), ("<details><summary id=t>s</summary></details>", "button"),
        ("<h3 id=t>x</h3>", "heading"), ("<hr id=t>", "separator"), ("<nav id=t></nav>", "navigation"),
        ("<progress id=t></progress>", "progressbar"),
        ("<output id=t></output>", "status"), ("<textarea id=t></textarea>", "textbox"),
        ("<div id=t>x</div>", nil), ("<span id=t>x</span>", nil), ("<p id=t>x</p>", nil), ("<meter id=t></meter>", "meter"),
        ("<search id=t></search>", "search"), ("<aside id=t></aside>", "complementary"),
        ("<article><aside id=t>x</aside></article>", nil), ("<article><aside id=t title=Related>x</aside></article>", "complementary"),
        ("<main><aside id=t>x</aside></main>", "complementary"), ("<section role=none><footer id=t>x</footer></section>", "contentinfo"),
        ("<div id=t role='foo button'>x</div>", "button"), ("<div id=t role=' Button '>x</div>", "button"),
        ("<section id=t role=doc-chapter>x</section>", "doc-chapter"),
        ("<button id=t role=presentation>x</button>", "button"), ("<div id=t role=none aria-live=polite>x</div>", nil),
    ] as [(String, String?)])
    func implicitAndResolvedRoles(html: String, expected: String?) throws {
        #expect(try role(html) == expected, "\(html)")
    }

    @Test func tableHeadersTakeTheirScopeFromTheGrid() throws {
        let (model, document) = roles("""
            <table>
              <tr><th id=corner>x</th><th id=top>Col</th><th id=top2>Col</th></tr>
              <tr><th id=side>Row</th><td>1</td><td>2</td></tr>
              <tr><th id=scoped scope=row>R</th><th id=mixed>?</th><td>3</td></tr>
              <tr><th id=foot>f</th><th id=colscope scope=col>c</th><td role=columnheader id=aria>c</td></tr>
            </table>
            """)
        func role(_ id: String) throws -> String? { model.role(of: try #require(document.element(withID: id))) }
        #expect(try role("corner") == "columnheader")
        #expect(try role("top") == "columnheader")
        #expect(try role("side") == "rowheader")
        #expect(try role("scoped") == "rowheader")
        #expect(try role("mixed") == "columnheader")
        #expect(try role("colscope") == "columnheader")
        #expect(try role("foot") == "rowheader")
        #expect(try role("aria") == "columnheader")
    }

    @Test func axeDefaultRoleReadingRejectsFallbackListsAndDPUB() throws {
        let (model, document) = roles("<div id=a role='foo button'></div><section id=b aria-label=x role=doc-chapter></section>")
        let a = try #require(document.element(withID: "a"))
        let b = try #require(document.element(withID: "b"))
        #expect(model.explicitRole(of: a, options: .axeDefault) == nil)
        #expect(model.role(of: b, options: .axeDefault) == "region")
        #expect(model.role(of: b) == "doc-chapter")
    }

    @Test func selfReferencingSectionNameTerminates() throws {
        #expect(try role("<section id=t aria-labelledby=t>Text</section>") == "region")
        #expect(try role("<form id=t aria-labelledby=t><section aria-labelledby=t>x</section></form>") == "form")
    }
}

struct ARIATableTests {
    @Test func everySuperclassAndReferencedRoleExists() {
        for role in ARIARoles.all {
            for name in role.superclassRoles + role.requiredContext + role.requiredOwned {
                #expect(ARIARoles.role(named: name) != nil, "\(role.name) refers to unknown role \(name)")
            }
            if role.name != "roletype" {
                #expect(role.superclassChain.contains("roletype"), "\(role.name) does not descend from roletype")
            }
        }
    }

    @Test func everyRoleAttributeIsAKnownAttribute() {
        for role in ARIARoles.all {
            for name in role.requiredAttributes + role.allowedAttributes + role.prohibitedAttributes {
                #expect(ARIAAttributes.attribute(named: name) != nil, "\(role.name) lists unknown \(name)")
            }
        }
    }

    @Test func tokenAttributesListTheirTokens() {
        for attribute in ARIAAttributes.all {
            let isToken = attribute.valueType == .token || attribute.valueType == .tokenList
            #expect(isToken == !attribute.allowedValues.isEmpty, "\(attribute.name)")
        }
    }

    @Test func knownFacts() throws {
        let button = try #require(ARIARoles.role(named: "button"))
        #expect(button.nameRequired && button.nameFromContent && button.childrenPresentational)
        #expect(button.isSubclass(of: "widget"))
        #expect(button.supportedAttributes.contains("aria-pressed"))
        #expect(try #require(ARIARoles.role(named: "checkbox")).requiredAttributes == ["aria-checked"])
        #expect(try #require(ARIARoles.role(named: "listitem")).requiredContext == ["list"])
        #expect(try #require(ARIARoles.role(named: "paragraph")).nameSource == .prohibited)
        #expect(try #require(ARIARoles.role(named: "heading")).nameSource == .contents)
        #expect(try #require(ARIARoles.role(named: "navigation")).nameSource == .author)
        #expect(try #require(ARIARoles.role(named: "directory")).deprecated)
        #expect(try #require(ARIARoles.role(named: "doc-chapter")).kind == .landmark)
        #expect(try #require(ARIARoles.role(named: "doc-toc")).type == "navigation")
        #expect(ARIARoles.role(named: "command")?.isAbstract == true)
        #expect(ARIARoles.globalAttributes.contains("aria-describedby"))
        #expect(!ARIARoles.globalAttributes.contains("aria-checked"))
        let checked = try #require(ARIAAttributes.attribute(named: "aria-checked"))
        #expect(checked.accepts("mixed") && checked.accepts("TRUE") && !checked.accepts("yes"))
        #expect(try #require(ARIAAttributes.attribute(named: "aria-level")).accepts("2"))
        #expect(!(try #require(ARIAAttributes.attribute(named: "aria-level")).accepts("0")))
        #expect(try #require(ARIAAttributes.attribute(named: "aria-relevant")).accepts("additions text"))
        #expect(try #require(ARIAAttributes.attribute(named: "aria-grabbed")).deprecated)
    }
}

struct LanguageTagTests {
    @Test(arguments: [
        "en", "EN-us", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1996", "en-US-x-twain", "x-private",
        "zh-yue-HK", "i-klingon", "en-a-bbb-x-a-ccc", "sl-rozaj-biske",
    ])
    func wellFormed(tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test(arguments: [
        "", "en_US", "en-", "-en", "e", "english-is-long-tag-123456789", "de-419-DE", "a-DE", "en-a-bbb-a-ccc",
        "de-1996-1996", "en-x", "ab-123456789",
    ])
    func malformed(tag: String) {
        #expect(!LanguageTag.isWellFormed(tag))
    }

    @Test func primarySubtagsAsAxeChecksThem() {
        #expect(LanguageTag.primarySubtag(of: " EN-gb ") == "en")
        for tag in ["en", "en-XX", "fr-CA", "zh", "yue", "cmn-Hans", "iw", "haw", "gsw"] {
            #expect(LanguageTag.hasKnownPrimarySubtag(tag), "\(tag)")
        }
        for tag in ["", "english", "en_US", "xx", "zz-ZZ", "qab"] {
            #expect(!LanguageTag.hasKnownPrimarySubtag(tag), "\(tag)")
        }
    }
}
