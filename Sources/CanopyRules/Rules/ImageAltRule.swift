import CanopyAccessibility
import CanopyHTML

/// `<img>` needs a text alternative, or an explicit statement that it is decorative.
public struct ImageAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "image-alt",
        impact: .critical,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag111", "section508", "section508.22.a", "TTv5", "TT7.a", "TT7.b",
            "EN-301-549", "EN-9.1.1.1", "ACT", "RGAAv4", "RGAA-1.1.1",
        ],
        description: "Checks that every <img> has a text alternative or is marked as decorative",
        help: "Images need a text alternative",
        howToFix: "Describe the image in an alt attribute (or aria-label/aria-labelledby); if it is purely decorative, use alt=\"\".",
        enabledByDefault: true,
        rationale: "An image without a text alternative is silent or announced by its file name."
    )

    public let selector = try! SelectorList("img")

    /// An explicit role that needs no name (e.g. a non-focusable `separator`) takes the image out
    /// of this rule; roles that need a name, and presentational roles, keep it in.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        let model = page.accessibility
        guard let role = model.explicitRole(of: element), role != "none", role != "presentation" else { return true }
        return ARIARoles.role(named: role)?.nameRequired == true || model.isFocusable(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        // An alt of only spaces is not a text alternative, whatever else the image has.
        if let alt = element.attribute("alt"), !alt.isEmpty, alt.allSatisfy(\.isWhitespace) {
            return .violation("The alt attribute holds only spaces, which screen readers may announce as nothing or as the file name.")
        }
        if element.hasAttribute("alt") || model.ariaLabel(of: element) != nil
            || model.ariaLabelledByText(of: element) != nil || model.title(of: element) != nil
        {
            return .pass
        }
        if let explicit = model.explicitRole(of: element), explicit == "none" || explicit == "presentation" {
            if !model.hasPresentationalConflict(element) { return .pass }
            return .violation(
                "The image has role=\"\(explicit)\" but is focusable or has global ARIA attributes, so the role is ignored and it needs a text alternative."
            )
        }
        return .violation("The image has no alt attribute, no aria-label, no aria-labelledby that resolves to text, and no title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<img src="tea.jpg" alt="A cup of green tea">"#,
            #"<img src="divider.png" alt="">"#,
            #"<img src="tea.jpg" aria-label="Green tea">"#,
            #"<span id="caption">Green tea</span><img src="tea.jpg" aria-labelledby="caption">"#,
            #"<span id="off" hidden>Hidden caption</span><img src="tea.jpg" aria-labelledby="off">"#,
            #"<img src="tea.jpg" title="Green tea">"#,
            #"<img src="divider.png" role="presentation">"#,
            #"<img src="divider.png" role="none">"#,
            #"<img src="play.png" role="button" aria-label="Play">"#,
        ],
        violating: [
            RuleExample(#"<img src="tea.jpg">"#, at: #"[src="tea.jpg"]"#),
            RuleExample(#"<img src="tea.jpg" aria-label="  ">"#, at: #"[src="tea.jpg"]"#),
            RuleExample(#"<img src="tea.jpg" aria-labelledby="missing">"#, at: #"[src="tea.jpg"]"#),
            RuleExample(#"<img src="tea.jpg" title="">"#, at: #"[src="tea.jpg"]"#),
            RuleExample(#"<img src="tea.jpg" alt=" ">"#, at: #"[alt=" "]"#),
            RuleExample(#"<img src="tea.jpg" role="presentation" tabindex="0">"#, at: #"[src="tea.jpg"]"#),
            RuleExample(#"<img src="tea.jpg" role="none" aria-live="polite">"#, at: #"[src="tea.jpg"]"#),
            RuleExample(#"<img src="play.png" role="button">"#, at: #"[src="play.png"]"#),
        ],
        inapplicable: [
            #"<img src="line.png" role="separator">"#,
            #"<img src="tea.jpg" hidden>"#,
            #"<div aria-hidden="true"><img src="tea.jpg"></div>"#,
            #"<p>No images here</p>"#,
        ]
    )
}
