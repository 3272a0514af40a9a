@testable import CanopyAccessibility
import Foundation
import CanopyHTML
import Testing

/// Name computations share the walks that come out the same for many elements: the `<label for>`
/// elements of controls that share an id (SharedLabels) and labelledby/describedby references
/// (ReferenceText). Every element's name and description must be what its own walks give.
struct SharedLabelsTests {
    static let pages = [
        // Flat: the controls are outside the labels.
        "<input id=x><label for=x>One</label><input id=x><label for=x>Two</label><select id=x></select>",
        // Controls inside the labels that name them, with values, a select and a textarea.
        "<label for=x>A <input id=x value=v1></label><label for=x>B <input id=x value=v2></label>"
            + "<label for=x>C <select id=x><option>o1<option selected>o2</select></label><textarea id=x>t</textarea>",
        // Unclosed labels nest: each label holds the next control and label.
        String(repeating: "<label for=x>L <input id=x value=n>", count: 12),
        // A wrapping label that is not one of them, around a control and one of them.
        "<label>W <input id=x value=w><label for=x>In</label></label><input id=x><label for=x>Out</label>",
        // aria-label, title, hidden parts and whitespace on the labels; a control with aria-label.
        "<label for=x aria-label='  Named  '>N <input id=x aria-label=' '></label><label for=x title=T></label>"
            + "<label for=x><span hidden>h</span> <b>bold</b></label><input id=x type=image alt=''><input id=x>",
        // A label owning a control through aria-owns, and labels with embedded widgets.
        "<label for=x aria-owns=o>O</label><input id=x><span id=o><input id=x value=owned></span>"
            + "<label for=x><span role=textbox id=x>tb</span></label><label for=x><div role=listbox id=x>"
            + "<div role=option aria-selected=true>opt</div></div></label>",
        // Controls that take their name elsewhere first, and one id shared with non-controls.
        "<input id=x aria-labelledby=l><span id=l>By</span><label for=x>Lx</label><div id=x>d</div>"
            + "<input id=x placeholder=p><label for=x><label for=x>nested</label></label>",
        // Wrapping labels that are not among them, one around a control and a label of its id.
        "<label>W1 <input id=x value=a><label for=x>E1</label></label><label for=x>E2</label>"
            + "<label>W2 <select id=x><option>s</select></label><label for=x aria-label=E3></label>",
        // Many elements labelled and described by the same elements, some of which hold them.
        "<div id=x><input id=x aria-labelledby=big value=v1></div><div id=big>Big <b>text</b>"
            + "<input id=x aria-labelledby=big value=v2><span hidden>h</span></div><label for=x>L</label>"
            + "<button id=x aria-labelledby='big big' aria-describedby=big>b</button>"
            + "<a href=# id=x aria-describedby='big x'>link</a><span id=s aria-labelledby=s>self</span>"
            + "<button id=x aria-labelledby=hid>c</button><p id=hid hidden>hidden <i>text</i></p>",
    ]

    @Test(arguments: pages)
    func namesAreTheSameAsWithoutSharing(_ html: String) {
        let document = HTMLParser().parse(html: html)
        let shared = AccessibilityModel(document: document)
        let plain = AccessibilityModel(document: document, sharesWalks: false)
        var shareable = 0
        for element in document.elements {
            let place = "\(element.localName) at \(element.position)"
            #expect(shared.accessibleName(of: element) == plain.accessibleName(of: element), "\(place)")
            #expect(shared.accessibleDescription(of: element) == plain.accessibleDescription(of: element), "\(place)")
            #expect(shared.ariaLabelledByText(of: element) == plain.ariaLabelledByText(of: element), "\(place)")
            if element.id == "x", shared.sharedLabels(forID: "x") != nil { shareable += 1 }
        }
        // The pages do reach the shared paths.
        #expect(shareable > 1 || !shared.referenceTexts.isEmpty)
    }
}

/// The same comparison on real markup: the axe-core fixture pages the parse fuzzer starts from.
struct SharedWalksOnFixturePagesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/seeds/parse")

    static var pages: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func thereArePages() { #expect(Self.pages.count >= 20) }

    @Test(arguments: pages)
    func namesAreTheSameAsWithoutSharing(_ page: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(page)))
        let document = HTMLParser().parse(bytes: bytes, contentType: "text/html", url: nil)
        let shared = AccessibilityModel(document: document)
        let plain = AccessibilityModel(document: document, sharesWalks: false)
        for element in document.elements {
            let place = "\(element.localName) at \(element.position)"
            #expect(shared.accessibleName(of: element) == plain.accessibleName(of: element), "\(place)")
            #expect(shared.accessibleDescription(of: element) == plain.accessibleDescription(of: element), "\(place)")
        }
    }
}
