import CanopyAccessibility
import CanopyHTML

/// A field with several `<label>` elements is announced differently by different screen readers
/// (some read the first, some all, some the last), so users may not hear the label they see.
public struct FormFieldMultipleLabelsRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "form-field-multiple-labels",
        impact: .moderate,
        tags: [
            "cat.forms", "wcag2a", "wcag332", "TTv5", "TT5.c", "EN-301-549", "EN-9.3.3.2", "RGAAv4", "RGAA-11.2.1",
        ],
        description: "Checks that a form field is not labelled by more than one <label> element",
        help: "Form fields should not have several <label> elements",
        howToFix: "Keep one <label> per field: merge the texts, or turn the extra label into a description (aria-describedby)."
    )

    public let selector = try! SelectorList("input, select, textarea")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        OptInAFormFields.takesLabel(element)
    }

    /// axe never fails a field for this: several labels need a person to hear how they are read.
    /// They are fine only when a single one reaches assistive technology and aria-labelledby
    /// names that one explicitly.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        // Labels nobody can see do not count; a wrapping label always does.
        var labels = model.explicitLabels(of: element).filter { !model.isNotRendered($0) && !model.isVisibilityHidden($0) }
        for ancestor in element.ancestors where ancestor.isHTML && ancestor.localName == "label" && !labels.contains(ancestor) {
            labels.append(ancestor)
        }
        guard labels.count > 1 else { return .pass }
        let heard = labels.filter { !model.isHiddenFromAssistiveTechnology($0) }
        if heard.count == 1, let only = heard.first, let id = only.id, !id.isEmpty,
            element.attribute("aria-labelledby")?.split(whereSeparator: \.isWhitespace).contains(Substring(id)) == true,
            page.document.element(withID: id) == only
        {
            return .pass
        }
        return .incomplete("The field has \(labels.count) <label> elements; check how screen readers announce it.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<label for="city">City</label><input id="city">"#,
            #"<label>Comments <textarea></textarea></label>"#,
            #"<label for="zip" id="zl">Postcode</label><label for="zip" aria-hidden="true">(5 digits)</label><input id="zip" aria-labelledby="zl">"#,
        ],
        violating: [],
        incomplete: [
            #"<label for="city">City</label><label for="city">Town</label><input id="city">"#,
            #"<label for="age">Age</label><label>Age <input id="age"></label>"#,
        ],
        inapplicable: [
            #"<input type="submit" value="Send">"#,
            #"<label for="h">Hidden</label><input type="hidden" id="h">"#,
        ]
    )
}
