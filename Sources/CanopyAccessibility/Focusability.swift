import CanopyHTML

/// Focus facts from markup alone, as axe-core decides them (its isFocusable/isNativelyFocusable).
enum Focusability {
    /// Elements the `disabled` attribute (or a disabled fieldset) takes out of focus order.
    static let disableable: Set<String> = [
        "button", "command", "fieldset", "keygen", "optgroup", "option", "select", "textarea", "input",
    ]

    /// Disabled by markup: its own `disabled` attribute, or a disabled fieldset around it.
    static func isDisabled(_ element: Element) -> Bool {
        if hasDisabledAttribute(element) { return true }
        for ancestor in element.ancestors {
            if let disables = fieldsetDisabling(by: ancestor) { return disables }
        }
        return false
    }

    static func hasDisabledAttribute(_ element: Element) -> Bool {
        // The attribute first: most elements have none of it, and a set lookup hashes the name.
        element.isHTML && element.hasAttribute(.disabled) && disableable.contains(element.localName)
    }

    /// What a box decides for what it contains: a disabled fieldset disables it (true), a legend
    /// shields it (false: axe stops at any legend), anything else leaves it to the box's own
    /// ancestors (nil). `AccessibilityModel` keeps the answer per element from the same rule.
    static func fieldsetDisabling(by box: Element) -> Bool? {
        if box.localName == "legend" { return false }
        if box.localName == "fieldset" && box.hasAttribute(.disabled) { return true }
        return nil
    }

    /// Focusable without `tabindex`: links and areas with `href`, form controls (not hidden
    /// inputs), `summary`, and a `details` without a summary. Editable regions, iframes and media
    /// are left out, as axe-core leaves them out.
    static func isNativelyFocusable(_ element: Element) -> Bool {
        switch element.localName {
        case "a", "area": return element.hasAttribute("href")
        case "input": return NativeNaming.inputType(of: element) != "hidden"
        case "textarea", "select", "summary", "button": return true
        case "details": return !element.descendants.contains { $0.localName == "summary" }
        default: return false
        }
    }
}
