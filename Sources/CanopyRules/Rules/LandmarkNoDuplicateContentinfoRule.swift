import CanopyAccessibility
import CanopyHTML

/// A page has one contentinfo landmark (the site footer); a second one makes the page's structure confusing to navigate.
///
/// The check is page-wide: as in axe-core, the result is reported on the first candidate
/// (`<footer>` without role, or role=contentinfo) only. A `<footer>` inside article, aside, main, nav or
/// section is not a contentinfo landmark, so it is not counted.
public struct LandmarkNoDuplicateContentinfoRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-no-duplicate-contentinfo",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the page has at most one contentinfo landmark",
        help: "Pages should not have more than one contentinfo landmark",
        howToFix: "Keep one page-wide <footer> (or role=\"contentinfo\"); put other <footer> elements inside the article or section they belong to, or drop role=\"contentinfo\" from them.",
        enabledByDefault: true,
        rationale: "Several contentinfo landmarks make \"jump to footer\" ambiguous."
    )

    public let selector = try! SelectorList(#"footer:not([role]), [role="contentinfo"]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        Landmarks.isFirstReachable(element, of: selector, on: page)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let landmarks = Landmarks.reachable(selector, on: page).filter { model.role(of: $0, options: .axeDefault) == "contentinfo" }
        return landmarks.count <= 1 ? .pass : .violation("The page has \(landmarks.count) contentinfo landmarks; it should have at most one.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<main><p>Menu</p></main><footer>© Tea Garden</footer>"#,
            // Footers of articles and sections are not contentinfo landmarks.
            #"<main><article><footer>Posted Monday</footer></article><section><footer>More</footer></section></main><footer>© Tea Garden</footer>"#,
            #"<footer>© Tea Garden</footer><footer style="display: none">Old footer</footer>"#,
            #"<nav><footer>Links</footer></nav><div role="contentinfo">© Tea Garden</div>"#,
        ],
        violating: [
            #"<footer>© Tea Garden</footer><footer>Second footer</footer>"#,
            #"<footer>© Tea Garden</footer><div role="contentinfo">Second footer</div>"#,
            #"<footer>© Tea Garden</footer><section><div role="contentinfo">Section footer</div></section>"#,
        ],
        inapplicable: [
            #"<div>© Tea Garden</div>"#,
            #"<footer role="group">© Tea Garden</footer>"#,
            #"<footer hidden>© Tea Garden</footer>"#,
        ]
    )
}
