import CanopyAccessibility
import CanopyHTML

/// A level-one heading marks where the main content starts; screen reader users jump to it.
public struct PageHasHeadingOneRule: SatisfiedByAnyFrameRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "page-has-heading-one",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that the page, or one of its frames, has a level-one heading",
        help: "Pages should have a level-one heading",
        howToFix: "Add an <h1> (or role=\"heading\" with aria-level=\"1\") at the start of the main content that says what the page is about.",
        enabledByDefault: true,
        rationale: "A level-one heading tells users where the main content starts and what it is about."
    )

    /// The root element: the rule judges the page as a whole.
    public let selector = try! SelectorList("html:root")

    /// What counts as level one (as axe counts it): an `<h1>` without role or aria-level, any
    /// `<hN>` without role but with aria-level="1", or role=heading with aria-level="1".
    private let levelOneHeadings = try! SelectorList(
        #"h1:not([role], [aria-level]), :is(h1, h2, h3, h4, h5, h6):not([role])[aria-level="1"], [role=heading][aria-level="1"]"#
    )
    private let frames = try! SelectorList("iframe, frame")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        // While a dialog is open, the rest of the page is out of reach, so its headings do not matter.
        if hasOpenModal(page) { return .pass }
        if page.elements(matching: levelOneHeadings, inside: element).contains(where: { !model.isHiddenFromAssistiveTechnology($0) }) {
            return .pass
        }
        if page.elements(matching: frames, inside: element).contains(where: { !model.isHiddenFromAssistiveTechnology($0) }) {
            return .incomplete("The page has no level-one heading, but one of its frames, which static HTML does not show, may have one.")
        }
        return .violation("The page has no level-one heading that assistive technology can reach.")
    }

    /// What axe takes for "definitely a modal": a shown `<dialog>`, role=dialog, or
    /// aria-modal="true". (axe also guesses modals from layout, which static HTML cannot see.)
    private let modalCandidates = try! SelectorList("dialog, [role=dialog], [aria-modal=true]")

    private func hasOpenModal(_ page: PageContext) -> Bool {
        let model = page.accessibility
        return page.elements(matching: modalCandidates).contains { candidate in
            !model.isNotRendered(candidate) && !model.isVisibilityHidden(candidate) && !Self.isInClosedDialog(candidate)
        }
    }

    /// A `<dialog>` without `open` is not rendered (the UA style sheet hides it), nor is its content.
    private static func isInClosedDialog(_ element: Element) -> Bool {
        var current: Element? = element
        while let node = current {
            if node.isHTML && node.localName == "dialog" && !node.hasAttribute("open") { return true }
            current = node.parent
        }
        return false
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>Tea</title></head><body><h1>Tea Garden</h1></body></html>"#,
            #"<html><body><div role="heading" aria-level="1">Tea Garden</div></body></html>"#,
            #"<html><body><h2 aria-level="1">Tea Garden</h2></body></html>"#,
            #"<html><body><div role="dialog" aria-modal="true">Sign in</div></body></html>"#,
            #"<html><body><dialog open>Sign in</dialog></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>Tea</title></head><body><h2>Tea Garden</h2></body></html>"#, at: "html"),
            RuleExample(#"<html><body><h1 hidden>Tea Garden</h1></body></html>"#, at: "html"),
            RuleExample(#"<html><body><h1 aria-level="2">Tea Garden</h1><h1 role="alert">Sale</h1></body></html>"#, at: "html"),
            RuleExample(#"<html><body><div aria-hidden="true"><h1>Tea Garden</h1></div></body></html>"#, at: "html"),
            RuleExample(#"<html><body><dialog><p>A closed dialog is no modal</p></dialog></body></html>"#, at: "html"),
        ],
        incomplete: [
            RuleExample(#"<html><body><p>Intro</p><iframe src="content.html" title="Content"></iframe></body></html>"#, at: "html"),
        ]
    )
}
