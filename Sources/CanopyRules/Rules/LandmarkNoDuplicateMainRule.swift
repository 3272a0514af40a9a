import CanopyAccessibility
import CanopyHTML

/// Two main landmarks leave users unsure where the primary content is.
///
/// The check is page-wide: as in axe-core, the result is reported on the first main landmark
/// only, with the whole page's count deciding it.
public struct LandmarkNoDuplicateMainRule: SingleLandmarkRule {
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
    public let landmarkRole = "main"
    public let countsOnlyExposedRole = false
    public let allowed = "one"

    public let examples = RuleExamples(
        passing: [
            #"<main><p>Menu</p></main>"#,
            #"<div role="main"><p>Menu</p></div><main hidden><p>Old menu</p></main>"#,
            #"<main><p>Menu</p></main><div aria-hidden="true"><main><p>Copy</p></main></div>"#,
        ],
        violating: [
            RuleExample(#"<main><p>Menu</p></main><main><p>Prices</p></main>"#, at: "body > main:nth-child(1)"),
            RuleExample(#"<main><p>Menu</p></main><div role="main"><p>Prices</p></div>"#, at: "main"),
            RuleExample(#"<nav><a href="/">Home</a><main><p>Menu</p></main></nav><main><p>Prices</p></main>"#, at: "nav > main"),
        ],
        inapplicable: [
            #"<div><p>Menu</p></div>"#,
            #"<main role="navigation"><a href="/">Home</a></main>"#,
        ]
    )
}
