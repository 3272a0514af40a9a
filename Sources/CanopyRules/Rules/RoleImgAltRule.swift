import CanopyAccessibility
import CanopyHTML

/// An element presented as an image by `role="img"` needs a text alternative from ARIA or `title`.
public struct RoleImgAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "role-img-alt",
        impact: .serious,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag111", "section508", "section508.22.a", "TTv5", "TT7.a",
            "EN-301-549", "EN-9.1.1.1", "ACT", "RGAAv4", "RGAA-1.1.1",
        ],
        description: "Checks that HTML elements with role=\"img\" have a text alternative",
        help: "Elements with role=\"img\" need a text alternative",
        howToFix: "Describe the image with aria-label, aria-labelledby or title; its content is not read as its name.",
        enabledByDefault: true,
        rationale: "An element with role=img and no name is an image a screen reader cannot describe."
    )

    /// Native images and SVG have their own rules.
    public let selector = try! SelectorList("[role='img']:not(img, area, input, object)")

    /// SVG content is left to svg-img-alt.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        !SVGNamespace.isSVG(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if NamingChecks(page).hasARIALabelOrTitle(element) { return .pass }
        return .violation("The element has role=\"img\" but no aria-label, aria-labelledby that gives text, or title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="img" aria-label="Five stars"></div>"#,
            #"<span id="l">Five stars</span><div role="img" aria-labelledby="l"></div>"#,
            #"<span id="l" hidden>Five stars</span><div role="img" aria-labelledby="l"></div>"#,
            #"<div role="img" title="Five stars"></div>"#,
        ],
        violating: [
            RuleExample(#"<div role="img"></div>"#, at: "div"),
            RuleExample(#"<div role="img">★★★★★</div>"#, at: "div"),
            RuleExample(#"<div role="img" alt="Five stars"></div>"#, at: #"[alt="Five stars"]"#),
            RuleExample(#"<div role="img" aria-label=" " title=""></div>"#, at: #"[aria-label=" "]"#),
        ],
        inapplicable: [
            #"<img role="img" src="a.png">"#,
            #"<svg role="img"><title>Chart</title></svg>"#,
            #"<div role="img" hidden></div>"#,
        ]
    )
}

/// Whether an element is SVG content: an `<svg>` element or anything inside one.
enum SVGNamespace {
    static func isSVG(_ element: Element) -> Bool {
        element.localName == "svg" || element.ancestors.contains { $0.localName == "svg" }
    }
}
