import CanopyAccessibility
import CanopyHTML

/// Controls whose content is presentational (buttons, checkboxes, tabs, ...) are announced as
/// one thing; a control inside them is hidden from screen readers yet still takes keyboard focus.
public struct NestedInteractiveRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "nested-interactive",
        impact: .serious,
        tags: [
            "cat.keyboard", "wcag2a", "wcag412", "TTv5", "TT6.a", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1",
        ],
        description: "Checks that controls whose children are presentational do not contain focusable controls",
        help: "Interactive controls must not be nested",
        howToFix: "Move the inner control out of the outer one (place them side by side), or make the inner element plain content that cannot take focus.",
        enabledByDefault: true,
        rationale: "A control inside a control whose children are presentational cannot be reached or is announced twice."
    )

    /// Every element that can have such a role: an explicit `role`, or an HTML element whose
    /// implicit role can be one (button, checkbox, radio, slider, img, separator, math, meter,
    /// option, progressbar). Asking the role of every element of the page cost more than the rest
    /// of the rule; a test checks this list against the implicit roles of every HTML element.
    public let selector = try! SelectorList("[role], button, summary, input, img, hr, math, meter, option, progress")

    /// Elements whose role makes their children presentational (button, checkbox, tab, ...).
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let role = page.accessibility.role(of: element, options: .axeDefault) else { return false }
        return ARIARoles.role(named: role)?.childrenPresentational ?? false
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let nested = focusableControls(in: element, model: page.accessibility)
        guard !nested.isEmpty else { return .pass }
        let names = nested.map { "<\($0.localName)>" }
        var seen: Set<String> = []
        let summary = names.filter { seen.insert($0).inserted }.joined(separator: ", ")
        if nested.contains(where: { (page.accessibility.tabIndex(of: $0) ?? 0) < 0 }) {
            return .violation("The control contains focusable controls (\(summary)); tabindex=\"-1\" does not hide them from assistive technology.")
        }
        return .violation("The control contains focusable controls (\(summary)) that screen readers cannot announce.")
    }

    /// Focusable descendants with a widget role; the search stops at each one found, since
    /// what is inside it is its own concern.
    private func focusableControls(in element: Element, model: AccessibilityModel) -> [Element] {
        var found: [Element] = []
        for child in element.children {
            if let role = model.role(of: child, options: .axeDefault), ARIARoles.role(named: role)?.type == "widget",
                model.isFocusable(child)
            {
                found.append(child)
            } else {
                found += focusableControls(in: child, model: model)
            }
        }
        return found
    }

    public let examples = RuleExamples(
        passing: [
            "<button>Save</button>",
            #"<button><span tabindex="-1">Save</span></button>"#,
            #"<div role="tab">Overview</div>"#,
            #"<button><span tabindex="0">A focusable span has no widget role</span></button>"#,
            #"<div role="checkbox" aria-checked="false"><button disabled>Disabled</button></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="button" tabindex="0"><input></div>"#, at: "div"),
            RuleExample(#"<div role="checkbox" aria-checked="false"><a href="/terms">Terms</a></div>"#, at: "div"),
            RuleExample(#"<div role="radio" aria-checked="false"><a href="/more" tabindex="-1">More</a></div>"#, at: "div"),
            RuleExample(#"<button><span><a href="/help">Help</a></span></button>"#, at: "button"),
        ],
        inapplicable: [
            #"<a href="/help">Links may contain anything</a>"#,
            "<span>Text</span>",
            #"<button hidden><a href="/">Hidden</a></button>"#,
        ]
    )
}
