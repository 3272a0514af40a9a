import CanopyAccessibility
import CanopyHTML
import Foundation

/// A `title` or `aria-describedby` is not a label: the title shows only on mouse hover, and a
/// description is read as extra information, not as what the field is.
public struct LabelTitleOnlyRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "label-title-only",
        impact: .serious,
        tags: ["cat.forms", "best-practice"],
        description: "Checks that form fields are not labelled only by their title or aria-describedby",
        help: "Form fields should have a visible label",
        howToFix: "Add a <label> for the field (or aria-labelledby pointing at visible text); keep title and aria-describedby for extra hints.",
        enabledByDefault: false,
        rationale: "A title or description is not a label: it is not always read and never visible; opt-in as in axe-core."
    )

    public let selector = try! SelectorList("input, select, textarea")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        LabelledFormFields.takesLabel(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let hasTitle = model.title(of: element) != nil
        let hasDescription = !(element.attribute("aria-describedby") ?? "").isEmpty
        guard hasTitle || hasDescription, !hasLabel(element, page: page) else { return .pass }
        return .violation(
            "The field's only label is its \(hasTitle ? "title" : "aria-describedby"), which is not shown as a label."
        )
    }

    /// aria-labelledby text (even from hidden elements, as accname reads it), aria-label, the
    /// first `<label for>`, or the nearest wrapping `<label>` with text.
    private func hasLabel(_ element: Element, page: PageContext) -> Bool {
        let model = page.accessibility, checks = NamingChecks(page)
        if model.ariaLabelledByText(of: element) != nil || model.ariaLabel(of: element) != nil { return true }
        if let explicit = model.explicitLabels(of: element).first, !checks.labelText(of: explicit, excluding: element).isEmpty {
            return true
        }
        guard let wrapping = model.wrappingLabel(of: element) else { return false }
        return !checks.labelText(of: wrapping, excluding: element).isEmpty
    }

    public let examples = RuleExamples(
        passing: [
            #"<label for="q">Search</label><input id="q" title="Search the shop">"#,
            #"<input aria-label="Search" aria-describedby="tip"><p id="tip">Try a colour</p>"#,
            #"<label>Name <input></label>"#,
        ],
        violating: [
            RuleExample(#"<input type="text" title="Search">"#, at: #"[title="Search"]"#),
            RuleExample(#"<select title="Country"><option>France</option></select>"#, at: #"[title="Country"]"#),
            RuleExample(#"<input aria-describedby="tip"><p id="tip">Your email</p>"#, at: "input"),
        ],
        inapplicable: [
            #"<input type="button" value="Go" title="Go">"#,
            #"<input title="Search" hidden>"#,
        ]
    )
}
