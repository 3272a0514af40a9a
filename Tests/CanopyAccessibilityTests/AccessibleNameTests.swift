import CanopyAccessibility
import CanopyHTML
import Testing

struct AccessibleNameTests {
    /// The accessible name of the element with id `target` in `html`.
    func name(_ html: String, of target: String = "t") throws -> String {
        let document = HTMLParser().parse(html: html)
        let model = AccessibilityModel(document: document)
        return model.accessibleName(of: try #require(document.element(withID: target)))
    }

    @Test(arguments: [
        // aria-labelledby wins, joins references in order, counts hidden targets, and is not followed twice.
        ("<button id=t aria-labelledby='a b' aria-label=x>c</button><span id=a>Hello</span><span id=b>world</span>", "Hello world"),
        ("<button id=t aria-labelledby=h>c</button><span id=h hidden>Hidden text</span>", "Hidden text"),
        ("<button id=t aria-labelledby=a>c</button><span id=a aria-labelledby=b>A</span><span id=b>B</span>", "A"),
        ("<button id=t aria-labelledby='missing'>content</button>", "content"),
        ("<div id=t aria-labelledby=t aria-label='self'>x</div>", "self"),
        // aria-label, then native text, then content, then title.
        ("<button id=t aria-label='  Close  '>X</button>", "Close"),
        ("<button id=t aria-label='   '>Text</button>", "Text"),
        ("<img id=t alt='A cat' title=t>", "A cat"),
        ("<img id=t title='Tooltip'>", "Tooltip"),
        ("<img id=t alt=''>", ""),
        ("<a id=t href=x>Go <img alt='home'> now</a>", "Go home now"),
        ("<a id=t href=x title=Fallback><img alt=''></a>", "Fallback"),
        ("<button id=t>  Save\n\n  changes </button>", "Save changes"),
        ("<button id=t><span>Sa</span><span>ve</span></button>", "Save"),
        ("<button id=t><div>one</div><div>two</div></button>", "one two"),
        ("<button id=t>Visible<span hidden>secret</span><span aria-hidden=true>x</span></button>", "Visible"),
        ("<button id=t>Visible<span style='display:none'>secret</span></button>", "Visible"),
        // Input buttons: value, title, then the browser's default text.
        ("<input id=t type=submit>", "Submit"),
        ("<input id=t type=reset>", "Reset"),
        ("<input id=t type=button>", ""),
        ("<input id=t type=button value='Go'>", "Go"),
        ("<input id=t type=image alt='Search'>", "Search"),
        ("<input id=t type=image src=x>", "Submit"),
        ("<input id=t type=submit title='Send it'>", "Send it"),
        // Labels: for, wrapping, both in document order, and placeholder after them.
        ("<label for=t>Email</label><input id=t>", "Email"),
        ("<label>Name <input id=t></label>", "Name"),
        ("<label for=t>First</label><label>Second <input id=t></label>", "First Second"),
        ("<input id=t placeholder='Search here'>", "Search here"),
        ("<label for=t>Notes</label><textarea id=t>text</textarea>", "Notes"),
        ("<label>Pick <select id=t><option>One</option></select></label>", "Pick"),
        ("<label for=t hidden>Gone</label><input id=t title=Tip>", "Tip"),
        ("<label for=t><span aria-labelledby=x>L</span></label><input id=t><span id=x>no</span>", "L"),
        // Embedded controls contribute their values to the name of what contains them (accname examples).
        ("<label for=t>Flash the screen <input value=3 size=2> times</label><input type=checkbox id=t>", "Flash the screen 3 times"),
        ("<div id=t role=link>Pick <select><option>A</option><option selected>B</option></select></div>", "Pick B"),
        ("<div id=t role=link>Pick <select><option>A</option><option>B</option></select></div>", "Pick A"),
        ("<div id=t role=button>Go <span role=slider aria-valuenow=5></span></div>", "Go 5"),
        ("<div id=t role=button>Go <span role=spinbutton aria-valuenow=x></span></div>", "Go 0"),
        ("<div id=t role=button>Go <div role=textbox>typed</div></div>", "Go typed"),
        ("<div id=t role=button>A <div role=listbox><div role=option aria-selected=true>Chosen</div></div></div>", "A Chosen"),
        // The element being named never uses its own value.
        ("<input id=t value='typed text'>", ""),
        // Other native texts.
        ("<fieldset id=t><legend>Shipping</legend><input></fieldset>", "Shipping"),
        ("<fieldset id=t><fieldset><legend>Inner</legend></fieldset></fieldset>", ""),
        ("<table id=t><caption>Prices</caption><tr><td>1</td></tr></table>", "Prices"),
        ("<table id=t summary='Sum'><tr><td>1</td></tr></table>", "Sum"),
        ("<figure id=t><img alt=x><figcaption>Caption</figcaption></figure>", "Caption"),
        ("<details><summary id=t>More info</summary></details>", "More info"),
        ("<svg id=t><title>Chart</title></svg>", "Chart"),
        ("<h2 id=t>Title <em>here</em></h2>", "Title here"),
        // Roles that are not named from content take no name from it.
        ("<nav id=t>Links</nav>", ""),
        ("<ul id=t role=list><li>x</li></ul>", ""),
        ("<div id=t role=img>Text</div>", ""),
        // Presentational elements have no native name and no title; a focusable one is not presentational.
        ("<img id=t role=presentation alt='Ignored'>", ""),
        ("<span id=t role=none title='Ignored'></span>", ""),
        ("<a id=t href=x role=presentation title='Hello'></a>", "Hello"),
        ("<button id=t role=none>Hello</button>", "Hello"),
        // axe's own cases: labels of embedded controls, values in labelledby context, hidden targets.
        ("<div id=t2label>This is <input value='the value' aria-labelledby=t1label id=t1> of <i>everything</i></div><div id=t1label>This is a <b>label</b></div><input id=t aria-labelledby=t2label>", "This is the value of everything"),
        ("<div id=l>This <span aria-label='not a span'>span</span> is <input value=v aria-labelledby=x> of <i>everything</i></div><input id=t aria-labelledby=l><p id=x>x</p>", "This not a span is v of everything"),
        ("<div id=l style='display:none'>This is a <span style='visibility:hidden'>hidden </span><span aria-hidden=true>secret</span><script>no</script></div><input id=t aria-labelledby=l>", "This is a hidden secret"),
        ("<div id=t>This is <input type=hidden value=v> of <i title=italics></i></div>", "This is of italics"),
        ("<label for=t><select><option selected>Chosen</option></select></label><input id=t>", "Chosen"),
        ("<select id=l><option selected>Chosen</option></select><input id=t aria-labelledby=l>", "Chosen"),
        ("<div id=t><label for=tb1>My form input</label><input id=tb1></div>", "My form input"),
        ("<a id=t href=x>Hello<div>World</div></a>", "Hello World"),
        ("<a id=t href=x>Hello<span>World</span></a>", "HelloWorld"),
        ("<a id=t href=x><script>var x = 1;</script></a>", ""),
        ("<label><input id=t type=button></label>", ""),
    ])
    func names(html: String, expected: String) throws {
        #expect(try name(html) == expected, "\(html)")
    }

    @Test func cyclesAndDeepNestingTerminate() throws {
        #expect(try name("<div id=t role=button aria-owns=t>Loop</div>") == "Loop")
        #expect(try name("<div id=t role=button aria-owns=u>A</div><div id=u role=button aria-owns=t>B</div>") == "A B")
        let deep = String(repeating: "<span>", count: 3000) + "deep" + String(repeating: "</span>", count: 3000)
        _ = try name("<button id=t>\(deep)</button>")
    }

    @Test func descriptionFromDescribedByThenTitle() throws {
        let document = HTMLParser().parse(html: """
            <button id=a aria-describedby='d1 d2'>A</button><p id=d1>First</p><p id=d2 hidden>second</p>
            <button id=b title='More'>B</button><button id=c title='Same'></button>
            <button id=e aria-description='Described'>E</button>
            """)
        let model = AccessibilityModel(document: document)
        #expect(model.accessibleDescription(of: try #require(document.element(withID: "a"))) == "First second")
        #expect(model.accessibleDescription(of: try #require(document.element(withID: "b"))) == "More")
        #expect(model.accessibleDescription(of: try #require(document.element(withID: "c"))) == "")
        #expect(model.accessibleDescription(of: try #require(document.element(withID: "e"))) == "Described")
    }
}

extension AccessibleNameTests {
    @Test func repeatedLabelledByReferencesRepeatTheirText() throws {
        #expect(try name("<button id=t aria-labelledby='a a'>x</button><span id=a>Hi</span>") == "Hi Hi")
    }

