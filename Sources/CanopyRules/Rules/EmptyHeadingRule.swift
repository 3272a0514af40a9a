import CanopyAccessibility
import CanopyHTML

/// Screen reader users jump between headings; an empty heading is a stop that says nothing.
public struct EmptyHeadingRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "empty-heading",
        impact: .minor,
        tags: ["cat.name-role-value", "best-practice"],
        description: "Checks that every heading has text a screen reader can announce",
        help: "Headings should have text",
        howToFix: "Put text in the heading (or give it an aria-label, aria-labelledby or title), or remove the heading if it has nothing to say.",
        enabledByDefault: true,
        rationale: "An empty heading is announced as a heading with nothing in it, which breaks navigation by headings."
    )

    public let selector = try! SelectorList(#"h1, h2, h3, h4, h5, h6, [role="heading"]"#)

    /// Only elements that really are headings: `<h1 role="banner">` is a banner.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        Headings(page).isHeading(element)
    }

    /// Text from the content (hidden parts skipped), aria-label, aria-labelledby or title.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if !page.accessibility.subtreeText(of: element).isEmpty || checks.hasARIALabel(element)
            || checks.hasARIALabelledBy(element) || page.accessibility.title(of: element) != nil
        {
            return .pass
        }
        return .violation("The heading has no text that assistive technology can announce.")
    }

    public let examples = RuleExamples(
        passing: [
            "<h1>Order history</h1>",
            #"<div role="heading" aria-level="2">Shipping</div>"#,
            #"<h2 aria-label="Billing"></h2>"#,
            #"<span id="t">Returns</span><h3 aria-labelledby="t"></h3>"#,
            #"<h4 title="Support"></h4>"#,
            #"<h2><img src="logo.png" alt="Tea Garden"></h2>"#,
        ],
        violating: [
            RuleExample("<h1></h1>", at: "h1"),
            RuleExample("<h2>   </h2>", at: "h2"),
            RuleExample(#"<h3><span style="display: none">Hidden</span></h3>"#, at: "h3"),
            RuleExample(#"<h2><span aria-hidden="true">Decoration</span></h2>"#, at: "h2"),
            RuleExample(#"<div role="heading"></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<h1 role="banner"></h1>"#,
            "<h1 hidden></h1>",
            "<p>No headings</p>",
        ]
    )
}
