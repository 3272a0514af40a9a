import CanopyHTML

/// `<meta http-equiv="refresh">` must not reload or redirect the page after a delay: people who
/// read slowly or use assistive technology lose their place, or the content, before they are done.
public struct MetaRefreshRule: RefreshDelayRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "meta-refresh",
        impact: .critical,
        tags: [
            "cat.time-and-media", "wcag2a", "wcag221", "TTv5", "TT8.a", "EN-301-549", "EN-9.2.2.1", "RGAAv4", "RGAA-13.1.2",
        ],
        description: "Checks that <meta http-equiv=\"refresh\"> does not refresh or redirect the page after a delay",
        help: "Pages must not refresh or redirect on a timer of less than 20 hours",
        howToFix: "Remove the timed refresh; redirect on the server (HTTP 301/302), or let people reload or continue when they choose. An immediate redirect (a delay of 0) is fine.",
        enabledByDefault: true,
        rationale: "A timed refresh or redirect moves users on before they have read the page."
    )

    /// 20 hours, in seconds: a refresh that far off interrupts nobody (WCAG 2.2.1's exception).
    public let longestInterruptingDelay: Int? = 72_000

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>Moved</title><meta http-equiv="refresh" content="0; url=https://example.com/new"></head><body><p>Moved</p></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Daily</title><meta http-equiv="refresh" content="86400"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Now</title><meta http-equiv="Refresh" content=" 0;URL='/next'"></head><body></body></html>"#,
            // Browsers act on the first refresh only: the later one never happens.
            #"<!DOCTYPE html><html lang="en"><head><title>First</title><meta http-equiv="refresh" content="0; /next"><meta http-equiv="refresh" content="5; /later"></head><body></body></html>"#,
            // The fraction is read and dropped: 0.5 refreshes at once.
            #"<!DOCTYPE html><html lang="en"><head><title>Half</title><meta http-equiv="refresh" content="0.5,/next"></head><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>News</title><meta http-equiv="refresh" content="300"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Moved</title><meta http-equiv="refresh" content="5; url=/new"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Edge</title><meta http-equiv="refresh" content="72000"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Two</title><meta http-equiv="refresh" content="0: /broken"><meta id="acted-on" http-equiv="refresh" content="5; /next"></head><body></body></html>"#, at: "#acted-on"),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html lang="en"><head><title>No refresh</title><meta charset="utf-8"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>No content</title><meta http-equiv="refresh"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Signed</title><meta http-equiv="refresh" content="+5; /next"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Colon</title><meta http-equiv="refresh" content="0: /next"></head><body></body></html>"#,
        ]
    )
}
