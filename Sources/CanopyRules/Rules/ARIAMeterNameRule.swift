import CanopyAccessibility
import CanopyHTML

/// A meter built with ARIA must say what it measures; its content is not read as its name.
public struct ARIAMeterNameRule: WidgetNameRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-meter-name",
        impact: .serious,
        tags: ["cat.aria", "wcag2a", "wcag111", "EN-301-549", "EN-9.1.1.1", "RGAAv4", "RGAA-11.1.1"],
        description: "Checks that every element with role=\"meter\" has an accessible name",
        help: "ARIA meters need an accessible name",
        howToFix: "Name the meter with aria-label, aria-labelledby pointing at visible text, or title; text inside a meter does not name it.",
        enabledByDefault: false,
        rationale: "A meter without a name reports a value with nothing to say what it measures; opt-in because meters are rare."
    )

    public let selector = try! SelectorList(#"[role="meter"]"#)
    public let widgetName = "meter"
    public let isNamedByContent = false

    public let examples = RuleExamples(
        passing: [
            #"<div role="meter" aria-valuenow="40" aria-label="Disk usage"></div>"#,
            #"<span id="fuel">Fuel</span><div role="meter" aria-valuenow="3" aria-labelledby="fuel"></div>"#,
            #"<div role="meter" aria-valuenow="70" title="Battery"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="meter" aria-valuenow="40">Disk usage</div>"#, at: "div"),
            RuleExample(#"<div role="meter" aria-valuenow="40" aria-labelledby="nowhere"></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<meter value="0.4">40%</meter>"#,
            #"<img role="meter" alt="Disk usage" src="disk.png">"#,
            #"<div role="meter" hidden></div>"#,
        ]
    )
}
