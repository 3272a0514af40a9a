import CanopyAccessibility
import CanopyHTML

/// Some HTML elements keep their native behaviour whatever role they are given (a link still
/// navigates, a heading still structures the page); a role that contradicts that behaviour
/// misleads assistive technology users.
public struct ARIAAllowedRoleRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-allowed-role",
        impact: .minor,
        tags: ["cat.aria", "best-practice"],
        description: "Checks that the role attribute gives a role that ARIA in HTML allows on the element",
        help: "ARIA roles should be allowed on the element they are set on",
        howToFix: "Use an element whose native role fits (a <button> for a button), or an element that accepts any role such as <div> or <span>.",
        enabledByDefault: false,
        rationale: "A role HTML does not allow on an element fights the element's own semantics; opt-in because browsers often cope and axe-core reports it as a best practice."
    )

    public let selector = try! SelectorList("[role]")

    /// Hidden elements are checked too, and reported for review when they break the rule.
    public var excludesHidden: Bool { false }

    /// Elements whose role attribute names at least one real role.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        page.accessibility.explicitRole(of: element) != nil
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        guard let allowance = AllowedRoles.allowance(for: element, hasName: { !model.accessibleName(of: $0).isEmpty })
        else { return .pass }
        let implicitRole = model.implicitRole(of: element)
        // Every valid token is checked: a fallback role is used by some browsers.
        let tokens = (element.attribute("role") ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let unallowed = tokens.filter { token in
            guard let role = ARIARoles.role(named: token), !role.isAbstract, token != implicitRole else { return false }
            if let nativeRole = AllowedRoles.dpubRolesNeedingNativeFallback[token], nativeRole != implicitRole {
                return true
            }
            return !allowance.allows(token)
        }
        guard !unallowed.isEmpty else { return .pass }
        let list = unallowed.joined(separator: ", ")
        if model.isHiddenFromAssistiveTechnology(element) {
            return .incomplete("The role \(list) is not allowed on <\(element.localName)>, but the element is hidden; check whether it is ever shown.")
        }
        return .violation("The role \(list) is not allowed on <\(element.localName)>.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="button" tabindex="0">Save</div>"#,
            #"<ul role="tablist"><li role="tab">One</li></ul>"#,
            ##"<a href="#note1" role="doc-noteref">1</a>"##,
            #"<input type="text" role="combobox" aria-expanded="false" aria-controls="x">"#,
        ],
        violating: [
            RuleExample(#"<h2 role="button">Details</h2>"#, at: "h2"),
            RuleExample(#"<a href="/home" role="text">Home</a>"#, at: #"[href="/home"]"#),
            RuleExample(#"<div role="doc-noteref">1</div>"#, at: "div"),
            RuleExample(#"<img src="x.png" role="button">"#, at: #"[src="x.png"]"#),
        ],
        incomplete: [
            RuleExample(#"<div hidden><button role="presentation">Close</button></div>"#, at: "button"),
        ],
        inapplicable: [
            #"<div role="madeup">Text</div>"#,
            #"<button>Save</button>"#,
        ]
    )
}
