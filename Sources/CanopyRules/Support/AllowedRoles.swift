import CanopyAccessibility
import CanopyHTML

/// Which explicit roles ARIA in HTML allows on each HTML element, as axe-core's `html-elms`
/// standard encodes it (axe's own choices kept, e.g. `combobox` allowed on text-like inputs).
enum AllowedRoles {
    enum Allowance: Equatable {
        /// Any role may be set.
        case anyRole
        /// No role may be set (other than the implicit one).
        case noRole
        case only(Set<String>)

        func allows(_ role: String) -> Bool {
            switch self {
            case .anyRole: true
            case .noRole: false
            case .only(let roles): roles.contains(role)
            }
        }
    }

    /// DPUB roles that only refine a native role: they belong on elements that already have that
    /// role implicitly (a `doc-noteref` on a link), so assistive technology without DPUB support
    /// still gets the native role.
    static let dpubRolesNeedingNativeFallback: [String: String] = [
        "doc-backlink": "link", "doc-biblioref": "link", "doc-glossref": "link", "doc-noteref": "link",
        "doc-biblioentry": "listitem", "doc-endnote": "listitem", "doc-cover": "img",
    ]

    /// The roles the element may take; nil for elements the table does not know (custom
    /// elements, obsolete tags, foreign content), which the rule leaves alone.
    /// `hasName` tells whether an image has a text alternative, which opens up widget roles.
    static func allowance(for element: Element, hasName: (Element) -> Bool) -> Allowance? {
        guard element.isHTML else { return nil }
        let name = element.localName
        if elementsAllowingAnyRole.contains(name) { return .anyRole }
        if elementsAllowingNoRole.contains(name) { return .noRole }
        if let roles = fixedRoles[name] { return .only(roles) }
        switch name {
        case "a":
            return element.hasAttribute("href") ? .only(linkRoles) : .anyRole
        case "area":
            return element.hasAttribute("href") ? .noRole : .only(["button", "link"])
        case "img":
            let alt = element.attribute("alt") ?? ""
            return !alt.isEmpty || hasName(element) ? .only(namedImageRoles) : .only(["none", "presentation"])
        case "input":
            return inputAllowance(element)
        case "select":
            // Only a drop-down (single choice, one visible row) can become a menu.
            let size = element.attribute("size")
            return !element.hasAttribute("multiple") && (size == nil || size == "1") ? .only(["menu"]) : .noRole
        default:
            return nil
        }
    }

    private static func inputAllowance(_ element: Element) -> Allowance {
        let type = inputType(of: element)
        switch type {
        case "button":
            return .only([
                "checkbox", "combobox", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio",
                "switch", "tab",
            ])
        case "checkbox":
            return element.hasAttribute("aria-pressed")
                ? .only(["button", "menuitemcheckbox", "option", "switch"]) : .only(["menuitemcheckbox", "option", "switch"])
        case "image":
            return .only(["link", "menuitem", "menuitemcheckbox", "menuitemradio", "radio", "switch"])
        case "radio":
            return .only(["menuitemradio"])
        case "color", "date", "datetime-local", "file", "hidden", "month", "number", "password", "range", "reset",
            "submit", "time", "week":
            return .noRole
        case "text" where element.hasAttribute("list"):
            return .noRole
        default:
            // Text-like inputs (text, search, email, tel, url) may become other text widgets.
            return .only(["combobox", "searchbox", "spinbutton"])
        }
    }

    /// The `type` as the DOM property reads it: lowercased, unknown values as "text".
    private static func inputType(of element: Element) -> String {
        let type = element.attribute("type")?.lowercased() ?? "text"
        return knownInputTypes.contains(type) ? type : "text"
    }

    private static let knownInputTypes: Set<String> = [
        "button", "checkbox", "color", "date", "datetime-local", "email", "file", "hidden", "image", "month", "number",
        "password", "radio", "range", "reset", "search", "submit", "tel", "text", "time", "url", "week",
    ]

