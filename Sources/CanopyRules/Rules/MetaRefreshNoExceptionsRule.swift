import CanopyHTML

/// The stricter reading of timed refreshes (WCAG 2.2.4 Interruptions and 3.2.5 Change on
/// Request, level AAA): a page must not refresh or redirect on a timer at all, however long.
public struct MetaRefreshNoExceptionsRule: RefreshDelayRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "meta-refresh-no-exceptions",
        impact: .minor,
        tags: ["cat.time-and-media", "wcag2aaa", "wcag224", "wcag325"],
        description: "Checks that <meta http-equiv=\"refresh\"> does not refresh or redirect the page after any delay",
        help: "Pages must not refresh or redirect on a timer",
        howToFix: "Remove the timed refresh; redirect on the server, or offer a link or button that reloads or moves on when the reader chooses.",
        enabledByDefault: false,
        rationale: "Opt-in, as in axe-core: level AAA allows no timed refresh at all, not even one 20 hours away."
    )

    /// No delay is long enough.
    public let longestInterruptingDelay: Int? = nil

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>Moved</title><meta http-equiv="refresh" content="0; url=/new"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>First</title><meta http-equiv="refresh" content="0; /new"><meta http-equiv="refresh" content="30; /later"></head><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Daily</title><meta http-equiv="refresh" content="86400"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Soon</title><meta http-equiv="refresh" content="30; url=/next"></head><body></body></html>"#, at: "meta"),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html lang="en"><head><title>None</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Not a number</title><meta http-equiv="refresh" content="soon; url=/next"></head><body></body></html>"#,
        ]
    )
}
