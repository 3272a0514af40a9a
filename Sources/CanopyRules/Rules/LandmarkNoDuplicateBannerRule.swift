import CanopyAccessibility
import CanopyHTML

/// A page has one banner landmark (the site header); a second one makes the page's structure confusing to navigate.
///
/// The check is page-wide: as in axe-core, the result is reported on the first candidate
/// (`<header>` without role, or role=banner) only. A `<header>` inside article, aside, main, nav or
/// section is not a banner landmark, so it is not counted.
public struct LandmarkNoDuplicateBannerRule: SingleLandmarkRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-no-duplicate-banner",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the page has at most one banner landmark",
        help: "Pages should not have more than one banner landmark",
        howToFix: "Keep one page-wide <header> (or role=\"banner\"); put other <header> elements inside the article or section they belong to, or drop role=\"banner\" from them.",
        enabledByDefault: true,
        rationale: "Several banners make \"jump to banner\" ambiguous."
    )

    public let selector = try! SelectorList(#"header:not([role]), [role="banner"]"#)
    public let landmarkRole = "banner"
    public let countsOnlyExposedRole = true
    public let allowed = "at most one"

    public let examples = RuleExamples(
        passing: [
            #"<header>Tea Garden</header><main><p>Menu</p></main>"#,
            // Headers of articles and sections are not banners.
            #"<header>Tea Garden</header><main><article><header>Green tea</header></article><section><header>Black tea</header></section></main>"#,
            #"<header>Tea Garden</header><header hidden>Old banner</header>"#,
            #"<div role="banner">Tea Garden</div><aside><header>Related</header></aside>"#,
            // The first candidate carries the page-wide result even when it is not a banner itself.
            #"<nav><header>Links</header></nav><header>Tea Garden</header>"#,
        ],
        violating: [
            RuleExample(#"<header>Tea Garden</header><header>Second banner</header>"#, at: "body > header:nth-child(1)"),
            RuleExample(#"<header>Tea Garden</header><div role="banner">Second banner</div>"#, at: "header"),
            // An explicit role=banner counts wherever it is.
            RuleExample(#"<header>Tea Garden</header><article><div role="banner">Story banner</div></article>"#, at: "header"),
        ],
        inapplicable: [
            #"<div>Tea Garden</div>"#,
            #"<header role="navigation"><a href="/">Home</a></header>"#,
            #"<header aria-hidden="true">Tea Garden</header>"#,
        ]
    )
}
