import CanopyAccessibility
import CanopyHTML
import Testing

@testable import CanopyRules

/// Behaviour of the accessible-name rules that their examples and axe's fixtures leave open:
/// axe's quirks that we reproduce on purpose, and the helpers behind them.
struct NameRuleTests {
    enum Verdict: Equatable { case pass, violation, incomplete }

    /// The verdict of `rule` for the element with id `id`, or nil when the rule does not apply to it.
    static func verdict(of rule: any Rule, on id: String, in markup: String) throws -> Verdict? {
        let html = "<!DOCTYPE html><html lang=\"en\"><head><title>t</title></head><body>\(markup)</body></html>"
        let document = HTMLParser().parse(html: html)
        let target = try #require(document.element(withID: id), "no element #\(id)")
        let nodes = try #require(Auditor(rules: [rule]).audit(document).rules.first).nodes
        guard let node = nodes.first(where: { $0.element == target }) else { return nil }
        switch node.outcome {
        case .pass: return .pass
        case .violation: return .violation
        case .incomplete: return .incomplete
        }
    }

    // MARK: Labels

    @Test func aHiddenLabelForAButtonStillCountsAsAxeDefersToAnotherCheck() throws {
        // axe's explicit-label check passes a hidden label; only label/select-name then fail it.
        let markup = #"<label for="b" style="display:none">Send</label><input type="button" id="b">"#
        #expect(try Self.verdict(of: InputButtonNameRule(), on: "b", in: markup) == .pass)
        let field = #"<label for="f" style="display:none">Email</label><input type="text" id="f">"#
        #expect(try Self.verdict(of: LabelRule(), on: "f", in: field) == .violation)
    }

    @Test func aHiddenLabelFailsEvenAPresentationalField() throws {
        let markup = #"<label for="f" hidden>Email</label><input id="f" role="none" disabled>"#
        #expect(try Self.verdict(of: LabelRule(), on: "f", in: markup) == .violation)
        let named = #"<label for="f" hidden>Email</label><input id="f" title="Email">"#
        #expect(try Self.verdict(of: LabelRule(), on: "f", in: named) == .pass)
    }

    @Test func aLabelDoesNotNameItsControlWithTheControlsOwnContent() throws {
        let wrapped = #"<label for="b"><button id="b"></button></label>"#
        #expect(try Self.verdict(of: ButtonNameRule(), on: "b", in: wrapped) == .violation)
        let withText = #"<label>Send <input type="button" id="b"></label>"#
        #expect(try Self.verdict(of: InputButtonNameRule(), on: "b", in: withText) == .pass)
    }

    @Test func aControlInsideALabelReadsAsItsValue() throws {
        let select = #"<label for="b">Size <select><option>Small</option><option selected>Large</option></select></label>"#
            + #"<div role="checkbox" id="b" aria-label="Size Large"></div>"#
        #expect(try Self.verdict(of: ARIAToggleFieldNameRule(), on: "b", in: select) == .pass)
        let unselected = #"<label for="b">Size <select><option>Small</option><option>Large</option></select></label>"#
            + #"<div role="checkbox" id="b" aria-label="Size Large"></div>"#
        #expect(try Self.verdict(of: ARIAToggleFieldNameRule(), on: "b", in: unselected) == .incomplete)
    }

    @Test func theDefaultTextOfAnImageButtonIsNoAlternative() throws {
        let markup = #"<input type="image" src="go.png" id="i" value="Go">"#
        #expect(try Self.verdict(of: InputImageAltRule(), on: "i", in: markup) == .violation)
    }

    @Test func aPresentationalElementLosesItsTitleExceptOnButtonsFramesAndLinks() throws {
        let image = #"<input type="image" src="go.png" id="i" role="none" title="Go" disabled>"#
        #expect(try Self.verdict(of: InputImageAltRule(), on: "i", in: image) == .violation)
        let button = #"<input type="button" id="b" role="none" title="Go">"#
        #expect(try Self.verdict(of: InputButtonNameRule(), on: "b", in: button) == .pass)
    }

    // MARK: ARIA widgets

    @Test func aLabelMissingFromTheNameNeedsReviewOnlyWhenTheWidgetHasAName() throws {
        let differs = #"<label for="c">Newsletter</label><div role="checkbox" id="c" aria-label="Subscribe"></div>"#
        #expect(try Self.verdict(of: ARIAToggleFieldNameRule(), on: "c", in: differs) == .incomplete)
        let contained = #"<label for="c">Newsletter</label><div role="checkbox" id="c" aria-label="Newsletter weekly"></div>"#
        #expect(try Self.verdict(of: ARIAToggleFieldNameRule(), on: "c", in: contained) == .pass)
        let unnamed = #"<label for="t">Comment</label><div role="textbox" id="t"></div>"#
        #expect(try Self.verdict(of: ARIAInputFieldNameRule(), on: "t", in: unnamed) == .violation)
    }

