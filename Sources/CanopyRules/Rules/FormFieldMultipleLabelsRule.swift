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
        howToFix: "Keep one <label> per field: merge the texts, or turn the extra label into a description (aria-describedby).",
        enabledByDefault: false,
        rationale: "Several labels on one field are read inconsistently across screen readers; opt-in because it often needs review."
    )

    public let selector = try! SelectorList("input, select, textarea")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        LabelledFormFields.takesLabel(element)
    }

    /// axe never fails a field for this: several labels need a person to hear how they are read.
    /// They are fine only when a single one reaches assistive technology and aria-labelledby
    /// names that one explicitly.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        // Labels nobody can see do not count; a wrapping label always does.
        let explicit = element.id.flatMap { $0.isEmpty ? nil : Self.visibleLabels(on: page)[$0] }
        var count = explicit?.positions.count ?? 0
        var heard = explicit?.heard ?? []
        for ancestor in element.ancestors where ancestor.isHTML && ancestor.localName == "label" {
            guard explicit?.positions.contains(ancestor.position) != true else { continue }
            count += 1
            if !model.isHiddenFromAssistiveTechnology(ancestor) { heard.append(ancestor) }
        }
        guard count > 1 else { return .pass }
        if heard.count == 1, let only = heard.first, let id = only.id, !id.isEmpty,
            element.attribute("aria-labelledby")?.split(whereSeparator: \.isWhitespace).contains(Substring(id)) == true,
            page.document.element(withID: id) == only
        {
            return .pass
        }
        return .incomplete("The field has \(count) <label> elements; check how screen readers announce it.")
    }

    /// The rendered, visible `<label for>` elements of each id, and the first two of them that
    /// reach assistive technology (enough to tell one from several). Once per page: fields that
    /// share an id would each filter all their labels (fields × labels).
    private static func visibleLabels(on page: PageContext) -> [String: (positions: Set<Int>, heard: [Element])] {
        page.memo("form-field-multiple-labels.visible") {
            let model = page.accessibility
            var byID: [String: (positions: Set<Int>, heard: [Element])] = [:]
            for label in page.document.elements where label.isHTML && label.localName == "label" {
                guard let id = label.attribute("for"), !model.isNotRendered(label), !model.isVisibilityHidden(label)
                else { continue }
                byID[id, default: ([], [])].positions.insert(label.position)
                if byID[id]!.heard.count < 2, !model.isHiddenFromAssistiveTechnology(label) { byID[id]!.heard.append(label) }
            }
            return byID
        }
    }

    public let examples = RuleExamples(
        passing: [
            #"<label for="city">City</label><input id="city">"#,
            #"<label>Comments <textarea></textarea></label>"#,
            #"<label for="zip" id="zl">Postcode</label><label for="zip" aria-hidden="true">(5 digits)</label><input id="zip" aria-labelledby="zl">"#,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<label for="city">City</label><label for="city">Town</label><input id="city">"#, at: "#city"),
            RuleExample(#"<label for="age">Age</label><label>Age <input id="age"></label>"#, at: "#age"),
        ],
        inapplicable: [
            #"<input type="submit" value="Send">"#,
            #"<label for="h">Hidden</label><input type="hidden" id="h">"#,
        ]
    )
}
