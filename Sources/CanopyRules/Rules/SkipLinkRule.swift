import CanopyAccessibility
import CanopyHTML

/// A skip link ("Skip to content"), usually hidden off screen until it gets focus, must lead
/// to a place that exists and that screen readers can reach; otherwise it does nothing for the
/// keyboard users it was written for.
public struct SkipLinkRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "skip-link",
        impact: .moderate,
        tags: ["cat.keyboard", "best-practice", "RGAAv4", "RGAA-12.7.1"],
        description: "Checks that each skip link leads to an element that exists and is not hidden",
        help: "A skip link must lead to an existing, reachable target",
        howToFix: "Point the link's href at the id of the element it should skip to (e.g. href=\"#main\" and <main id=\"main\">), and keep that element visible.",
        enabledByDefault: false,
        rationale: "A skip link whose target is missing or hidden leaves keyboard users where they were; opt-in because targets often appear only with scripts."
    )

    public let selector = try! SelectorList(##"a[href^="#"], a[href^="/#"]"##)

    /// axe-core's skip links: same-page links before the first link to elsewhere, moved off
    /// screen (to appear on focus). A link that no style could move stays on screen, and is no
    /// skip link in that sense.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard SamePageLinks(page).isSkipLink(element) else { return false }
        switch ScreenPlacement.of(element, on: page) {
        case .offScreen, .displaced: return true
        // Clipped or transparent links stay in place; only a style sheet could still move them.
        case .inFlow, .invisible: return ScreenPlacement.hasStyleSheets(page)
        case .unrendered: return false
        }
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let href = element.attribute("href") ?? ""
        guard let target = SamePageLinks(page).target(of: element) else {
            if case .offScreen = ScreenPlacement.of(element, on: page) {
                return .violation("No element has the id or name that \"\(href)\" points to.")
            }
            // A missing target fails only if the link is a hidden skip link, which the page's CSS decides.
            return .incomplete("No element has the id or name that \"\(href)\" points to. If this link is a skip link hidden until focused, it leads nowhere; check where the page's styles place it.")
        }
        if page.accessibility.isHiddenFromAssistiveTechnology(target) {
            return .incomplete("The target of \"\(href)\" is hidden from assistive technology; check that it is shown when the link is used.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            ##"<a href="#main" style="position: absolute; left: -10000px">Skip to content</a><nav><a href="/">Home</a></nav><main id="main">Menu</main>"##,
            ##"<style>.skip:not(:focus) { position: absolute; left: -10000px }</style><a class="skip" href="#content">Skip</a><h2 name="content">Menu</h2>"##,
            #"<a href="/#main" style="position: absolute; top: -5000px">Skip</a><a href="/">Home</a><main id="main">Menu</main>"#,
        ],
        violating: [
            RuleExample(##"<a href="#main" style="position: absolute; left: -10000px">Skip to content</a><nav><a href="/">Home</a></nav><main id="content">Menu</main>"##, at: ##"[href="#main"]"##),
            RuleExample(##"<div style="position: absolute; top: -9999px"><a href="#missing">Skip</a></div>"##, at: ##"[href="#missing"]"##),
        ],
        incomplete: [
            RuleExample(##"<link rel="stylesheet" href="site.css"><a class="skip" href="#main">Skip to content</a><a href="/">Home</a><main id="content">Menu</main>"##, at: ".skip"),
            RuleExample(##"<a href="#main" style="position: absolute; left: -10000px">Skip</a><a href="/">Home</a><main id="main" hidden>Menu</main>"##, at: ##"[href="#main"]"##),
            RuleExample(##"<a href="#main" style="position: absolute; top: -40px">Skip</a><a href="/">Home</a>"##, at: ##"[href="#main"]"##),
        ],
        inapplicable: [
            // No style sheet and no style attribute: the link stays on screen, so it is an ordinary link.
            ##"<a href="#main">Skip to content</a><main id="other">Menu</main>"##,
            // After the first link to another page, a same-page link is no skip link.
            ##"<a href="/">Home</a><a href="#main" style="position: absolute; left: -10000px">Skip</a>"##,
            // `#` alone and `#/route` links are page links; what follows them is no skip link.
            ##"<a href="#">Top</a><a href="#main" style="position: absolute; left: -10000px">Skip</a>"##,
            ##"<a href="#main" hidden>Skip</a><main id="main">Menu</main>"##,
        ]
    )
}
