import CanopyAccessibility
import CanopyHTML

/// A main landmark lets keyboard and screen reader users jump straight past the header and
/// navigation to the page's primary content.
public struct LandmarkOneMainRule: SatisfiedByAnyFrameRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-one-main",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the page has a main landmark",
        help: "Pages should have a main landmark",
        howToFix: "Wrap the page's primary content in a <main> element (or an element with role=\"main\").",
        enabledByDefault: true,
        rationale: "A main landmark lets screen-reader users jump straight to the content."
    )

    /// The root element: the rule judges the page as a whole.
    public let selector = try! SelectorList("html:root")

    private let mainLandmarks = try! SelectorList(#"main:not([role]), [role="main"]"#)
    private let frames = try! SelectorList("iframe, frame")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        if page.elements(matching: mainLandmarks, inside: element).contains(where: { !model.isHiddenFromAssistiveTechnology($0) }) {
            return .pass
        }
        // Any frame with a main landmark satisfies the page, and static HTML does not show frames.
        if page.elements(matching: frames, inside: element).contains(where: { !model.isHiddenFromAssistiveTechnology($0) }) {
            return .incomplete("The page has no main landmark of its own, but one of its frames, which static HTML does not show, may have one.")
        }
        return .violation("The page has no main landmark that assistive technology can reach.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>Tea</title></head><body><header>Tea Garden</header><main><p>Menu</p></main></body></html>"#,
            #"<html><body><div role="main"><p>Menu</p></div></body></html>"#,
            #"<html><body><main role="main"><p>Menu</p></main></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Tea</title></head><body><div><p>Menu</p></div></body></html>"#, at: "html"),
            RuleExample(#"<html><body><main hidden><p>Menu</p></main></body></html>"#, at: "html"),
            RuleExample(#"<html><body><div aria-hidden="true"><main><p>Menu</p></main></div></body></html>"#, at: "html"),
            // A role other than main overrides the element's own role.
            RuleExample(#"<html><body><main role="navigation"><a href="/">Home</a></main></body></html>"#, at: "html"),
        ],
        incomplete: [
            RuleExample(#"<html><body><p>Intro</p><iframe src="content.html" title="Content"></iframe></body></html>"#, at: "html"),
        ]
    )
}
