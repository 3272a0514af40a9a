import CanopyAccessibility
import CanopyHTML

/// A progress bar built with ARIA must say what is progressing; its content is not read as its name.
public struct ARIAProgressbarNameRule: WidgetNameRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-progressbar-name",
        impact: .serious,
        tags: ["cat.aria", "wcag2a", "wcag111", "EN-301-549", "EN-9.1.1.1", "RGAAv4", "RGAA-11.1.1"],
        description: "Checks that every element with role=\"progressbar\" has an accessible name",
        help: "ARIA progress bars need an accessible name",
        howToFix: "Name the progress bar with aria-label, aria-labelledby pointing at visible text, or title; text inside it does not name it.",
        enabledByDefault: false,
        rationale: "A progress bar without a name reports progress of nothing in particular; opt-in because axe-core keeps it as a best practice."
    )

    public let selector = try! SelectorList(#"[role="progressbar"]"#)
    public let widgetName = "progress bar"
    public let isNamedByContent = false

    public let examples = RuleExamples(
        passing: [
            #"<div role="progressbar" aria-valuenow="20" aria-label="Uploading photos"></div>"#,
            #"<h2 id="up">Upload</h2><div role="progressbar" aria-labelledby="up"></div>"#,
            #"<div role="progressbar" title="Saving"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="progressbar">Uploading photos</div>"#, at: "div"),
            RuleExample(#"<div role="progressbar" aria-labelledby="empty"></div><span id="empty"></span>"#, at: "div"),
        ],
        inapplicable: [
            #"<progress value="20" max="100"></progress>"#,
            #"<button role="progressbar" title="Saving"></button>"#,
            #"<div role="progressbar" aria-hidden="true"></div>"#,
        ]
    )
}
