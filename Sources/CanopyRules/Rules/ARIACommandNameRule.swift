import CanopyAccessibility
import CanopyHTML

/// Elements made into links, buttons or menu items with ARIA need a name like their native peers.
public struct ARIACommandNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-command-name",
        impact: .serious,
        tags: [
            "cat.aria", "wcag2a", "wcag412", "TTv5", "TT6.a", "EN-301-549", "EN-9.4.1.2", "ACT", "RGAAv4",
            "RGAA-11.9.1",
        ],
        description: "Checks that every ARIA link, button and menuitem has an accessible name",
        help: "ARIA commands need an accessible name",
        howToFix: "Put text inside the element, or give it an aria-label, aria-labelledby or title.",
        enabledByDefault: true,
        rationale: "A link, button or menu item without a name is announced as just its role, so users cannot tell what it does."
    )

    public let selector = try! SelectorList(#"[role="link"], [role="button"], [role="menuitem"]"#)

    /// Native elements with their own naming (a[href], button, img, inputs...) have their own rules.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        NamingChecks(page).hasNoNativeNamingMethod(element)
    }

    /// Content, aria-label, aria-labelledby or title: together, the accessible name.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if NamingChecks(page).hasName(element) { return .pass }
        return .violation("The element has no text, aria-label, aria-labelledby that gives text, or title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="link" tabindex="0">Home</div>"#,
            #"<div role="button" aria-label="Close"></div>"#,
            #"<span id="l">Print</span><div role="button" aria-labelledby="l"></div>"#,
            #"<div role="menu"><div role="menuitem" title="Open"></div></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="link"></div>"#, at: "div"),
            RuleExample(#"<div role="button" aria-labelledby="missing"></div>"#, at: "div"),
            RuleExample(#"<div role="menu"><div role="menuitem"><span hidden>Open</span></div></div>"#, at: #"[role="menuitem"]"#),
        ],
        inapplicable: [
            #"<button role="button">Save</button>"#,
            #"<a href="/" role="link">Home</a>"#,
            #"<img role="button" src="send.png" alt="Send">"#,
            #"<div role="button" hidden></div>"#,
        ]
    )
}
