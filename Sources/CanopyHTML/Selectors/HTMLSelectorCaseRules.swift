/// What the HTML standard says selectors must do on HTML elements (HTML §4.16.2 "Case-sensitivity
/// of selectors", §4.16.3 "Pseudo-classes").
enum HTMLSelectorCaseRules {
    /// Attributes whose values attribute selectors match ASCII case-insensitively on HTML elements
    /// (unless the selector has the `s` flag). The list is the HTML standard's, verbatim.
    static let caseInsensitiveAttributeNames: Set<String> = [
        "accept", "accept-charset", "align", "alink", "axis", "bgcolor", "charset", "checked", "clear",
        "codetype", "color", "compact", "declare", "defer", "dir", "direction", "disabled", "enctype",
        "face", "frame", "hreflang", "http-equiv", "lang", "language", "link", "media", "method",
        "multiple", "nohref", "noresize", "noshade", "nowrap", "readonly", "rel", "rev", "rules",
        "scope", "scrolling", "selected", "shape", "target", "text", "type", "valign", "valuetype",
        "vlink",
    ]
}

/// The element states behind `:checked`, `:disabled`, `:enabled` and `:any-link`, as far as static
/// markup decides them (attributes, not what a user or script changed since).
extension Element {
    /// `:checked`: a checkbox or radio button with `checked`, or an `<option>` with `selected`.
    var isCheckedForSelectors: Bool {
        guard isHTML else { return false }
        switch localName {
        case "input":
            guard hasAttribute("checked"), let type = attribute("type") else { return false }
            let lowered = CSSSyntax.asciiLowercased(type)
            return lowered == "checkbox" || lowered == "radio"
        case "option":
            return hasAttribute("selected")
        default:
            return false
        }
    }

    /// Whether the element is one that `:enabled` / `:disabled` can apply to at all.
    var canBeDisabled: Bool {
        guard isHTML else { return false }
        switch localName {
        case "button", "input", "select", "textarea", "optgroup", "option", "fieldset": return true
        default: return false
        }
    }

    /// HTML's "actually disabled" for the elements `:disabled` applies to.
    var isDisabledForSelectors: Bool {
        guard canBeDisabled else { return false }
        if hasAttribute("disabled") { return true }
        switch localName {
        case "optgroup":
            return false
        case "option":
            // Only a parent optgroup counts, not one further up.
            guard let parent, parent.isHTML, parent.localName == "optgroup" else { return false }
            return parent.hasAttribute("disabled")
        default:
            return isInsideDisabledFieldset
        }
    }

    /// A descendant of a `<fieldset disabled>` and not inside that fieldset's first `<legend>` child.
    private var isInsideDisabledFieldset: Bool {
        var childOnPath = self
        for ancestor in ancestors {
            defer { childOnPath = ancestor }
            guard ancestor.isHTML, ancestor.localName == "fieldset", ancestor.hasAttribute("disabled") else { continue }
            let firstLegend = ancestor.children.first { $0.isHTML && $0.localName == "legend" }
            if let firstLegend, firstLegend == childOnPath { continue }
            return true
        }
        return false
    }

    /// `:link` / `:any-link`: `<a>` or `<area>` with an `href` (static pages have no visited state).
    var isLinkForSelectors: Bool {
        isLinkForSelectors(hasHref: hasAttribute("href"))
    }

    /// `isLinkForSelectors` for a caller that has already seen whether the element has an `href`.
    func isLinkForSelectors(hasHref: Bool) -> Bool {
        hasHref && isHTML && (localName == "a" || localName == "area")
    }
}
