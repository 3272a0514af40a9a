import CanopyAccessibility
import CanopyHTML

/// `role="text"` makes some screen readers read an element as one flat string; a focusable
/// widget inside it then loses its role, so keyboard users land on something unannounced.
public struct ARIATextRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-text",
        impact: .serious,
        tags: ["cat.aria", "best-practice"],
        description: "Checks that elements with role=\"text\" contain nothing focusable",
        help: "role=\"text\" should not contain focusable elements",
        howToFix: "Remove role=\"text\" from elements that contain links, buttons or other focusable widgets, or move those widgets out.",
        enabledByDefault: false,
        rationale: "role=text hides the roles inside it; focusable content within it is announced without its purpose. Opt-in, as in axe-core."
    )

    public let selector = try! SelectorList("[role=text]")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard let widget = firstFocusableWidget(in: element, model: page.accessibility) else { return .pass }
        return .violation("A focusable <\(widget.localName)> inside role=\"text\" would not be announced as what it is.")
    }

    /// Widgets that take focus, in document order. A presentational role on a focusable element is
    /// ignored (its own role wins), and the search goes on inside widgets that do not take focus.
    private func firstFocusableWidget(in element: Element, model: AccessibilityModel) -> Element? {
        for child in element.children {
            let role = model.role(of: child, options: .axeDefault).flatMap(ARIARoles.role(named:))
            if role?.type == "widget", model.isFocusable(child) { return child }
            if let nested = firstFocusableWidget(in: child, model: model) { return nested }
        }
        return nil
    }

    public let examples = RuleExamples(
        passing: [
            #"<h1><span role="text">Fresh coffee, <br>every morning</span></h1>"#,
            #"<p role="text">Call <span tabindex="-1">us</span> today</p>"#,
        ],
        violating: [
            RuleExample(#"<div role="text">Read the <a href="/terms">terms</a> first</div>"#, at: "div"),
            RuleExample(#"<p role="text"><button tabindex="-1">Close</button></p>"#, at: "p"),
            RuleExample(#"<div role="text"><a href="/terms" role="none">terms</a></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<div role="textbox" contenteditable="true"></div>"#,
            #"<span role="text" hidden><a href="/">Home</a></span>"#,
        ]
    )
}
