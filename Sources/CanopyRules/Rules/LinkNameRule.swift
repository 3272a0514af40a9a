import CanopyAccessibility
import CanopyHTML

/// A link must say where it goes to people who cannot see it.
public struct LinkNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "link-name",
        impact: .serious,
        tags: [
            "cat.name-role-value", "wcag2a", "wcag244", "wcag412", "section508", "section508.22.a", "TTv5", "TT6.a",
            "EN-301-549", "EN-9.2.4.4", "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-6.2.1",
        ],
        description: "Checks that every link has an accessible name",
        help: "Links need an accessible name",
        howToFix: "Put text inside the link (an image inside needs alt text), or give it an aria-label, aria-labelledby or title.",
        enabledByDefault: true,
        rationale: "A link without a name is announced as \"link\" alone, or by its URL."
    )

    public let selector = try! SelectorList("a[href]")

    /// axe passes a link whose content, aria-label, aria-labelledby or title gives text, and fails
    /// a focusable link without a name; both come down to the link's accessible name.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if NamingChecks(page).hasName(element) { return .pass }
        return .violation("The link has no text, no image with alt text, and no aria-label, aria-labelledby or title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<a href="/tea">Our teas</a>"#,
            #"<a href="/tea"><img src="tea.png" alt="Our teas"></a>"#,
            #"<a href="/tea" aria-label="Our teas"></a>"#,
            #"<a href="/tea" title="Our teas"></a>"#,
            #"<a href="/tea"><article>Our teas</article></a>"#,
        ],
        violating: [
            RuleExample(#"<a href="/tea"></a>"#, at: #"[href="/tea"]"#),
            RuleExample(#"<a href="/tea"><img src="tea.png" alt=""></a>"#, at: #"[href="/tea"]"#),
            RuleExample(#"<a href="/tea" aria-labelledby="missing"></a>"#, at: #"[href="/tea"]"#),
            RuleExample(#"<a href="/tea" role="none"></a>"#, at: #"[href="/tea"]"#),
            RuleExample(#"<a href="/tea"><span hidden>Our teas</span></a>"#, at: #"[href="/tea"]"#),
        ],
        inapplicable: [
            #"<a>Anchor without href</a>"#,
            #"<span role="link">Not a native link</span>"#,
            #"<a href="/tea" aria-hidden="true" tabindex="-1"></a>"#,
        ]
    )
}
