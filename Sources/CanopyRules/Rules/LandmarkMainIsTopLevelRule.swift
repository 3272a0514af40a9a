import CanopyAccessibility
import CanopyHTML

/// The main landmark holds the page's primary content; nested in another landmark (a banner,
/// a navigation, a region...) it is announced as part of that landmark and is harder to find.
public struct LandmarkMainIsTopLevelRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-main-is-top-level",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the main landmark is not inside another landmark",
        help: "The main landmark should not be inside another landmark",
        howToFix: "Move the <main> element (or role=\"main\") out of the landmark that contains it, so it is a direct part of the page body.",
        enabledByDefault: true,
        rationale: "A main landmark inside another landmark is harder to reach and to recognise as the page's main content."
    )

    public let selector = try! SelectorList(#"main:not([role]), [role="main"]"#)

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if let container = LandmarkNesting.enclosingLandmark(of: element, on: page) {
            return .violation("The main landmark is inside a \(container.role) landmark (<\(container.element.localName)>).")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<header>Tea Garden</header><main><p>Menu</p></main><footer>© Tea Garden</footer>"#,
            #"<div><div role="main"><p>Menu</p></div></div>"#,
            // A header inside an article is no banner, and an unnamed section or form is no landmark.
            #"<article><header><main><p>Menu</p></main></header></article>"#,
            #"<section><main><p>Menu</p></main></section>"#,
            // Forms count only through an explicit role, even when named.
            #"<form aria-label="Order"><main><p>Menu</p></main></form>"#,
        ],
        violating: [
            RuleExample(#"<nav><main><p>Menu</p></main></nav>"#, at: "main"),
            RuleExample(#"<header><main><p>Menu</p></main></header>"#, at: "main"),
            RuleExample(#"<div role="complementary"><div role="main"><p>Menu</p></div></div>"#, at: #"[role="main"]"#),
            RuleExample(#"<section aria-label="Specials"><main><p>Menu</p></main></section>"#, at: "main"),
            RuleExample(#"<div role="form"><main><p>Menu</p></main></div>"#, at: "main"),
        ],
        inapplicable: [
            #"<div><p>Menu</p></div>"#,
            #"<main role="region" aria-label="Menu"><p>Menu</p></main>"#,
            #"<nav><main hidden><p>Menu</p></main></nav>"#,
        ]
    )
}
