import CanopyAccessibility
import CanopyHTML

// Checks several rules run with different parameters, as axe-core's rules share its checks:
// a rule file declares its metadata, selector and examples, conforms to one of these, and
// states only what differs.

/// An ARIA widget that must have an accessible name (aria-meter-name, aria-progressbar-name,
/// aria-tab-name, aria-tooltip-name, aria-dialog-name).
public protocol WidgetNameRule: Rule {
    /// The widget as a message names it ("meter", "progress bar").
    var widgetName: String { get }
    /// Whether the widget's content names it (a tab, a tooltip) or only aria-label,
    /// aria-labelledby and title do (a meter, a dialog).
    var isNamedByContent: Bool { get }
}

extension WidgetNameRule {
    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if isNamedByContent {
            if checks.hasName(element) { return .pass }
            return .violation("The \(widgetName) has no text, aria-label, aria-labelledby that gives text, or title.")
        }
        if checks.hasARIALabelOrTitle(element) { return .pass }
        return .violation("The \(widgetName) has no aria-label, no aria-labelledby that gives text, and no title.")
    }
}

/// A landmark the page may have only once (landmark-no-duplicate-banner, -contentinfo, -main).
/// The check is page-wide: as in axe-core, the result is reported on the first candidate only.
public protocol SingleLandmarkRule: Rule {
    var landmarkRole: String { get }
    /// Whether a candidate counts only when it really has the role: a `<header>` inside a
    /// sectioning element is not a banner, while every `<main>` is a main landmark.
    var countsOnlyExposedRole: Bool { get }
    /// How many the page should have at most, as a message says it ("at most one", "one").
    var allowed: String { get }
}

extension SingleLandmarkRule {
    public func applies(to element: Element, on page: PageContext) -> Bool {
        Landmarks.isFirstReachable(element, of: selector, on: page)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        var landmarks = Landmarks.reachable(selector, on: page)
        if countsOnlyExposedRole { landmarks = landmarks.filter { model.role(of: $0, options: .axeDefault) == landmarkRole } }
        return landmarks.count <= 1 ? .pass : .violation("The page has \(landmarks.count) \(landmarkRole) landmarks; it should have \(allowed).")
    }
}