    private static let elementsAllowingAnyRole: Set<String> = [
        "abbr", "address", "b", "bdi", "bdo", "blockquote", "canvas", "cite", "code", "data", "del", "dfn", "div", "em",
        "figure", "hgroup", "i", "ins", "kbd", "mark", "output", "p", "pre", "progress", "q", "rp", "rt", "ruby", "s",
        "samp", "small", "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr",
        "u", "var", "wbr",
    ]

    private static let elementsAllowingNoRole: Set<String> = [
        "base", "body", "caption", "col", "colgroup", "datalist", "dd", "details", "head", "html", "label", "legend",
        "link", "main", "map", "math", "meta", "meter", "noscript", "optgroup", "option", "param", "picture", "script",
        "slot", "source", "style", "summary", "template", "textarea", "title", "track",
    ]

    private static let linkRoles: Set<String> = [
        "button", "checkbox", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio", "switch", "tab",
        "treeitem", "doc-backlink", "doc-biblioref", "doc-glossref", "doc-noteref",
    ]

    private static let namedImageRoles: Set<String> = [
        "button", "checkbox", "link", "math", "menuitem", "menuitemcheckbox", "menuitemradio", "meter", "option",
        "progressbar", "radio", "scrollbar", "separator", "slider", "switch", "tab", "treeitem", "doc-cover",
    ]

    private static let listRoles: Set<String> = [
        "directory", "group", "listbox", "menu", "menubar", "none", "presentation", "radiogroup", "tablist", "toolbar",
        "tree",
    ]

    private static let headingRoles: Set<String> = ["none", "presentation", "tab", "doc-subtitle"]

    private static let fixedRoles: [String: Set<String>] = [
        "article": ["application", "document", "feed", "main", "none", "presentation", "region"],
        "aside": [
            "feed", "none", "note", "presentation", "region", "search", "doc-dedication", "doc-example", "doc-footnote",
            "doc-glossary", "doc-pullquote", "doc-tip",
        ],
        "audio": ["application"],
        "br": ["none", "presentation"],
        "button": [
            "checkbox", "combobox", "gridcell", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio",
            "separator", "slider", "switch", "tab", "treeitem",
        ],
        "dialog": ["alertdialog"],
        "dl": ["group", "list", "none", "presentation"],
        "dt": ["listitem"],
        "embed": ["application", "document", "img", "none", "presentation"],
        "fieldset": ["none", "presentation", "radiogroup"],
        "figcaption": ["group", "none", "presentation"],
        "footer": ["contentinfo", "group", "none", "presentation", "doc-footnote"],
        "form": ["none", "presentation", "search"],
        "h1": headingRoles, "h2": headingRoles, "h3": headingRoles, "h4": headingRoles, "h5": headingRoles,
        "h6": headingRoles,
        "header": ["banner", "group", "none", "presentation", "doc-footnote"],
        "hr": ["none", "presentation", "doc-pagebreak"],
        "iframe": ["application", "document", "img", "none", "presentation"],
        "li": [
            "menuitem", "menuitemcheckbox", "menuitemradio", "none", "option", "presentation", "radio", "separator", "tab",
            "treeitem", "doc-biblioentry", "doc-endnote",
        ],
        "menu": listRoles, "ol": listRoles, "ul": listRoles,
        "nav": ["menu", "menubar", "none", "presentation", "tablist", "doc-index", "doc-pagelist", "doc-toc"],
        "object": ["application", "document", "img"],
        "search": ["form", "group", "none", "presentation", "region", "search"],
        "section": [
            "alert", "alertdialog", "application", "banner", "complementary", "contentinfo", "dialog", "document", "feed",
            "log", "main", "marquee", "navigation", "none", "note", "presentation", "search", "status", "tabpanel",
            "doc-abstract", "doc-acknowledgments", "doc-afterword", "doc-appendix", "doc-bibliography", "doc-chapter",
            "doc-colophon", "doc-conclusion", "doc-credit", "doc-credits", "doc-dedication", "doc-endnotes",
            "doc-epigraph", "doc-epilogue", "doc-errata", "doc-example", "doc-foreword", "doc-glossary", "doc-index",
            "doc-introduction", "doc-notice", "doc-pagelist", "doc-part", "doc-preface", "doc-prologue",
            "doc-pullquote", "doc-qna", "doc-toc",
        ],
        "video": ["application"],
    ]
}
