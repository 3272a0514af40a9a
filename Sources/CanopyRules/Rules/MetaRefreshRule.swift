import CanopyHTML

/// `<meta http-equiv="refresh">` must not reload or redirect the page after a delay: people who
/// read slowly or use assistive technology lose their place, or the content, before they are done.
public struct MetaRefreshRule: Rule {
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

    public let selector = try! SelectorList(#"meta[http-equiv="refresh"][content]"#)

    /// A `<meta>` is never rendered, yet its refresh still happens.
    public var excludesHidden: Bool { false }

    /// Delays above this (20 hours, in seconds) are long enough that nobody is interrupted (WCAG 2.2.1's exception).
    static let longestInterruptingDelay = 72_000.0

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard let delay = Self.delay(in: element.attribute("content") ?? "") else { return .pass }
        if delay <= 0 || delay > Self.longestInterruptingDelay { return .pass }
        return .violation("The page refreshes or redirects after \(Self.format(delay)) seconds.")
    }

    /// The delay at the start of `content` ("300; url=/next"): digits and dots up to the first
    /// separator. Nil when the first token is not such a number, in which case browsers ignore it.
    static func delay(in content: String) -> Double? {
        let trimmed = content.drop(while: \.isWhitespace)
        let token = trimmed.prefix { !($0 == ";" || $0 == "," || $0.isWhitespace) }
        guard !token.isEmpty, token.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }) else { return nil }
        // Like parseFloat: digits, then at most one fractional part ("1.5.2" reads as 1.5).
        let parts = token.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        let number = parts.count > 1 ? "\(parts[0]).\(parts[1])" : String(parts[0])
        return Double(number.hasPrefix(".") ? "0" + number : number) ?? 0
    }

    static func format(_ delay: Double) -> String {
        delay == delay.rounded() ? String(Int(delay)) : String(delay)
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>Moved</title><meta http-equiv="refresh" content="0; url=https://example.com/new"></head><body><p>Moved</p></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Daily</title><meta http-equiv="refresh" content="86400"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Odd</title><meta http-equiv="refresh" content="soon"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>Now</title><meta http-equiv="Refresh" content=" 0;URL='/next'"></head><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>News</title><meta http-equiv="refresh" content="300"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Moved</title><meta http-equiv="refresh" content="5; url=/new"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Edge</title><meta http-equiv="refresh" content="72000"></head><body></body></html>"#, at: "meta"),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Half</title><meta http-equiv="refresh" content="0.5,/next"></head><body></body></html>"#, at: "meta"),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html lang="en"><head><title>No refresh</title><meta charset="utf-8"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>No content</title><meta http-equiv="refresh"></head><body></body></html>"#,
        ]
    )
}
