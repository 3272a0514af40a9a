/// What kind of role an ARIA role is (WAI-ARIA 1.2 role taxonomy, as axe-core groups it).
public enum RoleKind: String, Sendable {
    case abstract, widget, composite, structure, landmark, window
}

/// Facts about one ARIA role that rules need. The table is data: rules look roles up, never
/// hard-code them.
public struct ARIARole: Sendable, Hashable {
    public let name: String
    public let kind: RoleKind
    /// axe-core's `accessibleNameRequired`: an element with this role must have a name.
    public let nameRequired: Bool
    /// Whether the role can take its name from its content.
    public let nameFromContent: Bool
    /// Whether the role's descendants are presentational (e.g. `button`, `img`).
    public let childrenPresentational: Bool
    public let deprecated: Bool

    init(
        _ name: String, _ kind: RoleKind, nameRequired: Bool = false, nameFromContent: Bool = false,
        childrenPresentational: Bool = false, deprecated: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.nameRequired = nameRequired
        self.nameFromContent = nameFromContent
        self.childrenPresentational = childrenPresentational
        self.deprecated = deprecated
    }
}

public enum ARIARoles {
    /// Looks a role up by its (lowercase) name.
    public static func role(named name: String) -> ARIARole? { table[name] }

    /// The ARIA 1.2 roles, the DPUB-ARIA `doc-*` roles and the Graphics ARIA roles.
    static let table: [String: ARIARole] = {
        var roles: [ARIARole] = [
            ARIARole("alert", .widget),
            ARIARole("alertdialog", .widget, nameRequired: true),
            ARIARole("application", .landmark, nameRequired: true),
            ARIARole("article", .structure),
            ARIARole("banner", .landmark),
            ARIARole("blockquote", .structure),
            ARIARole("button", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("caption", .structure),
            ARIARole("cell", .structure, nameFromContent: true),
            ARIARole("checkbox", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("code", .structure),
            ARIARole("columnheader", .structure, nameFromContent: true),
            ARIARole("combobox", .widget, nameRequired: true),
            ARIARole("command", .abstract),
            ARIARole("comment", .structure),
            ARIARole("complementary", .landmark),
            ARIARole("composite", .abstract),
            ARIARole("contentinfo", .landmark),
            ARIARole("definition", .structure),
            ARIARole("deletion", .structure),
            ARIARole("dialog", .widget, nameRequired: true),
            ARIARole("directory", .structure, nameFromContent: true, deprecated: true),
            ARIARole("document", .structure),
            ARIARole("emphasis", .structure),
            ARIARole("feed", .structure),
            ARIARole("figure", .structure, nameFromContent: true),
            ARIARole("form", .landmark),
            ARIARole("grid", .composite),
            ARIARole("gridcell", .widget, nameFromContent: true),
            ARIARole("group", .structure),
            ARIARole("heading", .structure, nameFromContent: true),
            ARIARole("img", .structure, nameRequired: true, childrenPresentational: true),
            ARIARole("input", .abstract),
            ARIARole("insertion", .structure),
            ARIARole("landmark", .abstract),
            ARIARole("link", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("list", .structure),
            ARIARole("listbox", .widget, nameRequired: true),
            ARIARole("listitem", .structure, nameFromContent: true),
            ARIARole("log", .widget),
            ARIARole("main", .landmark),
            ARIARole("mark", .structure),
            ARIARole("marquee", .widget),
            ARIARole("math", .structure, childrenPresentational: true),
            ARIARole("menu", .composite),
            ARIARole("menubar", .composite),
            ARIARole("menuitem", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("menuitemcheckbox", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("menuitemradio", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("meter", .structure, nameRequired: true, childrenPresentational: true),
            ARIARole("navigation", .landmark),
            ARIARole("none", .structure),
            ARIARole("note", .structure),
            ARIARole("option", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("paragraph", .structure),
            ARIARole("presentation", .structure),
            ARIARole("progressbar", .widget, nameRequired: true, childrenPresentational: true),
            ARIARole("radio", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("radiogroup", .composite),
            ARIARole("range", .abstract),
            ARIARole("region", .landmark),
            ARIARole("roletype", .abstract),
            ARIARole("row", .structure, nameFromContent: true),
            ARIARole("rowgroup", .structure, nameFromContent: true),
            ARIARole("rowheader", .structure, nameFromContent: true),
            ARIARole("scrollbar", .widget, childrenPresentational: true),
            ARIARole("search", .landmark),
            ARIARole("searchbox", .widget, nameRequired: true),
            ARIARole("section", .abstract, nameFromContent: true),
            ARIARole("sectionhead", .abstract, nameFromContent: true),
            ARIARole("select", .abstract),
            ARIARole("separator", .structure, childrenPresentational: true),
            ARIARole("slider", .widget, nameRequired: true, childrenPresentational: true),
            ARIARole("spinbutton", .widget, nameRequired: true),
            ARIARole("status", .widget),
            ARIARole("strong", .structure),
            ARIARole("structure", .abstract),
            ARIARole("subscript", .structure),
            ARIARole("suggestion", .structure),
            ARIARole("superscript", .structure),
            ARIARole("switch", .widget, nameRequired: true, nameFromContent: true, childrenPresentational: true),
            ARIARole("tab", .widget, nameFromContent: true, childrenPresentational: true),
            ARIARole("table", .structure, nameFromContent: true),
            ARIARole("tablist", .composite),
            ARIARole("tabpanel", .widget),
            ARIARole("term", .structure, nameFromContent: true),
            ARIARole("text", .structure, nameFromContent: true),
            ARIARole("textbox", .widget, nameRequired: true),
            ARIARole("time", .structure),
            ARIARole("timer", .widget),
            ARIARole("toolbar", .structure, nameRequired: true),
            ARIARole("tooltip", .structure, nameFromContent: true),
            ARIARole("tree", .composite),
            ARIARole("treegrid", .composite),
            ARIARole("treeitem", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("widget", .abstract),
            ARIARole("window", .abstract),
            // Graphics ARIA
            ARIARole("graphics-document", .structure, nameRequired: true),
            ARIARole("graphics-object", .structure, nameFromContent: true),
            ARIARole("graphics-symbol", .structure, nameRequired: true, childrenPresentational: true),
        ]
        // DPUB-ARIA: landmarks and sections of digital publications.
        let dpubLandmarks = [
            "doc-acknowledgments", "doc-afterword", "doc-appendix", "doc-bibliography", "doc-chapter",
            "doc-conclusion", "doc-credits", "doc-endnotes", "doc-epilogue", "doc-errata", "doc-foreword",
            "doc-glossary", "doc-index", "doc-introduction", "doc-pagelist", "doc-part", "doc-preface",
            "doc-prologue", "doc-toc",
        ]
        roles += dpubLandmarks.map { ARIARole($0, .landmark) }
        let dpubStructures = [
            "doc-abstract", "doc-colophon", "doc-credit", "doc-dedication", "doc-epigraph", "doc-example",
            "doc-footnote", "doc-notice", "doc-pagefooter", "doc-pageheader", "doc-pullquote", "doc-qna",
            "doc-subtitle", "doc-tip", "doc-cover", "doc-biblioentry", "doc-endnote",
        ]
        roles += dpubStructures.map { ARIARole($0, .structure) }
        roles += [
            ARIARole("doc-backlink", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("doc-biblioref", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("doc-glossref", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("doc-noteref", .widget, nameRequired: true, nameFromContent: true),
            ARIARole("doc-pagebreak", .structure, nameRequired: true, childrenPresentational: true),
        ]
        return Dictionary(uniqueKeysWithValues: roles.map { ($0.name, $0) })
    }()

    /// ARIA attributes allowed on every role ("global" states and properties).
    public static let globalAttributes: Set<String> = [
        "aria-atomic", "aria-braillelabel", "aria-brailleroledescription", "aria-busy", "aria-controls",
        "aria-current", "aria-describedby", "aria-description", "aria-details", "aria-disabled", "aria-dropeffect",
        "aria-errormessage", "aria-flowto", "aria-grabbed", "aria-haspopup", "aria-hidden", "aria-invalid",
        "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live", "aria-owns", "aria-relevant",
        "aria-roledescription",
    ]
}
