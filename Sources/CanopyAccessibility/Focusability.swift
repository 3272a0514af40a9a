import CanopyHTML

/// Focus facts from markup alone, as axe-core decides them (its isFocusable/isNativelyFocusable).
enum Focusability {
    /// Elements the `disabled` attribute (or a disabled fieldset) takes out of focus order.
    static let disableable: Set<String> = [
        "button", "command", "fieldset", "keygen", "optgroup", "option", "select", "textarea", "input",
    ]

    static func isDisabled(_ element: Element) -> Bool {
        if element.isHTML, disableable.contains(element.localName), element.hasAttribute("disabled") { return true }
        // A disabled fieldset disables what it contains, except inside a legend (axe stops at any legend).
        for ancestor in element.ancestors {
            if ancestor.localName == "legend" { return false }
            if ancestor.localName == "fieldset" && ancestor.hasAttribute("disabled") { return true }
        }
        return false
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
