import CanopyAccessibility
import CanopyHTML

/// `<dl>` may hold only `<dt>`/`<dd>` groups (optionally wrapped in `<div>`), and each term needs
/// its description, so that screen readers convey which term each description belongs to.
public struct DefinitionListRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "definition-list",
        impact: .serious,
        tags: ["cat.structure", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.3.3"],
        description: "Checks that <dl> contains only properly ordered <dt> and <dd> groups, <div>, <script> or <template> elements",
        help: "Description lists may contain only term and description groups",
        howToFix: "Give the <dl> only <dt> terms each followed by <dd> descriptions (optionally each group in a <div>), and move other content out.",
        enabledByDefault: true,
        rationale: "Other content directly inside a <dl> breaks the term/definition structure screen readers announce."
    )

    public let selector = try! SelectorList("dl")

    /// Roles a child of a description list may have explicitly.
    static let allowedChildRoles: Set<String> = ["definition", "term", "list"]

    public func applies(to element: Element, on page: PageContext) -> Bool {
        element.attribute("role")?.isEmpty ?? true
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        // Direct children, with role-less <div> groups opened up, as HTML allows them.
        var content: [Node] = []
        for child in element.childNodes {
            if let div = child.element, div.isHTML, div.localName == "div", model.role(of: div) == nil {
                content.append(contentsOf: div.childNodes)
            } else {
                content.append(child)
            }
        }
        var wrong: [String] = []
        for node in content {
            switch node.kind {
            case .text:
                if !node.text.allSatisfy(\.isWhitespace) {
                    return .violation("The description list holds text directly; put it in a <dt> or <dd>.")
                }
            case .element:
                guard let child = node.element, !model.isHiddenFromAssistiveTechnology(child) else { continue }
                let isItem = child.isHTML && (child.localName == "dt" || child.localName == "dd")
                let role = model.explicitRole(of: child)
                if isItem && role == nil { continue }
                if let role, Self.allowedChildRoles.contains(role) { continue }
                wrong.append(role.map { "<\(child.localName) role=\"\($0)\">" } ?? "<\(child.localName)>")
            default:
                continue
            }
        }
        if !wrong.isEmpty {
            return .violation("The description list has children that are not terms or descriptions: \(ListRule.summary(wrong)).")
        }
        if Self.hasTermsWithoutDescriptions(element) {
            return .violation("The description list has no <dd> after its first <dt>, so its terms have no descriptions.")
        }
        return .pass
    }

    /// Whether the list has terms or descriptions but no description follows a term (a list that
    /// starts with descriptions, or terms alone). Only direct children count, as in axe-core.
    static func hasTermsWithoutDescriptions(_ list: Element) -> Bool {
        var sawTerm = false, sawDescription = false
        for child in list.children where child.isHTML {
            if child.localName == "dt" { sawTerm = true }
            if child.localName == "dd" {
                if sawTerm { return false }
                sawDescription = true
            }
        }
        return sawTerm || sawDescription
    }

    public let examples = RuleExamples(
        passing: [
            "<dl><dt>Tea</dt><dd>A hot drink</dd></dl>",
            "<dl></dl>",
            "<dl><dt>Tea</dt><dd>Hot</dd><dt>Coffee</dt><dd>Hot</dd><dd>Strong</dd></dl>",
            "<dl><div><dt>Tea</dt><dd>Hot</dd></div><div><dt>Juice</dt><dd>Cold</dd></div></dl>",
            "<dl><script></script><template><p>x</p></template><dt>Tea</dt><dd>Hot</dd></dl>",
            "<dl><dt>Tea</dt><dt>Chai</dt><dd>Hot</dd></dl>",
            #"<dl><dt>Tea</dt><dd>Hot</dd><p hidden>Not rendered</p></dl>"#,
            #"<dl><dt role="term">Tea</dt><dd role="definition">Hot</dd></dl>"#,
        ],
        violating: [
            RuleExample("<dl><div>Tea</div></dl>", at: "dl"),
            RuleExample("<dl><dt>Tea</dt><dd>Hot</dd><p>Wrong</p></dl>", at: "dl"),
            RuleExample("<dl>Loose text<dt>Tea</dt><dd>Hot</dd></dl>", at: "dl"),
            RuleExample("<dl><dd>Hot</dd><dt>Tea</dt></dl>", at: "dl"),
            RuleExample("<dl><dt>Tea</dt></dl>", at: "dl"),
            RuleExample(#"<dl><dt>Tea</dt><dd role="menuitem">Hot</dd></dl>"#, at: "dl"),
            RuleExample(#"<dl><div role="presentation"><dt>Tea</dt><dd>Hot</dd></div></dl>"#, at: "dl"),
        ],
        inapplicable: [
            #"<dl role="list"><div role="listitem">Tea</div></dl>"#,
            "<dl hidden><p>Tea</p></dl>",
            "<p>No description lists</p>",
        ]
    )
}
