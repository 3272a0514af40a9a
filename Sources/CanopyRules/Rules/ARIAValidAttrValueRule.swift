import CanopyAccessibility
import CanopyHTML

/// ARIA states and properties take typed values (true/false, a token from a list, an existing id,
/// a number): a value of the wrong form is ignored or misread, so users get the wrong state.
public struct ARIAValidAttrValueRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "aria-valid-attr-value",
        impact: .critical,
        tags: ["cat.aria", "wcag2a", "wcag412", "EN-301-549", "EN-9.4.1.2", "RGAAv4", "RGAA-7.1.1"],
        description: "Checks that every ARIA attribute has a value of the form WAI-ARIA allows",
        help: "ARIA attribute values must be valid",
        howToFix: "Use a value the attribute allows: true or false for booleans, one of the listed tokens, the id of an element on the page for references, a number for numeric properties.",
        enabledByDefault: true,
        rationale: "An ARIA attribute with a value outside its type (a typo in an id reference, aria-hidden=\"yes\") is ignored or misread."
    )

    public let selector = try! SelectorList("*")

    public func candidates(on page: PageContext) -> [Element]? { page.accessibility.elementsWithARIAAttributes }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        page.accessibility.hasARIAAttribute(element)  // any aria-* attribute, known for the page at once
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        var invalid: [String] = []
        var review: [String] = []
        for attribute in element.attributes where ARIAValidity.isARIAName(attribute.name) {
            // aria-errormessage has its own stricter check below.
            guard attribute.name != "aria-errormessage",
                  let definition = ARIAAttributes.attribute(named: attribute.name)
            else { continue }
            let verdict = ARIAValidity.verdict(for: definition, value: attribute.value, in: page.document)
            switch Self.treatment(of: attribute.name, verdict: verdict, on: element) {
            case .ignore: continue
            case .review(let reason): review.append(reason)
            case .fail: invalid.append("\(attribute.name)=\"\(attribute.value)\"")
            }
        }
        let errorMessage = errorMessageOutcome(element, on: page)
        if case .violation(let message)? = errorMessage { invalid.append(message) }
        if !invalid.isEmpty {
            return .violation("Invalid ARIA attribute values: \(invalid.joined(separator: "; ")).")
        }
        if case .incomplete(let message)? = errorMessage { review.append(message) }
        if let level = element.attribute("aria-level").flatMap({ Int($0.ariaTrimmed) }), level > 6 {
            review.append("aria-level=\"\(level)\" is beyond 6, which many screen readers announce as level 2")
        }
        if !review.isEmpty { return .incomplete(review.joined(separator: "; ") + ".") }
        return .pass
    }

    enum Treatment { case ignore, review(String), fail }

    /// Some attributes tolerate values that point nowhere yet (popups loaded later, collapsed
    /// widgets) or that browsers read leniently; those need a person rather than a failure.
    static func treatment(of name: String, verdict: ARIAValueVerdict, on element: Element) -> Treatment {
        let isValid = verdict == .valid
        let value = element.attribute(name) ?? ""
        switch name {
        case "aria-controls":
            let popup = element.attribute("aria-haspopup").map { $0 != "false" } ?? false
            let checksTarget = element.attribute("aria-expanded") != "false"
                && element.attribute("aria-selected") != "false" && !popup
            if checksTarget && !isValid { return .fail }
            if popup && !isValid { return .review("aria-controls=\"\(value)\" refers to a popup that is not on the page yet") }
            return .ignore
        case "aria-current":
            return isValid ? .ignore : .review("aria-current=\"\(value)\" is not a listed value; browsers treat it as true")
        case "aria-owns":
            if isValid || element.attribute("aria-expanded") == "false" { return .ignore }
        case "aria-describedby", "aria-labelledby":
            return isValid ? .ignore : .review("\(name)=\"\(value)\" refers to no element on the page")
        default:
            break
        }
        switch verdict {
        case .valid: return .ignore
        case .empty: return .review("\(name) is empty")
        case .invalid: return .fail
        }
    }

    /// aria-errormessage only matters on an element marked invalid; it must point at a message
    /// that assistive technology can perceive and that is announced or described.
    func errorMessageOutcome(_ element: Element, on page: PageContext) -> CheckOutcome? {
        guard let value = element.attribute("aria-errormessage"),
              let invalidState = element.attribute("aria-invalid"), invalidState != "false"
        else { return nil }
        if value.ariaTrimmed.isEmpty {
            return ARIAAttributes.attribute(named: "aria-errormessage")?.allowsEmpty == true
                ? nil : .violation("aria-errormessage is empty")
        }
        let firstID = value.split(whereSeparator: \.isHTMLWhitespace).first.map(String.init) ?? value
        guard let message = page.document.element(withID: firstID) else {
            return .incomplete("aria-errormessage=\"\(value)\" refers to no element on the page")
        }
        if page.accessibility.isHiddenFromAssistiveTechnology(message) {
            return .violation("aria-errormessage=\"\(value)\" refers to an element hidden from assistive technology")
        }
        let describedBy = (element.attribute("aria-describedby") ?? "").split(whereSeparator: \.isHTMLWhitespace)
        let announced = message.attribute("role") == "alert"
            || message.attribute("aria-live") == "assertive" || message.attribute("aria-live") == "polite"
            || describedBy.contains(Substring(value))
        return announced ? nil : .violation("aria-errormessage=\"\(value)\" refers to a message that is neither live nor in aria-describedby")
    }

    public let examples = RuleExamples(
        passing: [
            #"<div role="checkbox" aria-checked="mixed" tabindex="0">All</div>"#,
            #"<button aria-expanded="false" aria-controls="menu">Menu</button>"#,
            #"<input aria-invalid="true" aria-errormessage="err"><p id="err" role="alert">Required</p>"#,
            #"<div role="heading" aria-level="3">Title</div>"#,
        ],
        violating: [
            RuleExample(#"<div role="checkbox" aria-checked="yes" tabindex="0">Agree</div>"#, at: "div"),
            RuleExample(#"<button aria-controls="missing">Menu</button>"#, at: "button"),
            RuleExample(#"<div role="heading" aria-level="two">Title</div>"#, at: "div"),
            RuleExample(#"<input aria-invalid="true" aria-errormessage="err"><p id="err">Required</p>"#, at: "input"),
        ],
        incomplete: [
            RuleExample(#"<a href="/" aria-current="here">Home</a>"#, at: #"[href="/"]"#),
            RuleExample(#"<button aria-describedby="missing">Save</button>"#, at: "button"),
            RuleExample(#"<div role="checkbox" aria-checked="" tabindex="0">Agree</div>"#, at: "div"),
            RuleExample(#"<div role="heading" aria-level="8">Deep</div>"#, at: "div"),
        ],
        inapplicable: [
            "<div>No ARIA attributes</div>",
            #"<div hidden aria-checked="yes"></div>"#,
        ]
    )
}
