import CanopyAccessibility
import CanopyHTML
import Foundation

/// The naming checks that axe-core's accessible-name rules combine (`aria-label`,
/// `aria-labelledby`, `non-empty-title`, `implicit-label`, ...), each answering one question about
/// one element, so that every rule can state its own combination of them.
struct NamingChecks {
    let page: PageContext
    private var model: AccessibilityModel { page.accessibility }

    init(_ page: PageContext) { self.page = page }

    /// The full accessible name, as assistive technology would announce it.
    func accessibleName(of element: Element) -> String { model.accessibleName(of: element) }

    func hasName(_ element: Element) -> Bool { model.hasAccessibleName(element) }

    /// A non-blank `aria-label`.
    func hasARIALabel(_ element: Element) -> Bool { model.ariaLabel(of: element) != nil }

    /// `aria-labelledby` names at least one element that gives text.
    func hasARIALabelledBy(_ element: Element) -> Bool { model.ariaLabelledByText(of: element) != nil }

    /// A non-blank `title`. Browsers drop the title of an element that is really presentational,
    /// except on buttons, frames and links, which keep announcing it.
    func hasTitle(_ element: Element) -> Bool {
        guard model.title(of: element) != nil else { return false }
        guard let role = model.role(of: element), role == "none" || role == "presentation" else { return true }
        return Self.keepsTitleWhenPresentational(element)
    }

    private static func keepsTitleWhenPresentational(_ element: Element) -> Bool {
        guard element.isHTML else { return false }
        switch element.localName {
        case "button", "iframe": return true
        case "a": return element.hasAttribute("href")
        case "input": return element.attribute("type")?.lowercased() == "button"
        default: return false
        }
    }

    /// A non-blank `alt`.
    func hasAlt(_ element: Element) -> Bool { !Self.isBlank(element.attribute("alt")) }

    /// A non-blank `value`.
    func hasValue(_ element: Element) -> Bool { !Self.isBlank(element.attribute("value")) }

    /// The aria-label, aria-labelledby or title that any element can be named by.
    func hasARIALabelOrTitle(_ element: Element) -> Bool {
        hasARIALabel(element) || hasARIALabelledBy(element) || hasTitle(element)
    }

    static func isBlank(_ text: String?) -> Bool { text?.allSatisfy(\.isWhitespace) ?? true }

    // MARK: <label> elements

    /// The nearest `<label>` around the control gives it text (the control's own content excluded).
    func hasImplicitLabel(_ control: Element) -> Bool {
        guard let label = model.wrappingLabel(of: control) else { return false }
        return !labelText(of: label, excluding: control).isEmpty
    }

    /// A `<label for>` names the control with text. A label nobody can see counts here, as in axe:
    /// whether it leaves the control nameless is a separate question (`hasHiddenExplicitLabelOnly`).
    func hasExplicitLabel(_ control: Element) -> Bool {
        model.explicitLabels(of: control).contains { label in
            !isVisibleOnScreen(label) || !labelText(of: label, excluding: control).isEmpty
        }
    }

    /// The first `<label for>` of the control is hidden from assistive technology, and the control
    /// has no accessible name from anything else: the label a sighted author wrote never reaches
    /// a screen reader.
    func hasHiddenExplicitLabelOnly(_ control: Element) -> Bool {
        guard let label = model.explicitLabels(of: control).first, model.isHiddenFromAssistiveTechnology(label)
        else { return false }
        return !hasName(control)
    }

