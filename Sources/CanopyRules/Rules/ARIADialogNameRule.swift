import CanopyAccessibility
import CanopyHTML

/// When a dialog opens, screen readers announce its name; an unnamed dialog leaves users guessing
/// what it is about.
public struct ARIADialogNameRule: Rule {
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

    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    /// Only aria-label, aria-labelledby and title count: a dialog is not named by its content.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if NamingChecks(page).hasARIALabelOrTitle(element) { return .pass }
        return .violation("The dialog has no aria-label, no aria-labelledby that gives text, and no title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="dialog" aria-labelledby="t"><h2 id="t">Delete file?</h2></div>"#,
            #"<dialog open role="alertdialog" aria-label="Session expiring"></dialog>"#,
            #"<div role="dialog" title="Settings"></div>"#,
        ],
        violating: [
            #"<div role="dialog"><h2>Delete file?</h2></div>"#,
            #"<div role="alertdialog" aria-labelledby="missing"></div>"#,
        ],
        inapplicable: [
            #"<dialog open><p>Saved</p></dialog>"#,
            #"<div role="dialog" style="display: none"></div>"#,
        ]
    )
}
