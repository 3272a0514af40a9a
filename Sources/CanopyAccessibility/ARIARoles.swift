/// What kind of role an ARIA role is (WAI-ARIA 1.2 role taxonomy, as axe-core groups it).
/// DPUB roles whose axe type is another role's name (e.g. `doc-toc` is of type "navigation")
/// count as `.structure` here; `ARIARole.type` keeps axe's exact word.
public enum RoleKind: String, Sendable {
    case abstract, widget, composite, structure, landmark, window
}

/// Where an element with a role gets its accessible name from (ARIA's "Name From").
public enum NameSource: Sendable {
    /// Only from author attributes (`aria-label`, `aria-labelledby`, native labels).
    case author
    /// From author attributes or, failing them, from its content.
    case contents
    /// Naming is prohibited (`aria-label`/`aria-labelledby` must not be used).
    case prohibited
}

/// Facts about one ARIA role that rules need (from axe-core's aria-roles, dpub-roles and
/// graphics-roles standards, axe's deliberate spec differences included). Rules look roles up,
/// never hard-code them.
public struct ARIARole: Sendable, Hashable {
    /// The facts live in one shared, immutable object: rules look roles up for nearly every
    /// element, and copying a dozen fields (seven arrays) out of the table each time cost more
    /// than the lookup.
    private final class Facts: Sendable {
        let name: String
        let type: String
        let kind: RoleKind
        let superclassRoles: [String]
        let requiredAttributes: [String]
        let allowedAttributes: [String]
        let prohibitedAttributes: [String]
        let requiredContext: [String]
        let requiredOwned: [String]
        let nameRequired: Bool
        let nameFromContent: Bool
        let childrenPresentational: Bool
        let deprecated: Bool
        let isDPUB: Bool
        let isGraphics: Bool

        init(
            name: String, type: String, superclass: [String], required: [String], allowed: [String],
            prohibited: [String], context: [String], owned: [String], nameRequired: Bool, nameFromContent: Bool,
            childrenPresentational: Bool, deprecated: Bool
        ) {
            self.name = name
            self.type = type
            self.kind = RoleKind(rawValue: type) ?? .structure
            self.superclassRoles = superclass
            self.requiredAttributes = required
            self.allowedAttributes = allowed
            self.prohibitedAttributes = prohibited
            self.requiredContext = context
            self.requiredOwned = owned
            self.nameRequired = nameRequired
            self.nameFromContent = nameFromContent
            self.childrenPresentational = childrenPresentational
            self.deprecated = deprecated
            self.isDPUB = name.hasPrefix("doc-")
            self.isGraphics = name.hasPrefix("graphics-")
        }
    }

    private let facts: Facts

    public var name: String { facts.name }
    /// axe's role type, verbatim ("widget", "landmark", ..., or a role name for some DPUB roles).
    public var type: String { facts.type }
    public var kind: RoleKind { facts.kind }
    /// Direct superclass roles (ARIA's taxonomy); `superclassChain` walks them all.
    public var superclassRoles: [String] { facts.superclassRoles }
    /// States and properties an element with this role must have.
    public var requiredAttributes: [String] { facts.requiredAttributes }
    /// Role-specific states and properties it may have, besides the global ones and the required ones.
    public var allowedAttributes: [String] { facts.allowedAttributes }
    /// Global attributes this role does not support (naming on generic-like roles).
    public var prohibitedAttributes: [String] { facts.prohibitedAttributes }
    /// Roles one of which must be an ancestor in the accessibility tree (ARIA's "required context").
    public var requiredContext: [String] { facts.requiredContext }
    /// Roles of which the element must own at least one (ARIA's "required owned elements").
    public var requiredOwned: [String] { facts.requiredOwned }
    /// axe-core's `accessibleNameRequired`: an element with this role must have a name.
    public var nameRequired: Bool { facts.nameRequired }
    /// Whether the role can take its name from its content.
    public var nameFromContent: Bool { facts.nameFromContent }
    /// Whether the role's descendants are presentational (e.g. `button`, `img`).
    public var childrenPresentational: Bool { facts.childrenPresentational }
    public var deprecated: Bool { facts.deprecated }
    public var isDPUB: Bool { facts.isDPUB }
    public var isGraphics: Bool { facts.isGraphics }

