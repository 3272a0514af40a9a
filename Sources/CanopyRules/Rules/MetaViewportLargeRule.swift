import CanopyHTML

/// Zooming to 200% is the WCAG minimum (meta-viewport checks it); people with low vision often
/// need far more. A `maximum-scale` under 5 keeps mobile browsers from zooming to 500%.
public struct MetaViewportLargeRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "meta-viewport-large",
        impact: .minor,
        tags: ["cat.sensory-and-visual-cues", "best-practice"],
        description: "Checks that <meta name=\"viewport\"> lets people zoom to at least 500%",
        help: "The viewport should let people zoom to 500%",
        howToFix: "Remove maximum-scale from the viewport's content, or set it to 5 or more.",
        enabledByDefault: false,
        rationale: "Limiting zoom below 5x still blocks users who need large text; opt-in because it is a best practice beyond WCAG's 2x."
    )

    public let selector = try! SelectorList(#"meta[name="viewport"]"#)

    /// A frame's own document is not the page (axe's `is-initiator-matches`).
    public var topDocumentOnly: Bool { true }

    /// A `<meta>` is never rendered, yet the browser applies it.
    public var excludesHidden: Bool { false }

    /// The zoom people with low vision need.
    static let largeScale = 5.0

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let content = (element.attribute("content") ?? "").lowercased()
        for item in content.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            // Only the first "=" separates; anything after a second one is ignored, as browsers do.
            let parts = item.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count >= 2 else { continue }
            let key = PlacedText.trimmed(parts[0]), value = PlacedText.trimmed(parts[1])
            // user-scalable is meta-viewport's business: this rule is about how far zoom goes.
            guard !key.isEmpty, !value.isEmpty, key == "maximum-scale" else { continue }
            let number = MetaViewportRule.leadingNumber(value)
            // Negative values are ignored by browsers; values under 2 already fail meta-viewport.
            if let number, number < MetaViewportRule.minimumMaximumScale { continue }
            let unknownWord = number == nil && !["device-width", "device-height"].contains(value)
            if unknownWord || number.map({ $0 < Self.largeScale }) == true {
                return .violation("maximum-scale=\(value) keeps people from zooming to 500%.")
            }
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=5"></head><body></body></html>"#,
            // Left to meta-viewport, which reports them as WCAG failures.
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="user-scalable=no"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=1.5"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=device-width"></head><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width, maximum-scale=2"></head><body></body></html>"#, at: #"[name="viewport"]"#),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="Maximum-Scale = 4.5;"></head><body></body></html>"#, at: #"[name="viewport"]"#),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=huge"></head><body></body></html>"#, at: #"[name="viewport"]"#),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="description" content="maximum-scale=1"></head><body></body></html>"#
        ]
    )
}
