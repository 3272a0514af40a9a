import CanopyAccessibility
import CanopyHTML

/// The checks html-lang-valid and valid-lang share: which `lang`/`xml:lang` values are invalid,
/// and whether an element has text that its language applies to.
enum LangAttributes {
    static let names = ["lang", "xml:lang"]

    /// The element's `lang`/`xml:lang` declarations that do not name a known language, as
    /// `name="value"`. An empty value is allowed (it means "unknown"); a value of only spaces is not.
    static func invalidDeclarations(of element: Element) -> [String] {
        names.compactMap { name in
            guard let value = element.attribute(name), isInvalid(value) else { return nil }
            return "\(name)=\"\(value)\""
        }
    }

    /// As axe-core decides: the primary subtag (before the first "-") must be a registered language
    /// code. A value with no primary subtag ("", "-x") sets no language and is let through, except
    /// a value of only spaces, which looks deliberate and says nothing.
    static func isInvalid(_ value: String) -> Bool {
        if !value.isEmpty, value.allSatisfy(\.isWhitespace) { return true }
        return !LanguageTag.primarySubtag(of: value).isEmpty && !LanguageTag.hasKnownPrimarySubtag(value)
    }

    /// Elements whose text is not page text (it is never shown, or shows something else).
    static let elementsWithoutText: Set<String> = [
        "head", "title", "template", "script", "style", "iframe", "object", "video", "audio", "noscript",
    ]

    /// Whether the element has text in the language it declares: its own text, the name of
    /// visual content (an image's alt), or such text in a descendant that declares no language of
    /// its own and is not hidden for everyone (text hidden only from screen readers still shows).
    static func hasTextInItsLanguage(_ element: Element, model: AccessibilityModel) -> Bool {
        let ownText = element.isHTML && elementsWithoutText.contains(element.localName) ? false
            : element.childNodes.contains { $0.kind == .text && !$0.text.allSatisfy(\.isWhitespace) }
        if ownText { return true }
        if isVisualContent(element, model: model) {
            return !model.accessibleName(of: element).allSatisfy(\.isWhitespace)
        }
        return element.children.contains { child in
            (child.attribute("lang") ?? "").isEmpty && !model.isNotRendered(child) && !model.isVisibilityHidden(child)
                && hasTextInItsLanguage(child, model: model)
        }
    }

    /// Content that shows something other than text: images, media, form controls and the like.
    static func isVisualContent(_ element: Element, model: AccessibilityModel) -> Bool {
        // An explicit role decides: only roles that show something other than text count.
        if let role = model.explicitRole(of: element) {
            return ["img", "checkbox", "radio", "meter", "progressbar", "scrollbar", "slider", "spinbutton", "textbox"].contains(role)
        }
        guard element.isHTML else { return element.localName == "svg" || element.localName == "math" }
        switch element.localName {
        case "img", "iframe", "object", "video", "audio", "canvas", "svg", "math", "button", "select", "textarea",
            "keygen", "progress", "meter":
            return true
        case "input":
            return element.attribute("type")?.lowercased() != "hidden"
        default:
            return false
        }
    }
}
