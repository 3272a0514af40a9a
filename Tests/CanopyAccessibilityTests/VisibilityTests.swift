import CanopyAccessibility
import CanopyHTML
import Testing

struct VisibilityTests {
    func model(_ html: String) -> (AccessibilityModel, Document) {
        let document = HTMLParser().parse(html: html)
        return (AccessibilityModel(document: document), document)
    }

    @Test func hiddenFromAssistiveTechnology() throws {
        let (model, document) = model("""
            <div id=a hidden><span id=a1>x</span></div>
            <div id=b aria-hidden="true"><span id=b1>x</span></div>
            <div id=c style="display: none"><span id=c1>x</span></div>
            <div id=d style="visibility:hidden"><span id=d1>x</span><span id=d2 style="visibility: visible">y</span></div>
            <div id=e aria-hidden="false">shown</div>
            <details id=f><summary id=f1>s</summary><p id=f2>body</p></details>
            <div id=g inert><button id=g1>b</button></div>
            """)
        for id in ["a", "a1", "b", "b1", "c", "c1", "d", "d1", "f2", "g", "g1"] {
            #expect(model.isHiddenFromAssistiveTechnology(try #require(document.element(withID: id))), "\(id)")
        }
        for id in ["d2", "e", "f", "f1"] {
            #expect(!model.isHiddenFromAssistiveTechnology(try #require(document.element(withID: id))), "\(id)")
        }
    }

    @Test func focusable() throws {
        let (model, document) = model("""
            <a id=link href=x>l</a><a id=anchor>no href</a><button id=b>b</button><button id=bd disabled>b</button>
            <input id=i><input id=ih type=hidden><div id=t tabindex=-1>t</div><div id=tx tabindex=x>t</div>
            <fieldset disabled><legend><input id=inlegend></legend><input id=infield></fieldset>
            <div id=ce contenteditable>e</div><div style="display:none"><button id=hb>h</button></div>
            """)
        for id in ["link", "b", "i", "t", "inlegend"] {
            #expect(model.isFocusable(try #require(document.element(withID: id))), "\(id)")
        }
        // contenteditable alone does not make an element focusable for axe-core.
        for id in ["anchor", "bd", "ih", "tx", "infield", "hb", "ce"] {
            #expect(!model.isFocusable(try #require(document.element(withID: id))), "\(id)")
        }
    }

    @Test func explicitRolesUseTheFirstConcreteToken() throws {
        let (model, document) = model("<div id=a role='foo button'></div><div id=b role='widget'></div><div id=c role='NAVIGATION'></div>")
        #expect(model.explicitRole(of: try #require(document.element(withID: "a"))) == "button")
        #expect(model.explicitRole(of: try #require(document.element(withID: "b"))) == nil)
        #expect(model.explicitRole(of: try #require(document.element(withID: "c"))) == "navigation")
    }

    @Test func presentationalRoleConflict() throws {
        let (model, document) = model("<img id=a role=none src=x><img id=b role=none tabindex=0 src=x><img id=c role=presentation aria-label=x src=x>")
        #expect(model.role(of: try #require(document.element(withID: "a"))) == "none")
        #expect(model.role(of: try #require(document.element(withID: "b"))) == "img")
        #expect(model.role(of: try #require(document.element(withID: "c"))) == "img")
    }

    /// `hasVisibleText` says what `visibleText(of:).isEmpty` says, for every element of a page
    /// whose text is only whitespace of every kind, hidden, behind a line break, or not ASCII.
    @Test func hasVisibleTextAgreesWithTheText() throws {
        let (model, document) = model("""
            <p> \t\n </p><p>\u{00A0}\u{3000}\u{2028}</p><p>\u{00A0}x</p><p><br> <br></p><p><span hidden>h</span> </p>
            <p><span style="display:none">n</span><span style="visibility:hidden">v</span><b> <i>i</i></b></p>
            <a href=x>\u{FEFF}</a><a href=y>\u{0085}</a><a href=z><img alt=i></a><p>é</p><p>\r\n</p><p><!-- c --></p>
            <div style="visibility:hidden"><span style="visibility:visible">shown</span></div><p>\u{1680}\u{205F}<u>\u{1F600}</u></p>
            """)
        let root = try #require(document.documentElement)
        var withText = 0
        for element in [root] + Array(root.descendants) {
            let expected = !model.visibleText(of: element).isEmpty
            #expect(model.hasVisibleText(element) == expected, "\(element)")
            withText += expected ? 1 : 0
        }
        #expect(withText >= 10)
    }
}
