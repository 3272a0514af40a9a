import CanopyHTML

/// How HTML elements name themselves natively (HTML-AAM's accessible name computations, with the
/// method order axe-core's html-elms table gives), and the HTML content categories naming needs.
enum NativeNaming {
    enum Method: Equatable {
        case subtree, alt, title, placeholder, tableSummary, value, buttonDefault, singleSpace, labels
        /// The text of the first descendant element with this local name.
        case descendant(String)
    }

    static func methods(for element: Element) -> [Method] {
        if !element.isHTML {
            return element.localName == "svg" ? [.descendant("title")] : []
        }
        switch element.localName {
        case "a": return element.hasAttribute("href") ? subtreeOnly : []
        case "area", "img": return altOnly
        case "br", "hr": return [.title, .singleSpace]
        case "button", "output", "summary": return subtreeOnly
        case "fieldset": return [.descendant("legend")]
        case "figure": return [.descendant("figcaption"), .title]
        case "select": return [.labels]
        case "table": return [.descendant("caption"), .tableSummary]
        case "textarea": return [.labels, .placeholder]
        case "input":
            switch inputType(of: element) {
            case "button", "submit", "reset": return [.value, .title, .buttonDefault]
            case "image": return [.alt, .value, .labels, .title, .buttonDefault]
            default: return [.labels, .placeholder]
            }
        default: return []
        }
    }

    /// The common answers, made once rather than allocated for every link and image.
    private static let subtreeOnly: [Method] = [.subtree]
    private static let altOnly: [Method] = [.alt]

    /// What a browser shows on an input button without a value.
    static func defaultButtonText(of element: Element) -> String {
        guard element.isHTML, element.localName == "input" else { return "" }
        switch inputType(of: element) {
        case "submit", "image": return "Submit"
        case "reset": return "Reset"
        default: return ""
        }
    }

    /// Input types as the `type` IDL attribute reports them: unknown or missing types are "text".
    static func inputType(of element: Element) -> String {
        guard let type = element.attribute("type")?.trimmingWhitespace().lowercased(), knownInputTypes.contains(type)
        else { return "text" }
        return type
    }

    static let knownInputTypes: Set<String> = [
        "button", "checkbox", "color", "date", "datetime-local", "email", "file", "hidden", "image", "month",
        "number", "password", "radio", "range", "reset", "search", "submit", "tel", "text", "time", "url", "week",
    ]

    /// Roles whose embedded value stands for them inside another element's name.
    static let controlValueRoles: Set<String> = [
        "textbox", "combobox", "listbox", "progressbar", "scrollbar", "slider", "spinbutton",
    ]
    static let rangeRoles: Set<String> = ["progressbar", "scrollbar", "slider", "spinbutton"]

    /// `controlValueRoles.contains(role)`, by length first: name computation asks it for every
    /// element with a role, and most (link, listitem, cell...) differ in length from all of them.
    static func isControlValueRole(_ role: String) -> Bool {
        switch role.utf8.count {
        case 6, 7, 8, 9, 10, 11: return controlValueRoles.contains(role)
        default: return false
        }
    }

    /// Input types whose value is not text a user typed.
    private static let nonTextInputTypes: Set<String> = [
        "button", "checkbox", "color", "file", "hidden", "image", "password", "radio", "reset", "submit",
    ]

    /// The current value of a native text field, as the markup sets it.
    static func nativeTextboxValue(of element: Element) -> String {
        guard element.isHTML else { return "" }
        switch element.localName {
        case "textarea": return element.textContent
        case "input":
            let type = inputType(of: element)
            if nonTextInputTypes.contains(type) { return "" }
            return type == "range" ? rangeValue(of: element) : element.attribute("value") ?? ""
        default: return ""
        }
    }

    /// Elements whose text is never part of a name, even inside a hidden labelledby target.
    static func isNeverText(_ element: Element) -> Bool {
        ["style", "script", "noscript", "template"].contains(element.localName)
    }

    /// A range input's value as the browser sanitizes it: the `value` clamped to min...max
    /// (0...100 by default), or the midpoint when it is missing or not a number.
    static func rangeValue(of element: Element) -> String {
        let minimum = element.attribute("min").flatMap { Double($0.trimmingWhitespace()) } ?? 0
        let declaredMaximum = element.attribute("max").flatMap { Double($0.trimmingWhitespace()) } ?? 100
        let maximum = max(declaredMaximum, minimum)
        let value = element.attribute("value").flatMap { Double($0.trimmingWhitespace()) }.map {
            min(max($0, minimum), maximum)
        } ?? minimum + (maximum - minimum) / 2
        return javaScriptNumberText(String(value))
    }

    /// Embedded content (HTML's category): replaced elements whose content is never their name.
    static func isEmbeddedContent(_ element: Element) -> Bool {
        if !element.isHTML { return element.localName == "svg" || element.localName == "math" }
        // By length first: asked for every element a name computation visits.
        let name = element.localName
        switch name.utf8.count {
        case 3: return name == "img" || name == "svg"
        case 4: return name == "math"
        case 5, 6: return embedded.contains(name)
        default: return false
        }
    }

    private static let embedded: Set<String> = [  // names of 3 to 6 letters (see isEmbeddedContent)
        "audio", "canvas", "embed", "iframe", "img", "math", "object", "svg", "video",
    ]

    /// Phrasing content runs together with its neighbours in a name; other elements are set
    /// apart by spaces. `img` and `input` count as non-phrasing on purpose: browsers separate them.
    static func isPhrasing(_ element: Element) -> Bool {
        if !element.isHTML { return element.localName == "svg" || element.localName == "math" }
        return phrasing.contains(element.localName)
    }

    private static let phrasing: Set<String> = [
        "a", "abbr", "area", "audio", "b", "bdi", "bdo", "br", "button", "canvas", "cite", "code", "data", "datalist",
        "del", "dfn", "em", "embed", "i", "iframe", "ins", "kbd", "label", "link", "map", "mark", "math",
        "meter", "noscript", "object", "output", "picture", "progress", "q", "ruby", "s", "samp", "script",
        "select", "slot", "small", "span", "strong", "sub", "sup", "svg", "template", "textarea", "time", "u",
        "var", "video", "wbr",
    ]

    /// `aria-valuenow` as JavaScript's unary plus turns it into text: blank is 0, junk is "0" too.
    static func javaScriptNumberText(_ raw: String) -> String {
        let trimmed = raw.trimmingWhitespace()
        if trimmed.isEmpty { return "0" }
        guard let number = Double(trimmed), number.isFinite else { return "0" }
        if number == number.rounded(), abs(number) < 1e21 { return String(Int64(number)) }
        return String(number)
    }
}