    @Test func contentDoesNotNameAnARIAInputField() throws {
        let markup = #"<div role="textbox" id="t">Typed text</div>"#
        #expect(try Self.verdict(of: ARIAInputFieldNameRule(), on: "t", in: markup) == .violation)
    }

    @Test func listboxesThatPopUpFromAComboboxAreLeftOut() throws {
        let owned = #"<div role="combobox" aria-owns="l" aria-label="Colour"></div><div role="listbox" id="l"></div>"#
        #expect(try Self.verdict(of: ARIAInputFieldNameRule(), on: "l", in: owned) == nil)
        let nested = #"<div role="combobox" aria-label="Colour"><div role="listbox" id="l"></div></div>"#
        #expect(try Self.verdict(of: ARIAInputFieldNameRule(), on: "l", in: nested) == nil)
        let standalone = #"<div role="listbox" id="l"></div>"#
        #expect(try Self.verdict(of: ARIAInputFieldNameRule(), on: "l", in: standalone) == .violation)
        let byNativeSelect = #"<select aria-controls="l"></select><div role="listbox" id="l"></div>"#
        #expect(try Self.verdict(of: ARIAInputFieldNameRule(), on: "l", in: byNativeSelect) == .violation)
    }

    @Test func elementsWithNativeNamingAreLeftToTheirOwnRules() throws {
        #expect(try Self.verdict(of: ARIACommandNameRule(), on: "b", in: #"<button id="b" role="button"></button>"#) == nil)
        #expect(try Self.verdict(of: ARIACommandNameRule(), on: "a", in: #"<a id="a" role="button"></a>"#) == .violation)
    }

    // MARK: Frames

    @Test func framesAreNotFocusableWithoutTabindexForRoleConflicts() throws {
        #expect(try Self.verdict(of: FrameTitleRule(), on: "f", in: #"<iframe id="f" role="none"></iframe>"#) == .pass)
        #expect(try Self.verdict(of: FrameTitleRule(), on: "f", in: #"<iframe id="f" role="none" tabindex="0"></iframe>"#) == .violation)
    }

    @Test func tabindexIsReadAsJavaScriptReadsIt() throws {
        #expect(JavaScriptNumbers.parseInt("-1") == -1)
        #expect(JavaScriptNumbers.parseInt("  -2px") == -2)
        #expect(JavaScriptNumbers.parseInt("+3") == 3)
        #expect(JavaScriptNumbers.parseInt("x1") == nil)
        #expect(JavaScriptNumbers.parseInt("") == nil)
        #expect(try Self.verdict(of: FrameTitleRule(), on: "f", in: #"<iframe id="f" tabindex="-1abc"></iframe>"#) == nil)
        #expect(try Self.verdict(of: FrameTitleRule(), on: "f", in: #"<iframe id="f" tabindex="abc"></iframe>"#) == .violation)
    }

    // MARK: Summary and SVG

    @Test func aSummaryIsInteractiveOnlyWhenItsDetailsHaveContent() throws {
        let empty = "<details> <summary id=\"s\"></summary> \n </details>"
        #expect(try Self.verdict(of: SummaryNameRule(), on: "s", in: empty) == nil)
        let image = #"<details><summary id="s"></summary><img src="map.png" alt="Map"></details>"#
        #expect(try Self.verdict(of: SummaryNameRule(), on: "s", in: image) == .violation)
    }

    @Test func svgAndHTMLImagesGoToDifferentRules() throws {
        let svg = #"<svg><g role="img" id="g"><title>Dot</title></g></svg>"#
        #expect(try Self.verdict(of: SVGImgAltRule(), on: "g", in: svg) == .pass)
        #expect(try Self.verdict(of: RoleImgAltRule(), on: "g", in: svg) == nil)
        let html = #"<span role="img" id="s">★</span>"#
        #expect(try Self.verdict(of: RoleImgAltRule(), on: "s", in: html) == .violation)
        #expect(try Self.verdict(of: SVGImgAltRule(), on: "s", in: html) == nil)
    }

    // MARK: Registration

    @Test func everyNameRuleIsRegisteredWithAxesMetadata() throws {
        let expected: [String: Impact] = [
            "input-image-alt": .critical, "area-alt": .critical, "role-img-alt": .serious, "svg-img-alt": .serious,
            "button-name": .critical, "input-button-name": .critical, "link-name": .serious, "label": .critical,
            "select-name": .critical, "summary-name": .serious, "frame-title": .serious, "aria-command-name": .serious,
            "aria-input-field-name": .serious, "aria-toggle-field-name": .serious, "aria-tooltip-name": .serious,
            "aria-tab-name": .serious,
        ]
        for (id, impact) in expected {
            let rule = try #require(RuleCatalog.rule(withID: id), "\(id) is not registered")
            #expect(rule.metadata.impact == impact, "\(id)")
            #expect(rule.metadata.tags.contains("wcag2a"), "\(id)")
            #expect(!rule.metadata.reviewOnFail, "\(id)")
        }
    }
}
