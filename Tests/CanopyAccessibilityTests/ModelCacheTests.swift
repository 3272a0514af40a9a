import CanopyAccessibility
import CanopyHTML
import Testing

/// The model keeps roles, names and attribute facts per element once computed: asking again, in
/// any order and with any option set, gives what a fresh model gives. (A section labelled by
/// itself is left out: its role depends on which question reached it first, as it always has.)
struct ModelCacheTests {
    let html = """
        <nav aria-label=Main><ul role=none><li id=li>One</li></ul></nav>
        <div id=tabs role=" TabList "><button id=tab role="tab bogus" aria-selected=true>A</button></div>
        <section id=sec aria-labelledby=h><h2 id=h>News</h2></section>
        <table role=grid><tr><td id=cell>1</td></tr></table>
        <a id=link href=x><code>Foo</code> bar</a><p id=plain ARIA-Hidden=false>Text</p><p id=bare>x</p>
        """

    @Test func cachedAnswersMatchAFreshModel() throws {
        let document = HTMLParser().parse(html: html)
        let warm = AccessibilityModel(document: document)
        let options: [RoleOptions] = [.standard, .axeDefault, RoleOptions(fallback: true, dpub: false, abstracts: true)]
        // Warm every cache twice, in document order and backwards.
        for element in Array(document.elements) + document.elements.reversed() {
            for option in options {
                _ = warm.role(of: element, options: option)
                _ = warm.explicitRole(of: element, options: option)
            }
            _ = warm.accessibleName(of: element)
            _ = warm.isNamedFromContent(element)
            _ = warm.hasARIAAttribute(element)
        }
        for element in document.elements {
            let fresh = AccessibilityModel(document: document)
            for option in options {
                #expect(warm.role(of: element, options: option) == fresh.role(of: element, options: option))
                #expect(warm.explicitRole(of: element, options: option) == fresh.explicitRole(of: element, options: option))
            }
            #expect(warm.accessibleName(of: element) == AccessibilityModel(document: document).accessibleName(of: element))
            #expect(warm.isNamedFromContent(element) == AccessibilityModel(document: document).isNamedFromContent(element))
        }
    }

    @Test func explicitRolesAreNormalizedWhetherCachedOrNot() throws {
        let document = HTMLParser().parse(html: html)
        let model = AccessibilityModel(document: document)
        let tabs = try #require(document.element(withID: "tabs"))
        let tab = try #require(document.element(withID: "tab"))
        #expect(model.explicitRole(of: tabs) == "tablist")
        #expect(model.explicitRole(of: tabs) == "tablist")
        #expect(model.explicitRole(of: tab, options: .standard) == "tab")
        #expect(model.explicitRole(of: tab, options: .axeDefault) == nil)  // the whole value is no role
    }

    @Test func ariaAttributesAreFoundInAnyCase() throws {
        let document = HTMLParser().parse(html: html)
        let model = AccessibilityModel(document: document)
        #expect(model.hasARIAAttribute(try #require(document.element(withID: "tab"))))
        #expect(model.hasARIAAttribute(try #require(document.element(withID: "plain"))))
        #expect(!model.hasARIAAttribute(try #require(document.element(withID: "bare"))))
        #expect(ARIAAttributes.isARIAName("ARIA-label") && !ARIAAttributes.isARIAName("arialabel"))
    }
}
