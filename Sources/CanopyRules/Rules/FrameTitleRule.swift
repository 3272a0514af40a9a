import CanopyAccessibility
import CanopyHTML

/// Frames need a name so that screen reader users can tell what each one holds before entering it.
public struct FrameTitleRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "frame-title",
        impact: .serious,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag412", "section508", "section508.22.i", "TTv5", "TT12.d",
            "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-2.1.1",
        ],
        description: "Checks that every <iframe> and <frame> has an accessible name",
        help: "Frames need an accessible name",
        howToFix: "Give the frame a title (or aria-label/aria-labelledby) that says what it contains; for a purely decorative frame, use role=\"presentation\" without a title.",
        enabledByDefault: true,
        rationale: "A frame without a name is announced only as a frame, with no clue to its content."
    )

    public let selector = try! SelectorList("frame, iframe")

    /// Frames taken out of the tab order (negative tabindex) are not reached, so not checked.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let tabIndex = element.attribute("tabindex").flatMap(JavaScriptNumbers.parseInt) else { return true }
        return tabIndex >= 0
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if checks.hasARIALabelOrTitle(element) || checks.isPresentational(element) { return .pass }
        if let role = page.accessibility.explicitRole(of: element), role == "none" || role == "presentation" {
            return .violation(
                "The frame has role=\"\(role)\" but a title attribute, focus or global ARIA attributes keep it announced; it needs a name."
            )
        }
        return .violation("The frame has no non-empty title, aria-label, or aria-labelledby that gives text.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<iframe src="map.html" title="Store locations map"></iframe>"#,
            #"<iframe src="map.html" aria-label="Store locations map"></iframe>"#,
            #"<iframe src="ad.html" role="presentation"></iframe>"#,
        ],
        violating: [
            RuleExample(#"<iframe src="map.html"></iframe>"#, at: #"[src="map.html"]"#),
            RuleExample(#"<iframe src="map.html" title=" "></iframe>"#, at: #"[title=" "]"#),
            RuleExample(#"<iframe src="ad.html" role="none" title=""></iframe>"#, at: #"[src="ad.html"]"#),
            RuleExample(#"<iframe src="ad.html" role="none" aria-live="polite"></iframe>"#, at: #"[src="ad.html"]"#),
            RuleExample(#"<iframe src="ad.html" role="presentation" tabindex="0"></iframe>"#, at: #"[src="ad.html"]"#),
        ],
        inapplicable: [
            #"<iframe src="map.html" tabindex="-1"></iframe>"#,
            #"<iframe src="map.html" hidden></iframe>"#,
        ]
    )
}
