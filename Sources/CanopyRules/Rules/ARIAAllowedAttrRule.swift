import CanopyAccessibility
import CanopyHTML

/// An ARIA attribute that the element's role does not support (aria-selected on an alert,
/// aria-checked on a link) is ignored or misreported by assistive technology.
public struct ARIAAllowedAttrRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-allowed-attr",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that an element's role supports each of its ARIA attributes",
        help: "Elements must only use ARIA attributes their role supports",
        howToFix: "Remove the attributes the role does not support, or change the role to one that supports them.",
        enabledByDefault: true,
        rationale: "An attribute the role does not support is ignored or misread by assistive technology, so the state it meant to convey is lost."
    )

    public let selector = try! SelectorList("*")

    public func candidates(on page: PageContext) -> [Element]? { page.accessibility.elementsWithARIAAttributes }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        page.accessibility.hasARIAAttribute(element)  // any aria-* attribute, known for the page at once
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let role = model.role(of: element)
        let allowed = Self.allowedAttributes(for: role, on: element)
        let unsupported = element.attributes.filter { attribute in
            // Unknown names are aria-valid-attr's business.
            guard ARIAAttributes.attribute(named: attribute.name) != nil else { return false }
            return !allowed.contains(attribute.name) && !Self.isHarmless(attribute, on: element)
        }
        guard !unsupported.isEmpty else { return .pass }
        let list = unsupported.map { "\($0.name)=\"\($0.value)\"" }.joined(separator: ", ")
        let roleText = role.map { "role \($0)" } ?? "an element without a role"
        // A custom element may get its role from script (ElementInternals), which static HTML cannot see.
        if role == nil && Self.isCustomElement(element) && !model.isFocusable(element) {
            return .incomplete("\(list) is not supported on \(roleText); the custom element may set a role from script, so check it in a browser.")
        }
        return .violation("\(list) is not supported on \(roleText).")
    }

    /// Global attributes plus the role's required and allowed ones; `<br>` and `<wbr>` have no
    /// accessibility object, so they may only be hidden.
    static func allowedAttributes(for role: String?, on element: Element) -> Set<String> {
        if element.isHTML && (element.localName == "br" || element.localName == "wbr") && role == nil {
            return ["aria-hidden"]
        }
        guard let role, let definition = ARIARoles.role(named: role) else { return ARIAAttributes.globalNames }
        return ARIAAttributes.globalNames.union(definition.requiredAttributes).union(definition.allowedAttributes)
    }

    /// Values that screen readers consistently ignore, so they do no harm where unsupported:
    /// aria-required="false", and aria-multiline="false" on an editable region.
    static func isHarmless(_ attribute: Attribute, on element: Element) -> Bool {
        if attribute.name == "aria-required" && attribute.value == "false" { return true }
        return attribute.name == "aria-multiline" && attribute.value == "false" && element.hasAttribute("contenteditable")
    }

    static func isCustomElement(_ element: Element) -> Bool {
        element.isHTML && element.localName.contains("-")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="checkbox" aria-checked="true" tabindex="0">Agree</div>"#,
            #"<button aria-pressed="true">Bold</button>"#,
            #"<div role="dialog" aria-cats="meow">Unknown attributes are ignored here</div>"#,
            #"<div role="treegrid"><div role="row" aria-level="1" aria-expanded="true"><div role="gridcell">A</div></div></div>"#,
            #"<button aria-required="false">Send</button>"#,
        ],
        violating: [
            RuleExample(#"<div role="alert" aria-selected="true">Saved</div>"#, at: "div"),
            RuleExample(#"<a href="/" aria-checked="true">Home</a>"#, at: #"[href="/"]"#),
            RuleExample(#"<div role="combobox" aria-multiline="false"></div>"#, at: "div"),
            RuleExample(#"<br aria-busy="true">"#, at: "br"),
        ],
        incomplete: [
            RuleExample(#"<my-widget aria-expanded="true">Menu</my-widget>"#, at: "my-widget"),
        ],
        inapplicable: [
            "<div>No ARIA attributes</div>",
            #"<div hidden aria-selected="true"></div>"#,
        ]
    )
}
