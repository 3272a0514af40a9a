import CanopyAccessibility
import CanopyHTML
import Foundation

/// An id that aria-labelledby, aria-describedby, `<label for>` and the like point at must be
/// unique: with two candidates, browsers take the first, which may not be the one meant.
public struct DuplicateIDARIARule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "duplicate-id-aria",
        impact: .critical,
        tags: ["cat.parsing", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-8.2.1"],
        description: "Checks that every id referenced by an ARIA attribute or a <label for> is used only once",
        help: "Ids that ARIA attributes and labels point at must be unique",
        howToFix: "Rename the duplicate so that the id is used once, and check that the references point at the element meant.",
        // axe asks for review: whether the reference picks the intended element needs a person.
        reviewOnFail: true,
        enabledByDefault: false,
        rationale: "A repeated id referenced by ARIA or a label makes the reference point at the wrong element; opt-in as in axe-core."
    )

    public let selector = try! SelectorList("[id]")

    /// Hidden elements count too: a reference may point at hidden text on purpose.
    public var excludesHidden: Bool { false }

    /// Elements whose id something refers to; of several elements sharing an id, only the first
    /// is reported, so that one duplicate gives one finding.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let id = element.id, Self.referencedIDs(on: page).contains(id) else { return false }
        return page.document.element(withID: id) == element
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let id = (element.id ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !id.isEmpty else { return .pass }
        let others = page.document.elements(withID: id).filter { $0 != element }
        if others.isEmpty { return .pass }
        return .violation("The id \"\(id)\" is referenced and used by \(others.count + 1) elements.")
    }

    /// Every id named by an ID-reference ARIA attribute or by a `<label for>`, once per page.
    private static func referencedIDs(on page: PageContext) -> Set<String> {
        page.memo("duplicate-id-aria.referencedIDs") {
            let referenceAttributes = ARIAAttributes.all
                .filter { $0.valueType == .idReference || $0.valueType == .idReferenceList }.map(\.name)
            var ids: Set<String> = []
            for element in page.document.elements {
                for attribute in referenceAttributes {
                    guard let value = element.attribute(attribute) else { continue }
                    ids.formUnion(value.split(whereSeparator: \.isWhitespace).map(String.init))
                }
                if element.isHTML, element.localName == "label", let target = element.attribute("for") {
                    ids.insert(target.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            return ids
        }
    }

    public let examples = RuleExamples(
        passing: [
            #"<span id="hint">Eight characters</span><input aria-describedby="hint">"#,
            #"<label for="email">Email</label><input id="email">"#,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<span id="hint">Eight characters</span><p id="hint">Other</p><input aria-describedby="hint">"#, at: "span"),
            RuleExample(#"<label for="email">Email</label><input id="email"><input id="email">"#, at: "body > input:nth-child(2)"),
        ],
        inapplicable: [
            #"<p id="intro">One</p><p id="intro">Two</p>"#,
            #"<input id="name">"#,
        ]
    )
}
