import CanopyAccessibility
import CanopyHTML

/// The `<summary>` that opens a `<details>` is a button, and must say what it reveals.
public struct SummaryNameRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "summary-name",
        impact: .serious,
        tags: [
            "cat.name-role-value", "wcag2a", "wcag412", "section508", "section508.22.a", "TTv5", "TT6.a",
            "EN-301-549", "EN-9.4.1.2",
        ],
        description: "Checks that the interactive <summary> of each <details> has an accessible name",
        help: "Summary elements need an accessible name",
        howToFix: "Put text in the <summary>, or give it an aria-label, aria-labelledby or title.",
        enabledByDefault: true,
        rationale: "An interactive <summary> without a name is a disclosure control announced without its purpose.",
        // ACT's "Summary element has non-empty accessible name": the summary for its parent
        // details needs a non-empty name (WCAG 4.1.2). axe-core names no ACT rule here.
        actRules: ["2t702h"]
    )

    public let selector = try! SelectorList("summary")

    /// Only the first `<summary>` of a `<details>` that has something to reveal is interactive.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let details = element.parent, details.isHTML, details.localName == "details",
            details.children.first(where: { $0.localName == "summary" }) == element
        else { return false }
        return hasContentBesidesSummary(details, summary: element)
    }

    private func hasContentBesidesSummary(_ details: Element, summary: Element) -> Bool {
        details.childNodes.contains { (node: Node) -> Bool in
            switch node.kind {
            case .text: return !node.text.allSatisfy(\.isWhitespace)
            case .element:
                guard let child = node.element, child != summary else { return false }
                return Self.hasContent(child)
            default: return false
            }
        }
    }

    /// Whether an element shows something: text of its own (outside script-like elements), a
    /// graphic or control, an ARIA label, or a descendant that does.
    private static func hasContent(_ element: Element) -> Bool {
        let ownText = !textlessElements.contains(element.localName)
            && element.childNodes.contains { $0.kind == .text && !$0.text.allSatisfy(\.isWhitespace) }
        let labelled = !NamingChecks.isBlank(element.attribute("aria-label"))
            || !NamingChecks.isBlank(element.attribute("aria-labelledby"))
        return ownText || isVisualContent(element) || labelled || element.children.contains(where: hasContent)
    }

    private static let textlessElements: Set<String> = [
        "head", "title", "template", "script", "style", "iframe", "object", "video", "audio", "noscript",
    ]

    /// Graphics and controls are content even without text; an explicit role decides for itself.
    private static func isVisualContent(_ element: Element) -> Bool {
        if let role = element.attribute("role")?.split(whereSeparator: \.isWhitespace).first?.lowercased() {
            return visualRoles.contains(role)
        }
        switch element.localName {
        case "img", "iframe", "object", "video", "audio", "canvas", "svg", "math", "button", "select", "textarea",
            "keygen", "progress", "meter":
            return true
        case "input": return element.attribute("type")?.lowercased() != "hidden"
        default: return false
        }
    }

    private static let visualRoles: Set<String> = [
        "checkbox", "img", "meter", "progressbar", "scrollbar", "radio", "slider", "spinbutton", "textbox",
    ]

    /// axe accepts the summary's content, aria-label, aria-labelledby or title: together, the
    /// summary's accessible name. A `value`, `alt` or wrapping `<label>` does not name a summary.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if NamingChecks(page).hasName(element) { return .pass }
        return .violation("The summary has no text, aria-label, aria-labelledby that gives text, or title.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<details><summary>Shipping costs</summary>Free above 50 €.</details>"#,
            #"<details><summary aria-label="Shipping costs"></summary>Free above 50 €.</details>"#,
            #"<details><summary title="Shipping costs"></summary>Free above 50 €.</details>"#,
            // Only the first summary is interactive; an empty second one is not checked.
            #"<details><summary>Shipping costs</summary><summary></summary>Free above 50 €.</details>"#,
        ],
        violating: [
            RuleExample(#"<details><summary></summary>Free above 50 €.</details>"#, at: "summary"),
            RuleExample(#"<details><summary value="Shipping"></summary>Free above 50 €.</details>"#, at: "summary"),
            RuleExample(#"<details><summary role="button"></summary>Free above 50 €.</details>"#, at: "summary"),
            RuleExample(#"<label><details><summary></summary>Free above 50 €.</details>Shipping</label>"#, at: "summary"),
        ],
        inapplicable: [
            #"<details><summary></summary></details>"#,
            #"<summary>Outside details</summary>"#,
        ]
    )
}
