import CanopyAccessibility
import CanopyHTML

/// A presentational role is dropped when the element takes focus or carries a global ARIA
/// attribute; browsers then expose its native role, so what the author meant to hide is announced.
public struct PresentationRoleConflictRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "presentation-role-conflict",
        impact: .minor,
        tags: ["cat.aria", "best-practice", "ACT"],
        description: "Checks that elements marked presentational have no tabindex or global ARIA attribute that would make browsers expose them anyway",
        help: "Presentational elements should stay hidden from assistive technology",
        howToFix: "Remove the tabindex and global ARIA attributes (aria-label, aria-live, ...) from the presentational element, or remove its presentational role.",
        enabledByDefault: false,
        rationale: "role=none on a focusable element or one with global ARIA is ignored, which surprises its author; opt-in as in axe-core."
    )

    public let selector = try! SelectorList(#"img[alt=''], [role="none"], [role="presentation"]"#)

    /// Only elements with a native role can conflict: on a `div` there is nothing to fall back to.
    /// Besides the ARIA-in-HTML implicit roles, Chromium gives a few elements roles of its own
    /// (axe-core's `chromiumRole` list), among them the `<svg>` root, which sits in the SVG namespace.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        if ImplicitRoles.role(of: element) != nil { return true }
        if element.localName == "svg" { return element.namespace == .svg }
        return element.isHTML && Self.elementsWithChromiumRole.contains(element.localName)
    }

    private static let elementsWithChromiumRole: Set<String> = [
        "audio", "canvas", "dl", "embed", "iframe", "label", "meter", "object", "video",
    ]

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        if model.isFocusable(element) {
            return .violation("The element can take focus, so browsers expose its native role despite the presentational role.")
        }
        if model.hasGlobalARIAAttribute(element) {
            let attributes = element.attributeNames.filter { ARIAAttributes.globalNames.contains($0) }
            return .violation(
                "Global ARIA attributes (\(attributes.joined(separator: ", "))) make browsers expose the element despite its presentational role."
            )
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<img src="divider.png" alt="">"#,
            #"<h2 role="none">Big text</h2>"#,
            #"<ul role="presentation"><li>One</li></ul>"#,
            #"<svg role="none"><circle r="4"/></svg>"#,
        ],
        violating: [
            RuleExample(#"<img src="divider.png" alt="" tabindex="0">"#, at: #"[src="divider.png"]"#),
            RuleExample(#"<h2 role="none" aria-label="Summary">Big text</h2>"#, at: #"[aria-label="Summary"]"#),
            RuleExample(#"<img src="divider.png" alt="" aria-live="polite">"#, at: #"[src="divider.png"]"#),
            RuleExample(#"<svg role="none" aria-label="Yellow circle"><circle r="4"/></svg>"#, at: "svg"),
        ],
        inapplicable: [
            #"<div role="presentation">Layout</div>"#,
            #"<img src="logo.png" alt="Acme">"#,
            #"<img src="divider.png" alt="" hidden>"#,
        ]
    )
}
