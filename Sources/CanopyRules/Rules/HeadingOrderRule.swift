import CanopyAccessibility
import CanopyHTML

/// Headings form the page's outline; skipping a level (an h4 right after an h2) suggests a
/// missing section to people who navigate by headings.
public struct HeadingOrderRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "heading-order",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that each heading is at most one level deeper than the heading before it",
        help: "Heading levels should increase by one at a time",
        howToFix: "Choose heading levels by the outline of the content, not by their looks: after an h2 comes an h2 or an h3, not an h4. Style headings with CSS.",
        enabledByDefault: true,
        rationale: "Skipped heading levels make the outline of the page misleading when navigating by headings."
    )

    public let selector = try! SelectorList("h1, h2, h3, h4, h5, h6, [role=heading]")

    /// Everything that takes a place in the page's heading outline, as axe lists it: heading-like
    /// elements (even ones whose role is not heading) and frames, whose headings come in between.
    private let outlineEntries = try! SelectorList("h1, h2, h3, h4, h5, h6, [role=heading], iframe, frame")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        Headings(page).isHeading(element)
    }

    /// Compares the heading with the entry before it in the whole page's outline (the page,
    /// not just the audited part, decides the order).
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let headings = Headings(page)
        let model = page.accessibility
        guard let level = headings.outlineLevel(of: element) else { return .pass }
        // The page's visible outline entries, listed once per page rather than once per heading.
        let entries = page.memo("heading-order.entries") {
            page.elements(matching: outlineEntries).filter { !model.isHiddenFromAssistiveTechnology($0) }.map(\.position)
        }
        // Positions are sorted: the entry itself, or where it would be.
        let index = entries.binarySearchFirst { $0 >= element.position }
        guard index > 0 else { return .pass }  // The first heading may have any level.
        let previous = page.document.element(atPosition: entries[index - 1])
        if previous.isHTML && (previous.localName == "iframe" || previous.localName == "frame") {
            return .incomplete("The heading follows a frame; the level of the frame's last heading, which static HTML does not show, decides whether a level is skipped.")
        }
        guard let previousLevel = headings.outlineLevel(of: previous) else {
            // axe counts a heading element whose role is not heading as level -1 in the outline.
            return .violation("The heading (level \(level)) follows a <\(previous.localName)> whose role is not heading, which counts as no level, so levels appear skipped.")
        }
        if level - previousLevel > 1 {
            return .violation("The heading is level \(level), but the heading before it is level \(previousLevel): level \(previousLevel + 1) is skipped.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            "<h1>Tea</h1><h2>Green</h2><h3>Sencha</h3><h2>Black</h2>",
            "<h3>Starting deep is fine</h3>",
            "<h1>Tea</h1><h2>Green</h2><h3>Sencha</h3><h1>Coffee</h1>",
            #"<h1>Tea</h1><div role="heading">ARIA's default level is 2</div>"#,
            #"<h1>Tea</h1><h4 aria-level="2">Level from aria-level</h4>"#,
            #"<h1>Tea</h1><h2 aria-level="two">An aria-level that is no number falls back</h2>"#,
            #"<h1>Tea</h1><h3 hidden>Hidden headings do not count</h3><h2>Green</h2>"#,
        ],
        // The first heading of a page always passes, so a failing page needs a first entry
        // that is no heading: axe counts a heading element with another role as no level.
        violating: [
            RuleExample(#"<h2 role="presentation">Tea</h2><h4>Sencha</h4>"#, at: "h4"),
            RuleExample(#"<h1 role="none">Tea</h1><div role="heading" aria-level="3">Sencha</div>"#, at: "div"),
        ],
        incomplete: [
            RuleExample(#"<iframe src="menu.html" title="Menu"></iframe><h2>Green</h2>"#, at: "h2"),
        ],
        inapplicable: [
            #"<h1 role="banner">Not a heading</h1>"#,
            "<p>No headings</p>",
        ]
    )
}
