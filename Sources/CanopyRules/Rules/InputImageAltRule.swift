import CanopyAccessibility
import CanopyHTML

/// An image button (`<input type="image">`) needs text that says what pressing it does.
public struct InputImageAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "input-image-alt",
        impact: .critical,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag111", "wcag412", "section508", "section508.22.a", "TTv5", "TT7.a",
            "EN-301-549", "EN-9.1.1.1", "EN-9.4.1.2", "ACT", "RGAAv4", "RGAA-1.1.3",
        ],
        description: "Checks that every <input type=\"image\"> has a text alternative",
        help: "Image buttons need a text alternative",
        howToFix: "Give the image button an alt attribute that names its action (or an aria-label, aria-labelledby, title or <label>).",
        enabledByDefault: true,
        rationale: "An image button without alternative text gives no clue what it does."
    )

    public let selector = try! SelectorList(#"input[type="image"]"#)

    /// An explicit role that needs no name (and no focus) takes the button out of this rule.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).keepsNameRequirement(element)
    }

    /// Only a real text alternative counts: the browser's default "Submit" and the value do not
    /// describe the image.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if checks.hasAlt(element) || checks.hasARIALabelOrTitle(element) || checks.hasImplicitLabel(element)
            || checks.hasExplicitLabel(element)
        {
            return .pass
        }
        return .violation(
            "The image button has no non-empty alt, aria-label, aria-labelledby that gives text, title, or label."
        )
    }

    public let examples = RuleExamples(
        passing: [
            #"<input type="image" src="go.png" alt="Search">"#,
            #"<input type="image" src="go.png" aria-label="Search">"#,
            #"<span id="l">Search</span><input type="image" src="go.png" aria-labelledby="l">"#,
            #"<input type="image" src="go.png" title="Search">"#,
            #"<label>Search <input type="image" src="go.png"></label>"#,
            #"<label for="go">Search</label><input type="image" src="go.png" id="go">"#,
        ],
        violating: [
            RuleExample(#"<input type="image" src="go.png">"#, at: #"[src="go.png"]"#),
            RuleExample(#"<input type="image" src="go.png" alt="">"#, at: #"[src="go.png"]"#),
            RuleExample(#"<input type="image" src="go.png" alt="  " value="Go">"#, at: #"[alt="  "]"#),
            RuleExample(#"<input type="image" src="go.png" aria-labelledby="missing">"#, at: #"[src="go.png"]"#),
            RuleExample(#"<input type="image" src="go.png" role="gridcell">"#, at: #"[src="go.png"]"#),
        ],
        inapplicable: [
            #"<input type="image" src="go.png" role="gridcell" disabled>"#,
            #"<input type="image" src="go.png" hidden>"#,
            #"<input type="submit">"#,
        ]
    )
}
