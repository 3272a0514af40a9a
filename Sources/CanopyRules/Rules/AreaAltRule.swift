import CanopyAccessibility
import CanopyHTML

/// A clickable region of an image map needs text that says where it leads.
public struct AreaAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "area-alt",
        impact: .critical,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag244", "wcag412", "section508", "section508.22.a", "TTv5", "TT6.a",
            "EN-301-549", "EN-9.2.4.4", "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-1.1.2",
        ],
        description: "Checks that every linked <area> of an image map has a text alternative",
        help: "Image map links need a text alternative",
        howToFix: "Give each <area href> an alt attribute naming its destination (or an aria-label, aria-labelledby or title).",
        enabledByDefault: true,
        rationale: "A linked area of an image map without a text alternative is a link with no destination a screen reader can name."
    )

    public let selector = try! SelectorList("map area[href]")

    /// Areas are checked even when the map is hidden, as axe does: the map's image still shows them.
    public let excludesHidden = false

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if checks.hasAlt(element) || checks.hasARIALabelOrTitle(element) { return .pass }
        return .violation("The area has no non-empty alt, aria-label, aria-labelledby that gives text, or title.")
    }

    public let examples = RuleExamples(
        passing: [
            ##"<img src="m.png" usemap="#m"><map name="m"><area href="/a" alt="Africa" shape="rect" coords="0,0,9,9"></map>"##,
            #"<map name="m"><area href="/a" aria-label="Africa"></map>"#,
            #"<span id="l">Africa</span><map name="m"><area href="/a" aria-labelledby="l"></map>"#,
            #"<map name="m"><area href="/a" title="Africa"></map>"#,
        ],
        violating: [
            RuleExample(#"<map name="m"><area href="/a"></map>"#, at: #"[href="/a"]"#),
            RuleExample(#"<map name="m"><area href="/a" alt=""></map>"#, at: #"[href="/a"]"#),
            RuleExample(#"<map name="m"><area href="/a" aria-labelledby="missing"></map>"#, at: #"[href="/a"]"#),
        ],
        inapplicable: [
            #"<map name="m"><area alt=""></map>"#,
            #"<area href="/a">"#,
        ]
    )
}