    init(
        _ name: String, _ type: String, superclass: [String], required: [String] = [], allowed: [String] = [],
        prohibited: [String] = [], context: [String] = [], owned: [String] = [], nameRequired: Bool = false,
        nameFromContent: Bool = false, childrenPresentational: Bool = false, deprecated: Bool = false
    ) {
        facts = Facts(
            name: name, type: type, superclass: superclass, required: required, allowed: allowed, prohibited: prohibited,
            context: context, owned: owned, nameRequired: nameRequired, nameFromContent: nameFromContent,
            childrenPresentational: childrenPresentational, deprecated: deprecated)
    }

    // Equality and hashing by value, as when the fields were stored here.
    public static func == (lhs: ARIARole, rhs: ARIARole) -> Bool {
        lhs.facts === rhs.facts
            || (lhs.name == rhs.name && lhs.type == rhs.type && lhs.superclassRoles == rhs.superclassRoles
                && lhs.requiredAttributes == rhs.requiredAttributes && lhs.allowedAttributes == rhs.allowedAttributes
                && lhs.prohibitedAttributes == rhs.prohibitedAttributes && lhs.requiredContext == rhs.requiredContext
                && lhs.requiredOwned == rhs.requiredOwned && lhs.nameRequired == rhs.nameRequired
                && lhs.nameFromContent == rhs.nameFromContent
                && lhs.childrenPresentational == rhs.childrenPresentational && lhs.deprecated == rhs.deprecated)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
    }

    public var isAbstract: Bool { kind == .abstract }

    public var nameSource: NameSource {
        if prohibitedAttributes.contains("aria-label") { return .prohibited }
        return nameFromContent ? .contents : .author
    }

    /// Every attribute an element with this role may carry: global, required and role-specific.
    public var supportedAttributes: Set<String> {
        ARIAAttributes.globalNames.union(requiredAttributes).union(allowedAttributes)
            .subtracting(prohibitedAttributes)
    }

    /// All ancestors in the role taxonomy, nearest first, each once.
    public var superclassChain: [String] {
        var chain: [String] = []
        var pending = superclassRoles
        while !pending.isEmpty {
            let next = pending.removeFirst()
            guard !chain.contains(next) else { continue }
            chain.append(next)
            pending += ARIARoles.role(named: next)?.superclassRoles ?? []
        }
        return chain
    }

    /// Whether this role is `role` or inherits from it.
    public func isSubclass(of role: String) -> Bool { name == role || superclassChain.contains(role) }
}

public enum ARIARoles {
    /// Looks a role up by its (lowercase) name.
    public static func role(named name: String) -> ARIARole? { table[name] }

    /// Every known role, in name order.
    public static var all: [ARIARole] { table.values.sorted { $0.name < $1.name } }

    /// ARIA attributes allowed on every role ("global" states and properties).
    public static var globalAttributes: Set<String> { ARIAAttributes.globalNames }

    static let table: [String: ARIARole] = Dictionary(
        uniqueKeysWithValues: (ariaRoles + dpubRoles + graphicsRoles).map { ($0.name, $0) }
    )

    // The tables below are axe-core's standards data (aria-roles, dpub-roles, graphics-roles as
    // axe-core 4.12 ships them, its deliberate spec differences included), one role a line.

