import CanopyAccessibility
import CanopyHTML

/// Keyboard and screen reader users need a way past the navigation repeated on every page: a
/// link to the content, headings, or a main landmark they can jump to (WCAG 2.4.1 Bypass Blocks).
public struct BypassRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "bypass",
        impact: .serious,
        tags: [
            "cat.keyboard", "wcag2a", "wcag241", "section508", "section508.22.o", "TTv5", "TT9.a", "EN-301-549",
            "EN-9.2.4.1", "RGAAv4", "RGAA-12.7.1",
        ],
        description: "Checks that the page offers a way to skip repeated blocks: a same-page link, a heading or a main landmark",
        help: "The page must let people skip past repeated blocks",
        howToFix: "Mark the main content with <main>, give sections headings, or put a \"Skip to content\" link to the main content first in the page.",
        // Whether a heading or link really skips the repeated blocks takes a person to judge, as in axe-core.
        reviewOnFail: true,
        enabledByDefault: false,
        rationale: "Keyboard users need a way past navigation repeated on every page; opt-in because whether a page needs one depends on its layout."
    )

    public let selector = try! SelectorList("html:not(html *)")

    /// A frame's own document is not the page (axe's `is-initiator-matches`).
    public var topDocumentOnly: Bool { true }

    private static let links = try! SelectorList("a[href]")
    private static let headings = try! SelectorList(
        "h1:not([role]), h2:not([role]), h3:not([role]), h4:not([role]), h5:not([role]), h6:not([role]), [role=heading]")
    private static let mainLandmarks = try! SelectorList("main, [role=main]")

    /// A page without links has no repeated navigation to skip.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        element.descendants.contains(where: Self.links.matches)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        // One walk of the page, stopping at the first way to skip. A same-page link counts even
        // when hidden (skip links often show only on focus); headings and main content must be reachable.
        let canSkip = element.descendants.contains { candidate in
            if Self.links.matches(candidate), Self.isInPageLinkReference(candidate.attribute("href") ?? "") { return true }
            return (Self.headings.matches(candidate) || Self.mainLandmarks.matches(candidate))
                && !page.accessibility.isHiddenFromAssistiveTechnology(candidate)
        }
        if canSkip { return .pass }
        return .violation("The page has no link to a place in the page, no heading and no main landmark that people could use to skip repeated content.")
    }

    /// `#name`, excluding the `#/` and `#!` routes of script routers.
    private static func isInPageLinkReference(_ href: String) -> Bool {
        guard href.hasPrefix("#"), let second = href.dropFirst().first else { return false }
        return second != "/" && second != "!"
    }

    public let examples = RuleExamples(
        passing: [
            #"<nav><a href="/">Home</a></nav><main><p>Menu</p></main>"#,
            #"<nav><a href="/">Home</a></nav><h2>Menu</h2>"#,
            ##"<a href="#content">Skip to content</a><nav><a href="/">Home</a></nav><div id="content">Menu</div>"##,
            #"<nav><a href="/">Home</a></nav><div role="heading" aria-level="2">Menu</div>"#,
            // A skip link shown only on focus still counts.
            ##"<a href="#content" style="display: none">Skip</a><a href="/">Home</a><div id="content">Menu</div>"##,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<nav><a href="/">Home</a> <a href="/about">About</a></nav><div><p>Menu</p></div>"#, at: "html"),
            // Headings and main content hidden from screen readers do not help them skip.
            RuleExample(#"<a href="/">Home</a><h2 aria-hidden="true">Menu</h2><main hidden>Menu</main>"#, at: "html"),
            RuleExample(##"<a href="#/menu">Menu</a><a href="#!about">About</a><h1 role="presentation">Tea</h1>"##, at: "html"),
        ],
        inapplicable: [
            #"<h1>Tea</h1><p>No links here.</p>"#,
            #"<a name="top">Top</a><p>An anchor without href is no link.</p>"#,
        ]
    )
}