    @Test func hiddenLabelledByTargetIncludesItsHiddenDescendants() throws {
        #expect(try name("<input id=t aria-labelledby=l><div id=l hidden>Full <span>name</span></div>") == "Full name")
        #expect(try name("<input id=t aria-labelledby=l><div id=l>Shown <span hidden>not this</span></div>") == "Shown")
    }
}

extension AccessibleNameTests {
    @Test func whitespaceIsNormalizedAsAxeDoes() throws {
        #expect(try name("<button id=t>\u{00A0}Save&nbsp;&nbsp;now\r\n</button>") == "Save now")
        #expect(try name("<button id=t aria-label='a\u{2003}\u{2003}b'>x</button>") == "a b")
    }
}

extension AccessibleNameTests {
    @Test func ariaWidgetValuesNeedExplicitRoles() throws {
        // A native range input gives its (sanitized) value; a native select its selected options.
        #expect(try name("<div id=t role=button>Vol <input type=range value=4> end</div>") == "Vol 4 end")
        #expect(try name("<div id=t role=button>Vol <input type=range> end</div>") == "Vol 50 end")
        #expect(try name("<div id=t role=button>Vol <input type=range max=10 value=70> end</div>") == "Vol 10 end")
        #expect(try name("<div id=t role=button>Pick <select multiple><option selected>A</option><option selected>B</option></select> now</div>") == "Pick A B now")
        #expect(try name("<div id=t role=button>Pick <div role=combobox><div role=listbox><div role=option aria-selected=true>X</div></div></div> now</div>") == "Pick X now")
        #expect(try name("<div id=t role=button>Type <div role=textbox>a<span aria-hidden=true>b</span></div> end</div>") == "Type a end")
    }
}

extension AccessibleNameTests {
    @Test func ownedElementsComeAfterChildrenOnce() throws {
        #expect(try name("<div id=t role=button aria-owns='b b'><div id=b>B</div> A</div>") == "A B")
        #expect(try name("<div id=t role=button aria-owns=x>A</div><div id=x>X</div>") == "A X")
    }
}
