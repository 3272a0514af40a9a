import CanopyHTML

/// Implicit ARIA roles of HTML elements (HTML-AAM / ARIA in HTML), for the elements and conditions
/// axe-core maps (its implicit-html-roles table): elements it leaves out have no implicit role here.
public enum ImplicitRoles {
    /// The implicit role, deciding focusability (for `img alt=""`) from the markup alone and
    /// section/form names from `aria-label` only. `AccessibilityModel.role(of:)` gives the full answer.
    public static func role(of element: Element) -> String? {
        role(of: element, isFocusable: staticallyFocusable, hasAuthorName: hasAriaLabel)
    }

    /// The implicit role, with the model's answers for focusability and for whether a section or
    /// form has an author-given name (`aria-labelledby` text or `aria-label`).
    static func role(
        of element: Element, isFocusable: (Element) -> Bool, hasAuthorName: (Element) -> Bool,
        headerScope: (Element) -> TableHeaderScope = TableGrid.scope(of:)
    ) -> String? {
        guard let kind = kind(of: element) else { return nil }
        return role(of: element, kind: kind, isFocusable: isFocusable, hasAuthorName: hasAuthorName, headerScope: headerScope)
    }

    /// How an HTML element's implicit role is decided: a fixed role, or a rule of its own.
    enum Kind: Sendable {
        case fixed(String)
        case link, aside, footer, header, form, section, img, input, select, cell, headerCell

        /// Whether the role depends on the element's author-given name (which may lead back to the element).
        var needsName: Bool {
            switch self {
            case .aside, .form, .section: return true
            default: return false
            }
        }
    }

    /// The kind of an element with an implicit role; nil for foreign elements and elements without one.
    /// Looked up by the name's key word: a `switch` over the names compared each element with
    /// dozens of strings, and a dictionary hashed each name (a third of the model's role lookups).
    static func kind(of element: Element) -> Kind? {
        guard element.isHTML else { return nil }
        return kinds[element]
    }

    private static let kinds = ElementNameTable<Kind>([
        "a": .link, "area": .link, "article": .fixed("article"), "aside": .aside, "body": .fixed("document"),
        "button": .fixed("button"), "datalist": .fixed("listbox"), "dd": .fixed("definition"), "dfn": .fixed("term"),
        "dt": .fixed("term"), "details": .fixed("group"), "fieldset": .fixed("group"), "optgroup": .fixed("group"),
        "dialog": .fixed("dialog"), "figure": .fixed("figure"), "footer": .footer, "header": .header, "form": .form,
        "section": .section, "h1": .fixed("heading"), "h2": .fixed("heading"), "h3": .fixed("heading"),
        "h4": .fixed("heading"), "h5": .fixed("heading"), "h6": .fixed("heading"), "hr": .fixed("separator"),
        "img": .img, "input": .input, "li": .fixed("listitem"), "main": .fixed("main"), "math": .fixed("math"),
        "meter": .fixed("meter"), "search": .fixed("search"), "menu": .fixed("list"), "ol": .fixed("list"),
        "ul": .fixed("list"), "nav": .fixed("navigation"), "option": .fixed("option"), "output": .fixed("status"),
        "progress": .fixed("progressbar"), "select": .select, "summary": .fixed("button"), "table": .fixed("table"),
        "tbody": .fixed("rowgroup"), "thead": .fixed("rowgroup"), "tfoot": .fixed("rowgroup"), "td": .cell,
        "th": .headerCell, "textarea": .fixed("textbox"), "tr": .fixed("row"),
    ])