    /// The text of the `<label>` elements that belong to the control (`for` first, then the
    /// wrapping one), joined; what a user sees as the control's label.
    func nativeLabelText(of control: Element) -> String {
        var labels = model.explicitLabels(of: control)
        if let wrapping = model.wrappingLabel(of: control), !labels.contains(wrapping) { labels.append(wrapping) }
        return labels.map { labelText(of: $0, excluding: control) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A label's text: its content without the control it labels, without hidden parts, with
    /// images by their `alt`. A hidden label gives no text.
    func labelText(of label: Element, excluding control: Element) -> String {
        guard !model.isHiddenFromAssistiveTechnology(label) else { return "" }
        var pieces: [String] = []
        var pending: [Node] = label.childNodes.reversed()
        while let node = pending.popLast() {
            switch node.kind {
            case .text:
                pieces.append(node.text)
            case .element:
                guard let child = node.element, child != control, !model.isHiddenFromAssistiveTechnology(child)
                else { continue }
                if let ariaLabel = model.ariaLabel(of: child) {
                    pieces.append(" \(ariaLabel) ")
                } else if let value = embeddedControlValue(child) {
                    // Another control inside the label reads as its current value, not its content.
                    pieces.append(" \(value) ")
                } else if child.isHTML, child.localName == "img" {
                    pieces.append(" \(child.attribute("alt") ?? "") ")
                } else {
                    pending.append(contentsOf: child.childNodes.reversed())
                }
            default:
                continue
            }
        }
        return pieces.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The value a native form control shows (the selected, or else first, option of a
    /// `<select>`; the text of a `<textarea>`; the value of a text-like `<input>`); nil for other elements.
    private func embeddedControlValue(_ element: Element) -> String? {
        guard element.isHTML else { return nil }
        switch element.localName {
        case "select":
            let options = element.descendants.filter { $0.isHTML && $0.localName == "option" }
            let chosen = options.first { $0.hasAttribute("selected") } ?? options.first
            return chosen.map { model.visibleText(of: $0) } ?? ""
        case "textarea":
            return element.textContent
        case "input":
            let type = element.attribute("type")?.lowercased() ?? "text"
            // Buttons read as their caption, which is their value too.
            let valueless: Set<String> = ["checkbox", "color", "file", "hidden", "image", "password", "radio"]
            return valueless.contains(type) ? "" : element.attribute("value") ?? ""
        default:
            return nil
        }
    }

    /// Whether a sighted user can see the element at all (as far as static HTML tells).
    private func isVisibleOnScreen(_ element: Element) -> Bool {
        !model.isNotRendered(element) && !model.isVisibilityHidden(element)
    }

    // MARK: Presentational roles

    /// axe's `presentational-role` check: the element really is presentational, i.e. it has
    /// `role="none"`/`"presentation"` and neither focus nor a global ARIA attribute overrides it.
    /// A frame with a `title` (even an empty one) is announced as a group by some screen readers,
    /// so its presentational role never counts.
    func isPresentational(_ element: Element) -> Bool {
        guard let explicit = model.explicitRole(of: element), explicit == "none" || explicit == "presentation"
        else { return false }
        if element.isHTML, element.localName == "iframe" || element.localName == "frame", element.hasAttribute("title") {
            return false
        }
        return !model.hasGlobalARIAAttribute(element) && !isFocusableForRoleConflict(element)
    }

    /// axe does not count frames as natively focusable; only a `tabindex` makes them so.
    private func isFocusableForRoleConflict(_ element: Element) -> Bool {
        if element.isHTML, ["iframe", "frame", "embed", "object"].contains(element.localName) {
            return element.attribute("tabindex").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } != nil
        }
        return model.isFocusable(element)
    }

    // MARK: Applicability helpers

    /// axe's `no-explicit-name-required-matches`: an explicit role that needs no name takes the
    /// element out of the rule, unless the element can take focus.
    func keepsNameRequirement(_ element: Element) -> Bool {
        guard let role = model.explicitRole(of: element), role != "none", role != "presentation" else { return true }
        return ARIARoles.role(named: role)?.nameRequired == true || model.isFocusable(element)
    }

    /// axe's `no-naming-method-matches`: ARIA-name rules leave alone elements that HTML names
    /// natively (they have their own rules), comboboxes named by an input inside them, and
    /// listboxes that pop up from a combobox.
    func hasNoNativeNamingMethod(_ element: Element) -> Bool {
        if Self.hasNativeNamingMethod(element) { return false }
        if model.explicitRole(of: element) == "combobox",
            element.descendants.contains(where: {
                $0.isHTML && $0.localName == "input" && $0.attribute("type")?.lowercased() != "hidden"
            })
        {
            return false
        }
        return !isComboboxPopup(element, roles: ["listbox"])
    }

    /// HTML elements with a native way to get a name (HTML-AAM, as axe's element table lists them).
    static func hasNativeNamingMethod(_ element: Element) -> Bool {
        if !element.isHTML { return element.localName == "svg" }
        switch element.localName {
        case "a": return element.hasAttribute("href")
        case "area", "br", "button", "fieldset", "figure", "hr", "img", "input", "output", "select", "summary",
            "svg", "table", "textarea":
            return true
        default: return false
        }
    }

    /// A popup (by default any role `aria-haspopup` can name) that belongs to a combobox: inside
    /// one, or named by one's `aria-controls`/`aria-owns`.
    func isComboboxPopup(_ element: Element, roles: Set<String> = ["menu", "listbox", "tree", "grid", "dialog"]) -> Bool {
        guard let role = model.role(of: element), roles.contains(role) else { return false }
        let nearestRoled = element.ancestors.first { ancestor in
            guard let role = model.role(of: ancestor) else { return false }
            return !["none", "presentation", "generic"].contains(role)
        }
        if let nearestRoled, model.role(of: nearestRoled) == "combobox" { return true }
        guard let id = element.id, !id.isEmpty else { return false }
        return page.document.elements.contains { candidate in
            guard !(candidate.isHTML && candidate.localName == "select"),
                candidate.attribute("role")?.split(whereSeparator: \.isWhitespace).contains("combobox") == true,
                model.role(of: candidate) == "combobox"
            else { return false }
            return ["aria-controls", "aria-owns"].contains { attribute in
                candidate.attribute(attribute)?.split(whereSeparator: \.isWhitespace).contains(Substring(id)) == true
            }
        }
    }

    // MARK: Label and name agreement

    /// axe's `no-implicit-explicit-label`, for ARIA widgets that a `<label>` cannot name: a
    /// `<label>` shows text that the accessible name does not contain, so the widget may not be
    /// announced as the user sees it labelled. Whether that matters needs a person to judge.
    func labelTextIsMissingFromName(_ element: Element) -> Bool {
        let label = nativeLabelText(of: element).lowercased()
        guard !label.isEmpty else { return false }
        return !accessibleName(of: element).lowercased().contains(label)
    }
}