    /// WAI-ARIA 1.2 roles.
    private static let ariaRoles: [ARIARole] = [
        ARIARole("alert", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole(
            "alertdialog", "window", superclass: ["alert", "dialog"], allowed: ["aria-expanded", "aria-modal"],
            nameRequired: true
        ),
        ARIARole(
            "application", "landmark", superclass: ["structure"],
            allowed: ["aria-activedescendant", "aria-expanded"], nameRequired: true
        ),
        ARIARole(
            "article", "structure", superclass: ["document"],
            allowed: ["aria-posinset", "aria-setsize", "aria-expanded"]
        ),
        ARIARole("banner", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("blockquote", "structure", superclass: ["section"]),
        ARIARole(
            "button", "widget", superclass: ["command"], allowed: ["aria-expanded", "aria-pressed"],
            nameRequired: true, nameFromContent: true, childrenPresentational: true
        ),
        ARIARole(
            "caption", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"],
            context: ["figure", "table", "grid", "treegrid"]
        ),
        ARIARole(
            "cell", "structure", superclass: ["section"],
            allowed: ["aria-colindex", "aria-colspan", "aria-rowindex", "aria-rowspan", "aria-expanded"],
            context: ["row"], nameFromContent: true
        ),
        ARIARole(
            "checkbox", "widget", superclass: ["input"], required: ["aria-checked"],
            allowed: ["aria-readonly", "aria-expanded", "aria-required"], nameRequired: true, nameFromContent: true,
            childrenPresentational: true
        ),
        ARIARole("code", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole(
            "columnheader", "structure", superclass: ["cell", "gridcell", "sectionhead"],
            allowed: ["aria-sort", "aria-colindex", "aria-colspan", "aria-expanded", "aria-readonly", "aria-required", "aria-rowindex", "aria-rowspan", "aria-selected"],
            context: ["row"], nameFromContent: true
        ),
        ARIARole(
            "combobox", "widget", superclass: ["select"], required: ["aria-expanded", "aria-controls"],
            allowed: ["aria-owns", "aria-autocomplete", "aria-readonly", "aria-required", "aria-activedescendant", "aria-orientation"],
            nameRequired: true
        ),
        ARIARole("command", "abstract", superclass: ["widget"]),
        ARIARole(
            "comment", "structure", superclass: ["article"], allowed: ["aria-level", "aria-posinset", "aria-setsize"]
        ),
        ARIARole("complementary", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("composite", "abstract", superclass: ["widget"]),
        ARIARole("contentinfo", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("definition", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("deletion", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole(
            "dialog", "window", superclass: ["window"], allowed: ["aria-expanded", "aria-modal"], nameRequired: true
        ),
        ARIARole(
            "directory", "structure", superclass: ["list"], allowed: ["aria-expanded"], nameFromContent: true,
            deprecated: true
        ),
        ARIARole("document", "structure", superclass: ["structure"], allowed: ["aria-expanded"]),
        ARIARole("emphasis", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole("feed", "structure", superclass: ["list"], allowed: ["aria-expanded"], owned: ["article"]),
        ARIARole("figure", "structure", superclass: ["section"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole("form", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole(
            "grid", "composite", superclass: ["composite", "table"],
            allowed: ["aria-level", "aria-multiselectable", "aria-readonly", "aria-activedescendant", "aria-colcount", "aria-expanded", "aria-rowcount"],
            owned: ["rowgroup", "row"]
        ),
        ARIARole(
            "gridcell", "widget", superclass: ["cell", "widget"],
            allowed: ["aria-readonly", "aria-required", "aria-selected", "aria-colindex", "aria-colspan", "aria-expanded", "aria-rowindex", "aria-rowspan"],
            context: ["row"], nameFromContent: true
        ),
        ARIARole("group", "structure", superclass: ["section"], allowed: ["aria-activedescendant", "aria-expanded"]),
        ARIARole(
            "heading", "structure", superclass: ["sectionhead"], required: ["aria-level"],
            allowed: ["aria-expanded"], nameFromContent: true
        ),
        ARIARole(
            "img", "structure", superclass: ["section"], allowed: ["aria-expanded"], nameRequired: true,
            childrenPresentational: true
        ),
        ARIARole("input", "abstract", superclass: ["widget"]),
        ARIARole("insertion", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole("landmark", "abstract", superclass: ["section"]),
        ARIARole(
            "link", "widget", superclass: ["command"], allowed: ["aria-expanded"], nameRequired: true,
            nameFromContent: true
        ),
        ARIARole("list", "structure", superclass: ["section"], allowed: ["aria-expanded"], owned: ["listitem"]),
        ARIARole(
            "listbox", "widget", superclass: ["select"],
            allowed: ["aria-multiselectable", "aria-readonly", "aria-required", "aria-activedescendant", "aria-expanded", "aria-orientation"],
            owned: ["group", "option"], nameRequired: true
        ),
        ARIARole(
            "listitem", "structure", superclass: ["section"],
            allowed: ["aria-level", "aria-posinset", "aria-setsize", "aria-expanded"], context: ["list"],
            nameFromContent: true
        ),
        ARIARole("log", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("main", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("mark", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole("marquee", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole(
            "math", "structure", superclass: ["section"], allowed: ["aria-expanded"], childrenPresentational: true
        ),
        ARIARole(
            "menu", "composite", superclass: ["select"],
            allowed: ["aria-activedescendant", "aria-expanded", "aria-orientation"],
            owned: ["group", "menuitemradio", "menuitem", "menuitemcheckbox", "menu", "separator"]
        ),
        ARIARole(
            "menubar", "composite", superclass: ["menu"],
            allowed: ["aria-activedescendant", "aria-expanded", "aria-orientation"],
            owned: ["group", "menuitemradio", "menuitem", "menuitemcheckbox", "menu", "separator"]
        ),
        ARIARole(
            "menuitem", "widget", superclass: ["command"],
            allowed: ["aria-posinset", "aria-setsize", "aria-expanded"], context: ["menu", "menubar", "group"],
            nameRequired: true, nameFromContent: true
        ),
        ARIARole(
            "menuitemcheckbox", "widget", superclass: ["checkbox", "menuitem"], required: ["aria-checked"],
            allowed: ["aria-expanded", "aria-posinset", "aria-readonly", "aria-setsize"],
            context: ["menu", "menubar", "group"], nameRequired: true, nameFromContent: true,
            childrenPresentational: true
        ),
        ARIARole(
            "menuitemradio", "widget", superclass: ["menuitemcheckbox", "radio"], required: ["aria-checked"],
            allowed: ["aria-expanded", "aria-posinset", "aria-readonly", "aria-setsize"],
            context: ["menu", "menubar", "group"], nameRequired: true, nameFromContent: true,
            childrenPresentational: true
        ),
        ARIARole(
            "meter", "structure", superclass: ["range"], required: ["aria-valuenow"],
            allowed: ["aria-valuemax", "aria-valuemin", "aria-valuetext"], nameRequired: true,
            childrenPresentational: true
        ),
        ARIARole("navigation", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("none", "structure", superclass: ["structure"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole("note", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole(
            "option", "widget", superclass: ["input"],
            allowed: ["aria-selected", "aria-checked", "aria-posinset", "aria-setsize"],
            context: ["group", "listbox"], nameRequired: true, nameFromContent: true, childrenPresentational: true
        ),
        ARIARole("paragraph", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole(
            "presentation", "structure", superclass: ["structure"], prohibited: ["aria-label", "aria-labelledby"]
        ),
        ARIARole(
            "progressbar", "widget", superclass: ["range"],
            allowed: ["aria-expanded", "aria-valuemax", "aria-valuemin", "aria-valuenow", "aria-valuetext"],
            nameRequired: true, childrenPresentational: true
        ),
        ARIARole(
            "radio", "widget", superclass: ["input"], required: ["aria-checked"],
            allowed: ["aria-posinset", "aria-setsize", "aria-required"], nameRequired: true, nameFromContent: true,
            childrenPresentational: true
        ),
        ARIARole(
            "radiogroup", "composite", superclass: ["select"],
            allowed: ["aria-readonly", "aria-required", "aria-activedescendant", "aria-expanded", "aria-orientation"]
        ),
        ARIARole("range", "abstract", superclass: ["widget"]),
        ARIARole("region", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("roletype", "abstract", superclass: []),
        ARIARole(
            "row", "structure", superclass: ["group", "widget"],
            allowed: ["aria-colindex", "aria-level", "aria-rowindex", "aria-selected", "aria-activedescendant", "aria-expanded", "aria-posinset", "aria-setsize"],
            context: ["grid", "rowgroup", "table", "treegrid"],
            owned: ["cell", "columnheader", "gridcell", "rowheader"], nameFromContent: true
        ),
        ARIARole(
            "rowgroup", "structure", superclass: ["structure"], context: ["grid", "table", "treegrid"],
            owned: ["row"], nameFromContent: true
        ),
        ARIARole(
            "rowheader", "structure", superclass: ["cell", "gridcell", "sectionhead"],
            allowed: ["aria-sort", "aria-colindex", "aria-colspan", "aria-expanded", "aria-readonly", "aria-required", "aria-rowindex", "aria-rowspan", "aria-selected"],
            context: ["row"], nameFromContent: true
        ),
        ARIARole(
            "scrollbar", "widget", superclass: ["range"], required: ["aria-valuenow"],
            allowed: ["aria-controls", "aria-orientation", "aria-valuemax", "aria-valuemin", "aria-valuetext"],
            childrenPresentational: true
        ),
        ARIARole("search", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole(
            "searchbox", "widget", superclass: ["textbox"],
            allowed: ["aria-activedescendant", "aria-autocomplete", "aria-multiline", "aria-placeholder", "aria-readonly", "aria-required"],
            nameRequired: true
        ),
        ARIARole("section", "abstract", superclass: ["structure"], nameFromContent: true),
        ARIARole("sectionhead", "abstract", superclass: ["structure"], nameFromContent: true),
        ARIARole("select", "abstract", superclass: ["composite", "group"]),
        ARIARole(
            "separator", "structure", superclass: ["structure", "widget"], required: ["aria-valuenow"],
            allowed: ["aria-valuemax", "aria-valuemin", "aria-orientation", "aria-valuetext"],
            childrenPresentational: true
        ),
        ARIARole(
            "slider", "widget", superclass: ["input", "range"], required: ["aria-valuenow"],
            allowed: ["aria-valuemax", "aria-valuemin", "aria-orientation", "aria-readonly", "aria-required", "aria-valuetext"],
            nameRequired: true, childrenPresentational: true
        ),
        ARIARole(
            "spinbutton", "widget", superclass: ["composite", "input", "range"],
            allowed: ["aria-valuemax", "aria-valuemin", "aria-readonly", "aria-required", "aria-activedescendant", "aria-valuetext", "aria-valuenow"],
            nameRequired: true
        ),
        ARIARole("status", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("strong", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole("structure", "abstract", superclass: ["roletype"]),
        ARIARole("subscript", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole(
            "suggestion", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"],
            owned: ["insertion", "deletion"]
        ),
        ARIARole("superscript", "structure", superclass: ["section"], prohibited: ["aria-label", "aria-labelledby"]),
        ARIARole(
            "switch", "widget", superclass: ["checkbox"], required: ["aria-checked"],
            allowed: ["aria-expanded", "aria-readonly", "aria-required"], nameRequired: true, nameFromContent: true,
            childrenPresentational: true
        ),
        ARIARole(
            "tab", "widget", superclass: ["sectionhead", "widget"],
            allowed: ["aria-posinset", "aria-selected", "aria-setsize", "aria-expanded"], context: ["tablist"],
            nameFromContent: true, childrenPresentational: true
        ),
        ARIARole(
            "table", "structure", superclass: ["section"],
            allowed: ["aria-colcount", "aria-rowcount", "aria-expanded"], owned: ["rowgroup", "row"],
            nameFromContent: true
        ),
        ARIARole(
            "tablist", "composite", superclass: ["composite"],
            allowed: ["aria-level", "aria-multiselectable", "aria-orientation", "aria-activedescendant", "aria-expanded"],
            owned: ["tab"]
        ),
        ARIARole("tabpanel", "structure", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("term", "structure", superclass: ["section"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole("text", "structure", superclass: ["section"], nameFromContent: true),
        ARIARole(
            "textbox", "widget", superclass: ["input"],
            allowed: ["aria-activedescendant", "aria-autocomplete", "aria-multiline", "aria-placeholder", "aria-readonly", "aria-required"],
            nameRequired: true
        ),
        ARIARole("time", "structure", superclass: ["section"]),
        ARIARole("timer", "structure", superclass: ["status"], allowed: ["aria-expanded"]),
        ARIARole(
            "toolbar", "structure", superclass: ["group"],
            allowed: ["aria-orientation", "aria-activedescendant", "aria-expanded"], nameRequired: true
        ),
        ARIARole("tooltip", "structure", superclass: ["section"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole(
            "tree", "composite", superclass: ["select"],
            allowed: ["aria-multiselectable", "aria-required", "aria-activedescendant", "aria-expanded", "aria-orientation"],
            owned: ["group", "treeitem"]
        ),
        ARIARole(
            "treegrid", "composite", superclass: ["grid", "tree"],
            allowed: ["aria-activedescendant", "aria-colcount", "aria-expanded", "aria-level", "aria-multiselectable", "aria-orientation", "aria-readonly", "aria-required", "aria-rowcount"],
            owned: ["rowgroup", "row"]
        ),
        ARIARole(
            "treeitem", "widget", superclass: ["listitem", "option"],
            allowed: ["aria-checked", "aria-expanded", "aria-level", "aria-posinset", "aria-selected", "aria-setsize"],
            context: ["group", "tree"], nameRequired: true, nameFromContent: true
        ),
        ARIARole("widget", "abstract", superclass: ["roletype"]),
        ARIARole("window", "abstract", superclass: ["roletype"]),
    ]

    /// DPUB-ARIA 1.0 roles.
    private static let dpubRoles: [ARIARole] = [
        ARIARole("doc-abstract", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-acknowledgments", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-afterword", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-appendix", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-backlink", "link", superclass: ["link"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole(
            "doc-biblioentry", "listitem", superclass: ["listitem"],
            allowed: ["aria-expanded", "aria-level", "aria-posinset", "aria-setsize"], deprecated: true
        ),
        ARIARole("doc-bibliography", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-biblioref", "link", superclass: ["link"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole("doc-chapter", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-colophon", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-conclusion", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-cover", "img", superclass: ["img"], allowed: ["aria-expanded"]),
        ARIARole("doc-credit", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-credits", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-dedication", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole(
            "doc-endnote", "listitem", superclass: ["listitem"],
            allowed: ["aria-expanded", "aria-level", "aria-posinset", "aria-setsize"], deprecated: true
        ),
        ARIARole("doc-endnotes", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-epigraph", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-epilogue", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-errata", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-example", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-footnote", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-foreword", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-glossary", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-glossref", "link", superclass: ["link"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole("doc-index", "navigation", superclass: ["navigation"], allowed: ["aria-expanded"]),
        ARIARole("doc-introduction", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-noteref", "link", superclass: ["link"], allowed: ["aria-expanded"], nameFromContent: true),
        ARIARole("doc-notice", "note", superclass: ["note"], allowed: ["aria-expanded"]),
        ARIARole(
            "doc-pagebreak", "separator", superclass: ["separator"], allowed: ["aria-expanded", "aria-orientation"],
            childrenPresentational: true
        ),
        ARIARole("doc-pagelist", "navigation", superclass: ["navigation"], allowed: ["aria-expanded"]),
        ARIARole("doc-part", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-preface", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-prologue", "landmark", superclass: ["landmark"], allowed: ["aria-expanded"]),
        ARIARole("doc-pullquote", "none", superclass: ["none"]),
        ARIARole("doc-qna", "section", superclass: ["section"], allowed: ["aria-expanded"]),
        ARIARole("doc-subtitle", "sectionhead", superclass: ["sectionhead"], allowed: ["aria-expanded"]),
        ARIARole("doc-tip", "note", superclass: ["note"], allowed: ["aria-expanded"]),
        ARIARole("doc-toc", "navigation", superclass: ["navigation"], allowed: ["aria-expanded"]),
    ]

    /// Graphics-ARIA roles.
    private static let graphicsRoles: [ARIARole] = [
        ARIARole("graphics-document", "structure", superclass: ["document"], nameRequired: true),
        ARIARole("graphics-object", "structure", superclass: ["group"], nameFromContent: true),
        ARIARole(
            "graphics-symbol", "structure", superclass: ["img"], nameRequired: true, childrenPresentational: true
        ),
    ]
}
