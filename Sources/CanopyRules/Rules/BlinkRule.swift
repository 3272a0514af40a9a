import CanopyAccessibility
import CanopyHTML

/// `<blink>` makes text flash on and off with no way to stop it, which distracts people with
/// attention disorders and makes the text hard to read (WCAG 2.2.2 Pause, Stop, Hide).
public struct BlinkRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "blink",
        impact: .serious,
        tags: [
            "cat.time-and-media", "wcag2a", "wcag222", "section508", "section508.22.j", "TTv5", "TT2.b", "EN-301-549",
            "EN-9.2.2.2", "RGAAv4", "RGAA-13.8.1",
        ],
        description: "Checks that the page shows no <blink> element",
        help: "Blinking text made with <blink> must not be used",
        howToFix: "Remove the <blink> element and mark the text up with ordinary elements; if it must stand out, use styling that does not flash.",
        enabledByDefault: false,
        rationale: "Blinking text distracts and can be impossible to read; opt-in because <blink> has vanished from modern pages."
    )

    public let selector = try! SelectorList("blink")

    /// Blinking distracts whoever sees it, whatever assistive technology is told.
    public var excludesHidden: Bool { false }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        MovingContent.outcome(for: element, on: page, named: "<blink>")
    }

    public let examples = RuleExamples(
        passing: [
            #"<p style="display: none"><blink>Sale!</blink></p>"#,
            #"<blink hidden>Sale!</blink>"#,
            #"<blink style="position: absolute; left: -10000px">Sale!</blink>"#,
            #"<blink style="position: absolute; clip: rect(0 0 0 0)">Sale!</blink>"#,
        ],
        violating: [
            RuleExample(#"<p><blink>Sale!</blink></p>"#, at: "blink"),
            // Hidden from screen readers only: it still flashes on screen.
            RuleExample(#"<p aria-hidden="true"><blink>Sale!</blink></p>"#, at: "blink"),
        ],
        incomplete: [
            RuleExample(#"<div style="position: relative; top: -20px"><blink>Sale!</blink></div>"#, at: "blink")
        ],
        inapplicable: [
            #"<p><strong>Sale!</strong></p>"#
        ]
    )
}
