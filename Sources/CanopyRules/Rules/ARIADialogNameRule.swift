import CanopyAccessibility
import CanopyHTML

/// When a dialog opens, screen readers announce its name; an unnamed dialog leaves users guessing
/// what it is about.
public struct ARIADialogNameRule: WidgetNameRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-dialog-name",
        impact: .serious,
        tags: ["cat.aria", "best-practice"],
        description: "Checks that every element with role=\"dialog\" or role=\"alertdialog\" has an accessible name",
        help: "ARIA dialogs and alert dialogs should have an accessible name",
        howToFix: "Point aria-labelledby at the dialog's heading, or give the dialog an aria-label or title.",
        enabledByDefault: false,
        rationale: "A dialog without a name is announced without saying what it is about; opt-in because axe-core keeps it as a best practice."
    )

    public let selector = try! SelectorList(#"[role="dialog"], [role="alertdialog"]"#)
    public let widgetName = "dialog"
    /// A dialog is not named by its content.
    public let isNamedByContent = false

    public let examples = RuleExamples(
        passing: [
            #"<div role="dialog" aria-labelledby="t"><h2 id="t">Delete file?</h2></div>"#,
            #"<dialog open role="alertdialog" aria-label="Session expiring"></dialog>"#,
            #"<div role="dialog" title="Settings"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="dialog"><h2>Delete file?</h2></div>"#, at: "div"),
            RuleExample(#"<div role="alertdialog" aria-labelledby="missing"></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<dialog open><p>Saved</p></dialog>"#,
            #"<div role="dialog" style="display: none"></div>"#,
        ]
    )
}
