import CanopyAccessibility
import CanopyHTML

/// SVG graphics exposed as images need a text alternative.
public struct SVGImgAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "svg-img-alt",
        impact: .serious,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag111", "section508", "section508.22.a", "TTv5", "TT7.a",
            "EN-301-549", "EN-9.1.1.1", "ACT", "RGAAv4", "RGAA-1.1.5",
        ],
        description: "Checks that SVG elements with an img, graphics-document or graphics-symbol role have a text alternative",
        help: "SVG images need a text alternative",
        howToFix: "Add a non-empty <title> as the first-level child of the SVG element, or an aria-label, aria-labelledby or title attribute.",
        enabledByDefault: true,
        rationale: "An SVG image without a name is silent to screen readers."
    )

    public let selector = try! SelectorList(#"[role="img"], [role="graphics-symbol"], svg[role="graphics-document"]"#)

    /// Only SVG content; HTML elements with role="img" are role-img-alt's.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        SVGNamespace.isSVG(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if hasTitleChild(element) || NamingChecks(page).hasARIALabelOrTitle(element) { return .pass }
        return .violation(
            "The SVG image has no <title> child with text, and no aria-label, aria-labelledby that gives text, or title attribute."
        )
    }

    /// Only a direct `<title>` child names the graphic; one nested deeper belongs to another shape.
    private func hasTitleChild(_ element: Element) -> Bool {
        guard let title = element.children.first(where: { $0.localName == "title" }) else { return false }
        return !title.textContent.allSatisfy(\.isWhitespace)
    }

    public let examples = RuleExamples(
        passing: [
            #"<svg role="img"><title>Sales chart</title><rect width="9" height="9"/></svg>"#,
            #"<svg role="img" aria-label="Sales chart"></svg>"#,
            #"<svg role="graphics-document"><title>Map</title></svg>"#,
            #"<svg><circle role="graphics-symbol" r="4" title="Dot"/></svg>"#,
        ],
        violating: [
            RuleExample(#"<svg role="img"><rect width="9" height="9"/></svg>"#, at: "svg"),
            RuleExample(#"<svg role="img"><title> </title></svg>"#, at: "svg"),
            RuleExample(#"<svg role="img"><g><title>Nested too deep</title></g></svg>"#, at: "svg"),
            RuleExample(#"<svg role="img"><desc>Only a description</desc></svg>"#, at: "svg"),
        ],
        inapplicable: [
            #"<svg><circle r="4"/></svg>"#,
            #"<svg role="img" aria-hidden="true"></svg>"#,
            #"<div role="img"></div>"#,
        ]
    )
}
