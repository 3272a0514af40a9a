import CanopyAccessibility
import CanopyHTML

/// `<marquee>` scrolls its content with no control to pause it: moving text is hard or
/// impossible to read for many people and distracts from the rest (WCAG 2.2.2 Pause, Stop, Hide).
public struct MarqueeRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "marquee",
        impact: .serious,
        tags: [
            "cat.parsing", "wcag2a", "wcag222", "TTv5", "TT2.b", "EN-301-549", "EN-9.2.2.2", "RGAAv4", "RGAA-13.8.1",
        ],
        description: "Checks that the page shows no <marquee> element",
        help: "Scrolling text made with <marquee> must not be used",
        howToFix: "Replace the <marquee> with static content; if the content must move, give people a control to pause or stop it.",
        enabledByDefault: false,
        rationale: "Moving text is hard to read and to stop; opt-in because <marquee> has vanished from modern pages."
    )

    public let selector = try! SelectorList("marquee")

    /// Moving content distracts whoever sees it, whatever assistive technology is told.
    public var excludesHidden: Bool { false }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        MovingContent.outcome(for: element, on: page, named: "<marquee>")
    }

    public let examples = RuleExamples(
        passing: [
            #"<marquee style="display: none">Today only: free delivery</marquee>"#,
            #"<div style="visibility: hidden"><marquee>Today only: free delivery</marquee></div>"#,
            #"<marquee style="position: absolute; top: -2000px">Today only: free delivery</marquee>"#,
            #"<div style="opacity: 0"><marquee>Today only: free delivery</marquee></div>"#,
        ],
        violating: [
            RuleExample(#"<marquee>Today only: free delivery</marquee>"#, at: "marquee"),
            RuleExample(#"<header><marquee behavior="alternate" aria-hidden="true">Today only</marquee></header>"#, at: "marquee"),
        ],
        incomplete: [
            RuleExample(#"<marquee style="transform: translateX(-50%)">Today only: free delivery</marquee>"#, at: "marquee")
        ],
        inapplicable: [
            #"<p>Today only: free delivery</p>"#
        ]
    )
}
