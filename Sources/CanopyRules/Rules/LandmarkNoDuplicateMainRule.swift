import CanopyAccessibility
import CanopyHTML

/// Two main landmarks leave users unsure where the primary content is.
///
/// The check is page-wide: as in axe-core, the result is reported on the first main landmark
/// only, with the whole page's count deciding it.
public struct LandmarkNoDuplicateMainRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-no-duplicate-main",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the page has at most one main landmark",
        help: "Pages should not have more than one main landmark",
        howToFix: "Keep a single <main> (or role=\"main\") for the primary content; turn the others into sections or other landmarks.",
        enabledByDefault: true,
        rationale: "Several main landmarks make \"jump to main\" ambiguous."
    )

    public let selector = try! SelectorList(#"main:not([role]), [role="main"]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        Landmarks.isFirstReachable(element, of: selector, on: page)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let count = Landmarks.reachable(selector, on: page).count
        return count <= 1 ? .pass : .violation("The page has \(count) main landmarks; it should have one.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<main><p>Menu</p></main>"#,
            #"<div role="main"><p>Menu</p></div><main hidden><p>Old menu</p></main>"#,
            #"<main><p>Menu</p></main><div aria-hidden="true"><main><p>Copy</p></main></div>"#,
        ],
        violating: [
            #"<main><p>Menu</p></main><main><p>Prices</p></main>"#,
            #"<main><p>Menu</p></main><div role="main"><p>Prices</p></div>"#,
            #"<nav><a href="/">Home</a><main><p>Menu</p></main></nav><main><p>Prices</p></main>"#,
        ],
        inapplicable: [
            #"<div><p>Menu</p></div>"#,
            #"<main role="navigation"><a href="/">Home</a></main>"#,
        ]
    )
}
