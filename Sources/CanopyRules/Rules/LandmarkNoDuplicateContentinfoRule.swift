import CanopyAccessibility
import CanopyHTML

/// A page has one contentinfo landmark (the site footer); a second one makes the page's structure confusing to navigate.
///
/// The check is page-wide: as in axe-core, the result is reported on the first candidate
/// (`<footer>` without role, or role=contentinfo) only. A `<footer>` inside article, aside, main, nav or
/// section is not a contentinfo landmark, so it is not counted.
public struct LandmarkNoDuplicateContentinfoRule: SingleLandmarkRule {
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
    public let landmarkRole = "contentinfo"
    public let countsOnlyExposedRole = true
    public let allowed = "at most one"

    public let examples = RuleExamples(
        passing: [
            #"<main><p>Menu</p></main><footer>© Tea Garden</footer>"#,
            // Footers of articles and sections are not contentinfo landmarks.
            #"<main><article><footer>Posted Monday</footer></article><section><footer>More</footer></section></main><footer>© Tea Garden</footer>"#,
            #"<footer>© Tea Garden</footer><footer style="display: none">Old footer</footer>"#,
            #"<nav><footer>Links</footer></nav><div role="contentinfo">© Tea Garden</div>"#,
        ],
        violating: [
            RuleExample(#"<footer>© Tea Garden</footer><footer>Second footer</footer>"#, at: "body > footer:nth-child(1)"),
            RuleExample(#"<footer>© Tea Garden</footer><div role="contentinfo">Second footer</div>"#, at: "footer"),
            RuleExample(#"<footer>© Tea Garden</footer><section><div role="contentinfo">Section footer</div></section>"#, at: "footer"),
        ],
        inapplicable: [
            #"<div>© Tea Garden</div>"#,
            #"<footer role="group">© Tea Garden</footer>"#,
            #"<footer hidden>© Tea Garden</footer>"#,
        ]
    )
}