    static func role(
        of element: Element, kind: Kind, isFocusable: (Element) -> Bool, hasAuthorName: (Element) -> Bool,
        headerScope: (Element) -> TableHeaderScope
    ) -> String? {
        switch kind {
        case .fixed(let role): return role
        case .link: return element.hasAttribute(.href) ? "link" : nil
        case .aside:
            // Inside other sectioning content, an aside is a landmark only when it has a name.
            let nested = element.parent.map { isInSectioningContent($0, includingMain: false, includingSelf: true) } ?? false
            return nested && !hasAuthorName(element) && !hasTitle(element) ? nil : "complementary"
        case .footer: return isInSectioningContent(element, includingMain: true) ? nil : "contentinfo"
        case .header: return isInSectioningContent(element, includingMain: true) ? nil : "banner"
        case .form: return hasAuthorName(element) ? "form" : nil
        case .section: return hasAuthorName(element) ? "region" : nil
        case .img:
            // alt="" makes an image decorative, unless global ARIA or focus says someone meant it.
            let emptyAlt = element.attribute("alt") == ""
            if emptyAlt && !ARIAAttributes.hasGlobalAttribute(element) && !isFocusable(element) { return "presentation" }
            return "img"
        case .input: return inputRole(element)
        case .select:
            let size = element.attribute("size").map(JavaScriptNumbers.parseInt) ?? nil
            return element.hasAttribute("multiple") || (size ?? 0) > 1 ? "listbox" : "combobox"
        case .cell:
            let table = element.ancestors.first { $0.isHTML && $0.localName == "table" }
            let tableRole = table.flatMap { AccessibilityModel.explicitRole(of: $0, options: .axeDefault) }
            return tableRole == "grid" || tableRole == "treegrid" ? "gridcell" : "cell"
        case .headerCell:
            switch headerScope(element) {
            case .column, .auto: return "columnheader"
            case .row: return "rowheader"
            case .none: return nil
            }
        }
    }

    private static func inputRole(_ element: Element) -> String? {
        // A `list` attribute only makes a combobox when it points at a real <datalist>.
        let hasSuggestions = element.attribute("list").flatMap { list -> Element? in
            let id = list.split(whereSeparator: \.isHTMLWhitespace).first.map(String.init) ?? ""
            return id.isEmpty ? nil : element.document.element(withID: id)
        }.map { $0.isHTML && $0.localName == "datalist" } ?? false
        switch NativeNaming.inputType(of: element) {
        case "button", "image", "reset", "submit": return "button"
        case "checkbox": return "checkbox"
        case "email", "tel", "text", "url": return hasSuggestions ? "combobox" : "textbox"
        case "number": return "spinbutton"
        case "radio": return "radio"
        case "range": return "slider"
        case "search": return hasSuggestions ? "combobox" : "searchbox"
        // axe maps every other type (date, color, password, hidden...) to textbox.
        default: return "textbox"
        }
    }

    /// Whether an ancestor (or, with `includingSelf`, the element itself) is sectioning content
    /// without a role, or carries a sectioning landmark role; `main` counts with `includingMain`.
    /// `header` and `footer` are landmarks only outside sectioning content and `main`.
    static func isInSectioningContent(_ element: Element, includingMain: Bool, includingSelf: Bool = false) -> Bool {
        var sectioningRoles: Set<String> = ["article", "complementary", "navigation", "region"]
        var sectioningElements: Set<String> = ["article", "aside", "nav", "section"]
        if includingMain {
            sectioningRoles.insert("main")
            sectioningElements.insert("main")
        }
        let candidates = includingSelf ? [element] + Array(element.ancestors) : Array(element.ancestors)
        return candidates.contains { candidate in
            if let role = candidate.attribute("role") { return sectioningRoles.contains(role) }
            return candidate.isHTML && sectioningElements.contains(candidate.localName)
        }
    }

    private static func hasTitle(_ element: Element) -> Bool {
        !TextNormalization.sanitize(element.attribute("title") ?? "").isEmpty
    }

    private static func staticallyFocusable(_ element: Element) -> Bool {
        if Focusability.isDisabled(element) { return false }
        if let tabIndex = element.attribute("tabindex"), JavaScriptNumbers.parseInt(tabIndex) != nil { return true }
        return Focusability.isNativelyFocusable(element)
    }

    private static func hasAriaLabel(_ element: Element) -> Bool {
        !(element.attribute("aria-label")?.trimmingWhitespace().isEmpty ?? true)
    }
}

/// JavaScript's number parsing, where axe's behaviour depends on it.
public enum JavaScriptNumbers {
    /// `parseInt(text, 10)`: optional leading whitespace and sign, then digits; nil when none.
    public static func parseInt(_ text: String) -> Int? {
        var scalars = Substring(text).drop { $0.isWhitespace }
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        let digits = scalars.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits.prefix(18)) else { return nil }
        return negative ? -value : value
    }
}
