import CanopyAccessibility
import CanopyHTML
import Testing

/// Disabled for users, as axe-core's isDisabled reads it: disabled controls, aria-disabled on
/// the element or above, and a disabled fieldset's contents except what is inside its legend.
@Suite("AccessibilityModel.isDisabled")
struct DisabledStateTests {
    static let page = """
        <!doctype html><html><body>
        <button id="plain">Go</button><button id="own" disabled>Go</button>
        <div aria-disabled="true"><span id="under-aria">x</span><legend><b id="aria-through-legend">y</b></legend></div>
        <fieldset disabled><legend id="the-legend"><input id="in-legend"></legend><p><input id="in-fieldset"></p></fieldset>
        <fieldset><legend>L</legend><input id="in-enabled-fieldset"></fieldset>
        <fieldset disabled><div><fieldset><legend><fieldset disabled><legend>Inner</legend><span id="in-inner">z</span></fieldset></legend></fieldset></div></fieldset>
        </body></html>
        """

    @Test(arguments: [
        ("plain", false), ("own", true), ("under-aria", true), ("aria-through-legend", true), ("the-legend", true),
        ("in-legend", false), ("in-fieldset", true), ("in-enabled-fieldset", false), ("in-inner", true),
    ])
    func disabledState(id: String, expected: Bool) throws {
        let document = HTMLParser().parse(html: Self.page)
        let model = AccessibilityModel(document: document)
        let element = try #require(document.element(withID: id))
        #expect(model.isDisabled(element) == expected)
    }

    /// Pages with one way of disabling each: the model reads ancestors only where an
    /// `aria-disabled` or a disabled fieldset can make them count, and must miss neither.
    @Test(arguments: [
        (#"<fieldset disabled><p><input id="x"></p></fieldset><input id="y">"#, "x", true),
        (#"<fieldset disabled><p><input id="x"></p></fieldset><input id="y">"#, "y", false),
        (#"<div aria-disabled="TRUE"><p><span id="x">a</span></p></div><p id="y">b</p>"#, "x", true),
        (#"<div aria-disabled="TRUE"><p><span id="x">a</span></p></div><p id="y">b</p>"#, "y", false),
        (#"<input id="x" disabled><label id="y" for="x">L</label>"#, "x", true),
        (#"<input id="x" disabled><label id="y" for="x">L</label>"#, "y", false),
        (#"<fieldset><input id="x"></fieldset><p id="y">a</p>"#, "x", false),
    ])
    func disabledStateWithOneSource(html: String, id: String, expected: Bool) throws {
        let document = HTMLParser().parse(html: html)
        let model = AccessibilityModel(document: document)
        let element = try #require(document.element(withID: id))
        #expect(model.isDisabled(element) == expected)
        #expect(model.mayDisable == html.contains("disabled"))
    }

    @Test("the answer does not depend on the order elements are asked in")
    func orderIndependent() throws {
        let document = HTMLParser().parse(html: Self.page)
        let forward = AccessibilityModel(document: document)
        let backward = AccessibilityModel(document: document)
        let elements = Array(document.elements)
        let answers = elements.map { forward.isDisabled($0) }
        #expect(elements.reversed().map { backward.isDisabled($0) }.reversed() == answers)
    }
}
