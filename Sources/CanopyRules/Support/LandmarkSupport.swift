import CanopyAccessibility
import Foundation
import CanopyHTML

/// Facts shared by the landmark rules.
enum Landmarks {
    /// Roles axe-core classes as landmarks (its role type "landmark"): banner, main, region,
    /// application, the DPUB landmark roles, ...
    static let roleNames: Set<String> = Set(ARIARoles.all.filter { $0.type == "landmark" }.map(\.name))

    /// The elements matching `selector` that assistive technology can reach, in document order.
    static func reachable(_ selector: SelectorList, on page: PageContext) -> [Element] {
        page.elements(matching: selector).filter { !page.accessibility.isHiddenFromAssistiveTechnology($0) }
    }

    /// Page-wide checks report on one element only (axe evaluates the first candidate and drops
    /// the rest): the first reachable element matching `selector`.
    static func isFirstReachable(_ element: Element, of selector: SelectorList, on page: PageContext) -> Bool {
        reachable(selector, on: page).first == element
    }
}

/// Whether a landmark sits inside another one (axe-core's `landmark-is-top-level` check).
enum LandmarkNesting {
    /// The nearest ancestor that is a landmark. As axe reads it, an ancestor's `role` attribute
    /// is taken verbatim (no fallback to later tokens) and a `<form>` without role is never
    /// counted, whatever its name.
    static func enclosingLandmark(of element: Element, on page: PageContext) -> (element: Element, role: String)? {
        for ancestor in element.ancestors {
            let role: String?
            if let attribute = ancestor.attribute("role") {
                role = attribute.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            } else if ancestor.isHTML && ancestor.localName == "form" {
                role = nil
            } else {
                role = page.accessibility.implicitRole(of: ancestor)
            }
            if let role, Landmarks.roleNames.contains(role) { return (ancestor, role) }
        }
        return nil
    }
}
