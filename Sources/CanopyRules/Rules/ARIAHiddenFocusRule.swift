import CanopyAccessibility
import CanopyHTML

/// Content hidden with `aria-hidden="true"` must not contain anything keyboard users can Tab to:
/// focus would land on an element that screen readers cannot describe.
public struct ARIAHiddenFocusRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-hidden-focus",
        impact: .serious,
        tags: ["cat.name-role-value", "wcag2a", "wcag412", "TTv5", "TT6.a", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-10.8.1"],
        description: "Checks that elements hidden with aria-hidden are not focusable and contain no focusable elements",
        help: "Content hidden from assistive technology must not be reachable by keyboard",
        howToFix: "Disable the controls inside the hidden content, take them out of the tab order with tabindex=\"-1\", hide them for everyone (display:none, hidden), make the region inert, or remove aria-hidden.",
        enabledByDefault: true,
        rationale: "A focusable element inside aria-hidden content receives keyboard focus but is silent to screen readers, which strands their users."
    )

    public let selector = try! SelectorList(#"[aria-hidden="true"]"#)

    /// The candidates are hidden by definition.
    public var excludesHidden: Bool { false }

    /// Only the outermost aria-hidden element of a subtree is checked, so each problem is reported once.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        var current = element.parent
        while let ancestor = current {
            if ancestor.attribute("aria-hidden") == "true" { return false }
            current = ancestor.parent
        }
        return true
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let reachable = ([element] + Array(element.descendants)).filter { model.isTabbable($0) }
        guard !reachable.isEmpty else { return .pass }
        let names = ARIAValidity.list(reachable.map { "<\($0.localName)>" })
        // With a dialog open, the page behind it is hidden on purpose and scripts usually trap focus.
        if Self.hasOpenDialog(page) {
            return .incomplete("The hidden content holds focusable elements (\(names)); a dialog is open, so check that focus cannot leave it.")
        }
        return .violation("Keyboard users can reach \(names) inside content hidden from assistive technology.")
    }

    static func hasOpenDialog(_ page: PageContext) -> Bool {
        let model = page.accessibility
        return page.elements(matching: Self.dialogs).contains { dialog in
            !model.isNotRendered(dialog) && !model.isHiddenFromAssistiveTechnology(dialog)
                && (dialog.localName != "dialog" || dialog.hasAttribute("open"))
        }
    }

    static let dialogs = try! SelectorList(#"dialog, [role="dialog"], [role="alertdialog"]"#)

    public let examples = RuleExamples(
        passing: [
            #"<p aria-hidden="true">Decoration</p>"#,
            #"<div aria-hidden="true"><button tabindex="-1">Behind</button></div>"#,
            #"<div aria-hidden="true"><input disabled></div>"#,
            #"<div aria-hidden="true"><a href="/" hidden>Link</a></div>"#,
            #"<div aria-hidden="true"><div inert><button>Inert</button></div></div>"#,
        ],
        violating: [
            RuleExample(#"<div aria-hidden="true"><a href="/">Link</a></div>"#, at: "div"),
            RuleExample(#"<p tabindex="0" aria-hidden="true">Focusable itself</p>"#, at: "p"),
            RuleExample(#"<div aria-hidden="true"><input aria-disabled="true"></div>"#, at: "div"),
            RuleExample(#"<div aria-hidden="true"><div aria-hidden="false"><button>Still hidden</button></div></div>"#, at: "body > div"),
        ],
        incomplete: [
            RuleExample(#"<div aria-hidden="true"><a href="/">Behind the dialog</a></div><div role="dialog" aria-label="Sign in"><button>OK</button></div>"#, at: "body > div:nth-child(1)"),
        ],
        inapplicable: [
            "<div><button>Visible</button></div>",
            #"<div aria-hidden="false"><button>Not hidden</button></div>"#,
        ]
    )
}
