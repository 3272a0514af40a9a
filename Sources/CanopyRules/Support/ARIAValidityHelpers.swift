import CanopyAccessibility
import CanopyHTML

/// Small helpers shared by the ARIA validity rules.
enum ARIAValidity {
    /// Whether an attribute name is in the `aria-` namespace (case-insensitively, as HTML names are).
    static func isARIAName(_ name: String) -> Bool {
        ARIAAttributes.isARIAName(name)
    }

    /// The role tokens of the `role` attribute, lowercased; empty when there is none.
    static func roleTokens(of element: Element) -> [String] {
        guard let value = element.attribute("role") else { return [] }
        return value.lowercased().split(whereSeparator: \.isHTMLWhitespace).map(String.init)
    }

    /// Whether the element has a `role` attribute with at least one token (axe's no-empty-role-matches).
    static func hasNonEmptyRole(_ element: Element) -> Bool {
        !roleTokens(of: element).isEmpty
    }

    /// Distinct names in order of appearance, joined for a message.
    static func list(_ names: [String]) -> String {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}

extension ARIAValidity {
    /// The ARIA attributes an HTML element carries implicitly (HTML-AAM, as axe-core's element
    /// table lists them): a required attribute the element already provides natively is not missing.
    /// The model has no such table, so it lives here.
    static func implicitAttributes(of element: Element) -> Set<String> {
        guard element.isHTML else { return [] }
        switch element.localName {
        case "h1", "h2", "h3", "h4", "h5", "h6": return ["aria-level"]
        case "datalist": return ["aria-multiselectable"]
        case "li": return ["aria-setsize", "aria-posinset"]
        case "option": return ["aria-selected"]
        case "progress": return ["aria-valuemax", "aria-valuemin", "aria-valuenow"]
        case "select": return ["aria-valuenow"]
        case "textarea": return ["aria-valuenow", "aria-multiline"]
        case "input":
            switch element.attribute("type")?.ariaTrimmed.lowercased() {
            case "checkbox", "radio": return ["aria-checked"]
            default: return ["aria-valuenow"]
            }
        default: return []
        }
    }

    /// The value of an attribute with surrounding whitespace removed; nil when absent or blank.
    static func nonBlankValue(_ element: Element, _ name: String) -> String? {
        guard let value = element.attribute(name)?.ariaTrimmed, !value.isEmpty else { return nil }
        return value
    }

    /// Whether an ancestor's role makes its descendants presentational (button, img, checkbox, ...):
    /// assistive technology then exposes the descendants' text only, not their roles or attributes.
    static func hasPresentationalChildrenAncestor(_ element: Element, model: AccessibilityModel) -> Bool {
        var current = element.parent
        while let ancestor = current {
            if let role = model.role(of: ancestor), ARIARoles.role(named: role)?.childrenPresentational == true {
                return true
            }
            current = ancestor.parent
        }
        return false
    }
}

extension String {
    /// The string without leading and trailing HTML whitespace.
    var ariaTrimmed: String {
        let start = firstIndex { !$0.isHTMLWhitespace } ?? endIndex
        let end = lastIndex { !$0.isHTMLWhitespace }.map(index(after:)) ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}

extension ARIAValidity {
    /// The role an element contributes to the accessibility tree's structure, or nil when it
    /// contributes none (no role, `generic`, or a presentational role that holds).
    static func structuralRole(of element: Element, model: AccessibilityModel) -> String? {
        guard let role = model.role(of: element) else { return nil }
        return ["none", "presentation", "generic"].contains(role) ? nil : role
    }
}
