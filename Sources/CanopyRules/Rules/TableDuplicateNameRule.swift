import CanopyAccessibility
import CanopyHTML

/// A table's `<caption>` and its `summary` attribute are both read out; when they say the same,
/// screen reader users hear the same text twice, and the summary adds nothing about how the
/// table is organised, which is what it is for.
public struct TableDuplicateNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "table-duplicate-name",
        impact: .minor,
        tags: ["cat.tables", "best-practice", "RGAAv4", "RGAA-5.2.1"],
        description: "Checks that a table's summary attribute does not repeat its <caption>",
        help: "A table's summary should not repeat its caption",
        howToFix: "Keep the caption as the table's title and make the summary explain how the table is organised, or drop the summary.",
        enabledByDefault: false,
        rationale: "A summary repeating the caption is read twice; opt-in because summary is obsolete."
    )

    public let selector = try! SelectorList("table")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard let summary = element.attribute("summary"), !summary.isEmpty,
            let caption = element.children.first(where: { $0.isHTML && $0.localName == "caption" })
        else { return .pass }
        // The summary is compared as written, the caption as it is announced (its accessible text).
        if summary.lowercased() == Self.announcedText(of: caption, on: page).lowercased() {
            return .violation("The summary attribute repeats the caption \"\(summary)\".")
        }
        return .pass
    }

    private static func announcedText(of caption: Element, on page: PageContext) -> String {
        let name = page.accessibility.accessibleName(of: caption)
        return name.isEmpty ? page.accessibility.subtreeText(of: caption) : name
    }

    public let examples = RuleExamples(
        passing: [
            #"<table><caption>Teas</caption><tr><th>Tea</th></tr></table>"#,
            #"<table summary="One row per tea, with its price"><caption>Teas</caption><tr><th>Tea</th></tr></table>"#,
            #"<table summary=""><caption></caption><tr><th>Tea</th></tr></table>"#,
            #"<table summary="Teas"><tr><th>Tea</th></tr></table>"#,
        ],
        violating: [
            RuleExample(#"<table summary="Teas"><caption>Teas</caption><tr><th>Tea</th></tr></table>"#, at: "table"),
            RuleExample(#"<table summary="our teas"><caption>  Our   <b>Teas</b> </caption><tr><th>Tea</th></tr></table>"#, at: "table"),
        ],
        inapplicable: [
            #"<p>No table</p>"#,
            #"<table hidden summary="Teas"><caption>Teas</caption></table>"#,
        ]
    )
}
