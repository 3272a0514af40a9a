import CanopyAccessibility
import CanopyHTML

/// The contentinfo landmark holds the site-wide footer (copyright, contact, legal links). Put
/// inside another landmark, it is announced as part of that one and is hard to find.
public struct LandmarkContentinfoIsTopLevelRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-contentinfo-is-top-level",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the contentinfo landmark is not inside another landmark",
        help: "The contentinfo landmark should not be inside another landmark",
        howToFix: "Move the site footer (<footer> or role=\"contentinfo\") out of the landmark that contains it, to the top level of the page body.",
        enabledByDefault: false,
        rationale: "A contentinfo inside another landmark is not the page's footer any more; opt-in as in axe-core."
    )

    public let selector = try! SelectorList(#"footer:not([role]), [role=contentinfo]"#)

    public func applies(to element: Element, on page: PageContext) -> Bool {
        TopLevelLandmark.hasBodyContext(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        TopLevelLandmark.outcome(for: element, on: page, role: "contentinfo")
    }

    public let examples = RuleExamples(
        passing: [
            #"<main><p>Menu</p></main><footer>© Tea Garden</footer>"#,
            #"<div class="page"><div role="contentinfo">© Tea Garden</div></div>"#,
            #"<section><div role="contentinfo">An unnamed section is no landmark</div></section>"#,
        ],
        violating: [
            RuleExample(#"<div role="main"><footer>© Tea Garden</footer></div>"#, at: "footer"),
            RuleExample(#"<aside aria-label="Related"><div role="contentinfo">© Tea Garden</div></aside>"#, at: "div"),
            RuleExample(#"<header><div role="contentinfo">© Tea Garden</div></header>"#, at: "div"),
            RuleExample(#"<div role="region" aria-label="Legal"><footer>© Tea Garden</footer></div>"#, at: "footer"),
        ],
        inapplicable: [
            // Footers of articles, sections, asides, navigation and main are no contentinfo.
            #"<article><footer>Posted Monday</footer></article>"#,
            #"<aside><footer>Related</footer></aside>"#,
            #"<main><div><footer>Menu updated daily</footer></div></main>"#,
            #"<footer role="presentation">© Tea Garden</footer>"#,
            #"<div role="main"><footer aria-hidden="true">© Tea Garden</footer></div>"#,
        ]
    )
}
