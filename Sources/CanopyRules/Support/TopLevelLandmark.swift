import CanopyAccessibility
import CanopyHTML

/// What landmark-banner-is-top-level and landmark-contentinfo-is-top-level share.
enum TopLevelLandmark {
    private static let sectioningElements = try! SelectorList("article, aside, main, nav, section")

    /// axe-core's `landmark-has-body-context-matches`: a `<header>`/`<footer>` inside sectioning
    /// content belongs to that content and is no banner or contentinfo; an explicit role is
    /// checked wherever it is.
    static func hasBodyContext(_ element: Element) -> Bool {
        element.hasAttribute("role") || !element.ancestors.contains(where: sectioningElements.matches)
    }

    /// Passes when no ancestor is a landmark (axe-core's `landmark-is-top-level`).
    static func outcome(for element: Element, on page: PageContext, role: String) -> CheckOutcome {
        guard let container = LandmarkNesting.enclosingLandmark(of: element, on: page) else { return .pass }
        return .violation("The \(role) landmark is inside a \(container.role) landmark (<\(container.element.localName)>).")
    }
}
