import CanopyAccessibility
import CanopyHTML
import Foundation

/// Braille-only labels and role descriptions reach braille displays alone; speech users get
/// nothing unless the element also has an ordinary name or role description.
public struct ARIABrailleEquivalentRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-braille-equivalent",
        impact: .serious,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2"],
        description: "Checks that aria-braillelabel and aria-brailleroledescription come with a non-braille equivalent",
        help: "Braille ARIA attributes need a non-braille equivalent",
        howToFix: "Give an element with aria-braillelabel an accessible name (text, aria-label, ...), and one with aria-brailleroledescription an aria-roledescription.",
        // axe asks for review: an empty name may be filled in by script, and a person should judge.
        reviewOnFail: true,
        enabledByDefault: false,
        rationale: "A braille-only label leaves speech users without one; opt-in because few pages use braille attributes at all."
    )

    public let selector = try! SelectorList("[aria-brailleroledescription], [aria-braillelabel]")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if Self.hasText(element.attribute("aria-braillelabel")), page.accessibility.accessibleName(of: element).isEmpty {
            return .violation("aria-braillelabel is set but the element has no accessible name for speech.")
        }
        if Self.hasText(element.attribute("aria-brailleroledescription")), !Self.hasText(element.attribute("aria-roledescription")) {
            return .violation("aria-brailleroledescription is set but there is no aria-roledescription for speech.")
        }
        return .pass
    }

    private static func hasText(_ value: String?) -> Bool {
        !(value?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true)
    }

    public let examples = RuleExamples(
        passing: [
            #"<button aria-braillelabel="snd">Send</button>"#,
            #"<section aria-roledescription="slide" aria-brailleroledescription="sld" aria-label="Intro"></section>"#,
            #"<button aria-braillelabel="">Send</button>"#,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<button aria-braillelabel="snd"></button>"#, at: "button"),
            RuleExample(#"<section aria-brailleroledescription="sld" aria-label="Intro"></section>"#, at: #"[aria-label="Intro"]"#),
        ],
        inapplicable: [
            #"<button aria-label="Send"></button>"#,
            #"<button aria-braillelabel="snd" hidden></button>"#,
        ]
    )
}
