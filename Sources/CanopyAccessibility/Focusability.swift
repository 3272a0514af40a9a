import CanopyHTML

enum Focusability {
    /// Form controls that the `disabled` attribute (or a disabled fieldset) takes out of focus order.
    private static let disableable: Set<String> = ["button", "input", "select", "textarea", "optgroup", "option", "fieldset"]

    static func isDisabled(_ element: Element) -> Bool {
        guard element.isHTML, disableable.contains(element.localName) else { return false }
        if element.hasAttribute("disabled") { return true }
        // A disabled fieldset disables its controls, except those inside its first legend.
        for ancestor in element.ancestors where ancestor.localName == "fieldset" && ancestor.hasAttribute("disabled") {
            let firstLegend = ancestor.children.first { $0.localName == "legend" }
            if let firstLegend, element.isDescendant(of: firstLegend) { continue }
            return true
        }
        return false
    }

    static func isNativelyFocusable(_ element: Element) -> Bool {
        guard element.isHTML else { return element.localName == "a" && element.hasAttribute("href") }
        switch element.localName {
        case "a", "area": return element.hasAttribute("href")
        case "button", "select", "textarea", "iframe", "embed": return true
        case "input": return element.attribute("type")?.lowercased() != "hidden"
        case "audio", "video": return element.hasAttribute("controls")
        case "summary":
            guard let details = element.parent, details.localName == "details" else { return false }
            return details.children.first { $0.localName == "summary" } == element
        default:
            if let editable = element.attribute("contenteditable")?.lowercased() {
                return editable == "" || editable == "true" || editable == "plaintext-only"
            }
            return false
        }
    }
}
