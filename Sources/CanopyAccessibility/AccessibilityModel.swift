import CanopyHTML

/// What static HTML tells about a page's accessibility tree: which elements are hidden from
/// assistive technology, their roles, focusability and ARIA-provided names.
///
/// One model per document and audit; per-element facts are computed once, in document order,
/// and shared by every rule.
public final class AccessibilityModel {
    public let document: Document
    /// Indexed by element position: hidden from assistive technology (and so from most rules).
    private let hiddenFromAT: [Bool]
    /// Indexed by element position: not rendered at all (display:none and friends), regardless of ARIA.
    private let notRendered: [Bool]

    public init(document: Document) {
        self.document = document
        let count = document.elementCount
        var hiddenFromAT = [Bool](repeating: false, count: count)
        var notRendered = [Bool](repeating: false, count: count)
        var visibilityHidden = [Bool](repeating: false, count: count)
        var hiddenForGood = [Bool](repeating: false, count: count)
        for element in document.elements {
            let position = element.position
            let parentPosition = element.parent?.position
            let style = InlineStyle(parsing: element.attribute("style"))
            let parentNotRendered = parentPosition.map { notRendered[$0] } ?? false
            let unrendered = parentNotRendered || style.displayNone || Self.isNeverRendered(element)
            let inheritedVisibility = parentPosition.map { visibilityHidden[$0] } ?? false
            let invisible = style.visibility.map { $0 == .hidden } ?? inheritedVisibility
            notRendered[position] = unrendered
            visibilityHidden[position] = invisible
            // visibility:hidden can be undone by a descendant; aria-hidden, inert and display:none cannot.
            let parentHidden = parentPosition.map { hiddenForGood[$0] } ?? false
            let hidden = parentHidden || unrendered || element.attribute("aria-hidden") == "true" || element.hasAttribute("inert")
            hiddenForGood[position] = hidden
            hiddenFromAT[position] = hidden || invisible
        }
        self.hiddenFromAT = hiddenFromAT
        self.notRendered = notRendered
    }

    /// Elements a browser does not render, from the UA style sheet and the `hidden` attribute.
    private static func isNeverRendered(_ element: Element) -> Bool {
        guard element.isHTML else { return false }
        switch element.localName {
        case "head", "script", "style", "template", "noscript", "datalist", "title", "meta", "link", "base":
            return true
        case "input":
            return element.attribute("type")?.lowercased() == "hidden" || element.hasAttribute("hidden")
        default:
            if element.hasAttribute("hidden") { return true }
            // The content of a closed <details>, except its first <summary>, is not rendered.
            if let parent = element.parent, parent.localName == "details", !parent.hasAttribute("open") {
                return !(element.localName == "summary" && parent.children.first { $0.localName == "summary" } == element)
            }
            return false
        }
    }

    /// Hidden from assistive technology: `hidden`, `aria-hidden="true"`, `inert`, inline
    /// `display:none`/`visibility:hidden`, or never rendered; on the element or an ancestor.
    public func isHiddenFromAssistiveTechnology(_ element: Element) -> Bool { hiddenFromAT[element.position] }

    /// Not rendered for anyone (no layout box), whatever its ARIA attributes say.
    public func isNotRendered(_ element: Element) -> Bool { notRendered[element.position] }

    // MARK: Roles

    /// The first token of `role` that names a concrete (non-abstract) ARIA role, lowercased.
    public func explicitRole(of element: Element) -> String? {
        guard let value = element.attribute("role") else { return nil }
        for token in value.split(whereSeparator: \.isHTMLWhitespace) {
            let name = token.lowercased()
            if let role = ARIARoles.role(named: name), role.kind != .abstract { return name }
        }
        return nil
    }

    /// The role assistive technology sees: the explicit role, unless it is `none`/`presentation`
    /// and the element is focusable or has a global ARIA attribute (ARIA's presentational role
    /// conflict resolution), in which case the implicit role applies.
    public func role(of element: Element) -> String? {
        if let explicit = explicitRole(of: element) {
            let presentational = explicit == "none" || explicit == "presentation"
            if !presentational || !hasPresentationalConflict(element) { return explicit }
        }
        return ImplicitRoles.role(of: element)
    }

    /// A presentational role is ignored on elements that are focusable or carry global ARIA attributes.
    public func hasPresentationalConflict(_ element: Element) -> Bool {
        hasGlobalARIAAttribute(element) || isFocusable(element)
    }

    public func hasGlobalARIAAttribute(_ element: Element) -> Bool {
        element.attributes.contains { ARIARoles.globalAttributes.contains($0.name) }
    }

    // MARK: Focus

    /// Whether the element can receive focus (by keyboard or script), as static HTML tells:
    /// natively focusable and enabled, or with a valid `tabindex`; never when not rendered.
    public func isFocusable(_ element: Element) -> Bool {
        if isNotRendered(element) { return false }
        if Focusability.isDisabled(element) { return false }
        if let tabIndex = element.attribute("tabindex"), Int(tabIndex.trimmingWhitespace()) != nil { return true }
        return Focusability.isNativelyFocusable(element)
    }

    // MARK: Names from ARIA

    /// `aria-label`, trimmed; nil when absent or blank.
    public func ariaLabel(of element: Element) -> String? {
        guard let label = element.attribute("aria-label")?.trimmingWhitespace(), !label.isEmpty else { return nil }
        return label
    }

    /// The text that `aria-labelledby` points to: the referenced elements' text, joined by spaces
    /// and whitespace-collapsed. Referenced elements count even when hidden, as accname says.
    /// Nil when no reference resolves to any text.
    public func ariaLabelledByText(of element: Element) -> String? {
        guard let value = element.attribute("aria-labelledby") else { return nil }
        let parts = value.split(whereSeparator: \.isHTMLWhitespace).compactMap { id -> String? in
            guard let referenced = document.element(withID: String(id)) else { return nil }
            return TextAlternative.subtreeText(of: referenced, model: self)
        }
        let text = TextAlternative.collapseWhitespace(parts.joined(separator: " "))
        return text.isEmpty ? nil : text
    }

    /// `title`, trimmed; nil when absent or blank.
    public func title(of element: Element) -> String? {
        guard let title = element.attribute("title")?.trimmingWhitespace(), !title.isEmpty else { return nil }
        return title
    }
}
