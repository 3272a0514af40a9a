import CanopyAccessibility
import CanopyHTML
import Testing

struct FocusAndStyleTests {
    func model(_ html: String) -> (AccessibilityModel, Document) {
        let document = HTMLParser().parse(html: html)
        return (AccessibilityModel(document: document), document)
    }

    @Test func tabbableNeedsANonNegativeTabIndex() throws {
        let (model, document) = model("""
            <button id=b>b</button><button id=neg tabindex=-1>b</button><div id=zero tabindex=0>d</div>
            <div id=junk tabindex='1abc'>d</div><div inert><a id=inert href=x>x</a></div>
            <div id=plain>d</div><span id=ce contenteditable=true>e</span>
            <summary id=sum>s</summary><details id=det>x</details><details id=detsum><summary>s</summary></details>
            """)
        func element(_ id: String) throws -> Element { try #require(document.element(withID: id)) }
        #expect(model.isTabbable(try element("b")))
        let negative = try element("neg")
        #expect(model.isFocusable(negative) && !model.isTabbable(negative))
        #expect(model.isTabbable(try element("zero")))
        #expect(model.isTabbable(try element("junk")))  // parseInt("1abc") is 1, as browsers read it
        let inert = try element("inert")
        #expect(!model.isFocusable(inert) && model.isInert(inert))
        #expect(!model.isFocusable(try element("plain")))
        #expect(!model.isFocusable(try element("ce")))  // axe-core ignores contenteditable
        #expect(model.isFocusable(try element("sum")))
        #expect(model.isFocusable(try element("det")))
        #expect(!model.isFocusable(try element("detsum")))
    }

    @Test func pageStyleRulesHideElements() throws {
        let (model, document) = model("""
            <style>
              /* comment { display: none } */
              .gone { display: none }
              #secret, nav .menu { visibility: hidden }
              @media print { .print-only { display: none } }
              .shown.gone { display: block !important }
              a:hover { display: none }
              p.later { display: none; }
            </style>
            <style media=print>.printed { display: none }</style>
            <div id=a class=gone><span id=a1>x</span></div>
            <div id=b class="gone shown">x</div>
            <div id=c class=gone style="display:block">x</div>
            <p id=d id=secret>x</p><p id=secret>s<span id=e style="visibility:visible">v</span></p>
            <nav><ul class=menu id=f><li id=f1>x</li></ul></nav><ul class=menu id=g></ul>
            <div id=h class=print-only>x</div><a id=i href=x>link</a><div id=j class=printed>x</div>
            <p id=k class=later>x</p>
            """)
        func hidden(_ id: String) throws -> Bool {
            model.isHiddenFromAssistiveTechnology(try #require(document.element(withID: id)))
        }
        for id in ["a", "a1", "secret", "f", "f1", "k"] { #expect(try hidden(id), "\(id)") }
        for id in ["b", "c", "e", "g", "h", "i", "j"] { #expect(try !hidden(id), "\(id)") }
        #expect(model.isNotRendered(try #require(document.element(withID: "a1"))))
        #expect(!model.isNotRendered(try #require(document.element(withID: "secret"))))
    }

    @Test func neverRenderedElements() throws {
        let (model, document) = model("""
            <template><p id=tp>x</p></template><noscript><p id=ns>x</p></noscript>
            <details open><summary>s</summary><p id=open>x</p></details>
            <p id=visible>x</p>
            """)
        #expect(model.isNotRendered(try #require(document.element(withID: "ns"))))
        #expect(!model.isNotRendered(try #require(document.element(withID: "open"))))
        #expect(!model.isNotRendered(try #require(document.element(withID: "visible"))))
    }
}
