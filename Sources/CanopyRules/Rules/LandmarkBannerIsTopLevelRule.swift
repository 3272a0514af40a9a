import CanopyAccessibility
import CanopyHTML

/// The banner holds the site-wide header (logo, site search, main navigation). Put inside
/// another landmark, it is announced as part of that landmark and screen reader users looking
/// for the page's banner do not find it where they expect.
public struct LandmarkBannerIsTopLevelRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-banner-is-top-level",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the banner landmark is not inside another landmark",
        help: "The banner landmark should not be inside another landmark",
        howToFix: "Move the site header (<header> or role=\"banner\") out of the landmark that contains it, to the top level of the page body.",
        enabledByDefault: false,
        rationale: "A banner inside another landmark is not the page's banner any more; opt-in as in axe-core."
    )

    public let selector = try! SelectorList(#"header:not([role]), [role=banner]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        TopLevelLandmark.hasBodyContext(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        TopLevelLandmark.outcome(for: element, on: page, role: "banner")
    }

    public let examples = RuleExamples(
        passing: [
            #"<header><h1>Tea Garden</h1></header><main><p>Menu</p></main>"#,
            #"<div><div role="banner"><h1>Tea Garden</h1></div></div>"#,
            // A form without role is no landmark, named or not.
            #"<form aria-label="Search"><header>Tea Garden</header></form>"#,
            // An article or an unnamed section around it is no landmark.
            #"<article><div role="banner">Tea Garden</div></article>"#,
        ],
        violating: [
            RuleExample(#"<div role="main"><header><h1>Tea Garden</h1></header></div>"#, at: "header"),
            RuleExample(#"<nav aria-label="Site"><div role="banner">Tea Garden</div></nav>"#, at: "div"),
            // An explicit role counts wherever it is, even inside sectioning content.
            RuleExample(#"<main><article><div role="banner">Tea Garden</div></article></main>"#, at: "div"),
            RuleExample(#"<section aria-label="Intro"><div role="banner">Tea Garden</div></section>"#, at: "div"),
            RuleExample(#"<div role="complementary"><header>Tea Garden</header></div>"#, at: "header"),
        ],
        inapplicable: [
            // Headers of articles, sections, asides, navigation and main are no banners.
            #"<article><header>Green tea</header></article>"#,
            #"<main><header>Menu</header></main>"#,
            #"<section><div><header>Specials</header></div></section>"#,
            #"<nav><header>Site</header></nav>"#,
            #"<header role="none">Tea Garden</header>"#,
            #"<div role="main"><header hidden>Tea Garden</header></div>"#,
        ]
    )
}
