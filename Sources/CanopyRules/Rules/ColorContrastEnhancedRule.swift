import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// The stricter contrast of WCAG 1.4.6 (level AAA): 7:1, or 4.5:1 for large text. Opt-in, as in
/// axe-core, because few sites aim for AAA.
public struct ColorContrastEnhancedRule: ContrastRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "color-contrast-enhanced",
        impact: .serious,
        tags: ["cat.color", "wcag2aaa", "wcag146", "ACT"],
        description: "Checks that text contrasts with its background at least as much as WCAG 2 AAA asks",
        help: "Text needs enhanced contrast with its background",
        howToFix: "Raise the contrast to 7:1, or 4.5:1 for text of 18pt, or 14pt bold, and larger.",
        enabledByDefault: false,
        rationale: "Readers with moderately low vision, who do not use magnifiers or contrast settings, need more than the AA minimum."
    )

    public let contrast = ColorContrast.aaa

    public let examples = RuleExamples(
        passing: [
            #"<p style="color: #595959">7:1 on white</p>"#,
            #"<h1 style="color: #767676; font-size: 24px">Large text at 4.54:1</h1>"#,
        ],
        violating: [
            RuleExample(#"<p style="color: #666">5.7:1 is AA but not AAA</p>"#, at: "p"),
        ],
        incomplete: [
            RuleExample(#"<div style="background-image: url(a.png)"><p>Over an image</p></div>"#, at: "p"),
        ],
        inapplicable: [
            #"<p hidden>Not rendered</p>"#,
        ]
    )
}
