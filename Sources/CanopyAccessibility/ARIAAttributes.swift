import CanopyHTML

/// The kind of value an ARIA state or property takes (WAI-ARIA 1.2 value types, as axe-core
/// names them in its aria-attrs table).
public enum ARIAValueType: String, Sendable {
    /// `true` / `false`.
    case boolean
    /// One token from `allowedValues` (true/false/undefined, tristate and other enumerations).
    case token = "nmtoken"
    /// A space-separated list of tokens from `allowedValues`.
    case tokenList = "nmtokens"
    /// One element id.
    case idReference = "idref"
    /// A space-separated list of element ids.
    case idReferenceList = "idrefs"
    case integer = "int"
    case number = "decimal"
    case string
}

/// Facts about one `aria-*` attribute.
public struct ARIAAttribute: Sendable, Hashable {
    public let name: String
    public let valueType: ARIAValueType
    /// The tokens a token or token-list value may use; empty for other types.
    public let allowedValues: [String]
    /// Whether it applies to every role.
    public let isGlobal: Bool
    /// Whether an empty value is acceptable (axe's `allowEmpty`).
    public let allowsEmpty: Bool
    /// Smallest valid integer, for integer attributes that have one.
    public let minimumValue: Int?
    public let deprecated: Bool

    init(
        _ name: String, _ valueType: ARIAValueType, values: [String] = [], global: Bool = false,
        allowsEmpty: Bool = false, minimum: Int? = nil, deprecated: Bool = false
    ) {
        self.name = name
        self.valueType = valueType
        self.allowedValues = values
        self.isGlobal = global
        self.allowsEmpty = allowsEmpty
        self.minimumValue = minimum
        self.deprecated = deprecated
    }

    /// Whether `value` is valid for this attribute, as axe-core's aria-valid-attr-value reads
    /// the value types (idrefs are only checked for form here: whether ids exist is page business).
    public func accepts(_ value: String) -> Bool {
        let trimmed = value.trimmingWhitespace()
        if trimmed.isEmpty { return allowsEmpty }
        switch valueType {
        case .boolean: return trimmed.lowercased() == "true" || trimmed.lowercased() == "false"
        case .token: return allowedValues.contains(trimmed.lowercased())
        case .tokenList:
            return trimmed.split(whereSeparator: \.isHTMLWhitespace).allSatisfy {
                allowedValues.contains($0.lowercased())
            }
        case .idReference, .idReferenceList, .string: return true
        case .integer:
            guard let number = Int(trimmed) else { return false }
            return minimumValue.map { number >= $0 } ?? true
        case .number:
            return Double(trimmed).map { $0.isFinite } ?? false
        }
    }
}

public enum ARIAAttributes {
    /// Looks an attribute up by its (lowercase) name.
    public static func attribute(named name: String) -> ARIAAttribute? { table[name] }

    /// Every known `aria-*` attribute, in name order.
    public static var all: [ARIAAttribute] { table.values.sorted { $0.name < $1.name } }

    /// The global states and properties.
    public static let globalNames: Set<String> = Set(table.values.filter(\.isGlobal).map(\.name))

    /// Whether the element carries any global ARIA attribute (what overrides a presentational role).
    /// Whether an attribute name is in the `aria-` namespace (case-insensitively, as HTML names are).
    public static func isARIAName(_ name: String) -> Bool {
        // Byte by byte: asked for every attribute of every element, so no lowercased copy.
        var bytes = name.utf8.makeIterator()
        for expected in "aria-".utf8 {
            guard let byte = bytes.next() else { return false }
            if byte.asciiLowercased != expected { return false }
        }
        // A combining mark right after "aria-" would make "-" part of another character.
        if let next = bytes.next(), next >= 0x80 { return name.lowercased().hasPrefix("aria-") }
        return true
    }

    public static func hasGlobalAttribute(_ element: Element) -> Bool {
        element.attributeNames.contains { globalNames.contains($0) }
    }

    /// axe-core's aria-attrs table (as axe-core 4.12 ships it); `deprecated` marks what
    /// WAI-ARIA 1.1 deprecated (axe still accepts both).
    static let table: [String: ARIAAttribute] = {
        let attributes: [ARIAAttribute] = [
            ARIAAttribute("aria-activedescendant", .idReference, allowsEmpty: true),
            ARIAAttribute("aria-atomic", .boolean, global: true),
            ARIAAttribute("aria-autocomplete", .token, values: ["inline", "list", "both", "none"]),
            ARIAAttribute("aria-braillelabel", .string, global: true, allowsEmpty: true),
            ARIAAttribute("aria-brailleroledescription", .string, global: true, allowsEmpty: true),
            ARIAAttribute("aria-busy", .boolean, global: true),
            ARIAAttribute("aria-checked", .token, values: ["false", "mixed", "true", "undefined"]),
            ARIAAttribute("aria-colcount", .integer, minimum: -1),
            ARIAAttribute("aria-colindex", .integer, minimum: 1),
            ARIAAttribute("aria-colspan", .integer, minimum: 1),
            ARIAAttribute("aria-controls", .idReferenceList, global: true, allowsEmpty: true),
            ARIAAttribute(
                "aria-current", .token, values: ["page", "step", "location", "date", "time", "true", "false"],
                global: true, allowsEmpty: true
            ),
            ARIAAttribute("aria-describedby", .idReferenceList, global: true, allowsEmpty: true),
            ARIAAttribute("aria-description", .string, global: true, allowsEmpty: true),
            ARIAAttribute("aria-details", .idReference, global: true, allowsEmpty: true),
            ARIAAttribute("aria-disabled", .boolean, global: true),
            ARIAAttribute(
                "aria-dropeffect", .tokenList, values: ["copy", "execute", "link", "move", "none", "popup"],
                global: true, deprecated: true
            ),
            ARIAAttribute("aria-errormessage", .idReference, global: true, allowsEmpty: true),
            ARIAAttribute("aria-expanded", .token, values: ["true", "false", "undefined"]),
            ARIAAttribute("aria-flowto", .idReferenceList, global: true, allowsEmpty: true),
            ARIAAttribute(
                "aria-grabbed", .token, values: ["true", "false", "undefined"], global: true, deprecated: true
            ),
            ARIAAttribute(
                "aria-haspopup", .token, values: ["true", "false", "menu", "listbox", "tree", "grid", "dialog"],
                global: true, allowsEmpty: true
            ),
            ARIAAttribute("aria-hidden", .token, values: ["true", "false", "undefined"], global: true),
            ARIAAttribute("aria-invalid", .token, values: ["grammar", "false", "spelling", "true"], global: true),
            ARIAAttribute("aria-keyshortcuts", .string, global: true, allowsEmpty: true),
            ARIAAttribute("aria-label", .string, global: true, allowsEmpty: true),
            ARIAAttribute("aria-labelledby", .idReferenceList, global: true, allowsEmpty: true),
            ARIAAttribute("aria-level", .integer, minimum: 1),
            ARIAAttribute("aria-live", .token, values: ["assertive", "off", "polite"], global: true),
            ARIAAttribute("aria-modal", .boolean),
            ARIAAttribute("aria-multiline", .boolean),
            ARIAAttribute("aria-multiselectable", .boolean),
            ARIAAttribute("aria-orientation", .token, values: ["horizontal", "undefined", "vertical"]),
            ARIAAttribute("aria-owns", .idReferenceList, global: true, allowsEmpty: true),
            ARIAAttribute("aria-placeholder", .string, allowsEmpty: true),
            ARIAAttribute("aria-posinset", .integer, minimum: 1),
            ARIAAttribute("aria-pressed", .token, values: ["false", "mixed", "true", "undefined"]),
            ARIAAttribute("aria-readonly", .boolean),
            ARIAAttribute(
                "aria-relevant", .tokenList, values: ["additions", "all", "removals", "text"], global: true
            ),
            ARIAAttribute("aria-required", .boolean),
            ARIAAttribute("aria-roledescription", .string, global: true, allowsEmpty: true),
            ARIAAttribute("aria-rowcount", .integer, minimum: -1),
            ARIAAttribute("aria-rowindex", .integer, minimum: 1),
            ARIAAttribute("aria-rowspan", .integer, minimum: 0),
            ARIAAttribute("aria-selected", .token, values: ["false", "true", "undefined"]),
            ARIAAttribute("aria-setsize", .integer, minimum: -1),
            ARIAAttribute("aria-sort", .token, values: ["ascending", "descending", "none", "other"]),
            ARIAAttribute("aria-valuemax", .number),
            ARIAAttribute("aria-valuemin", .number),
            ARIAAttribute("aria-valuenow", .number),
            ARIAAttribute("aria-valuetext", .string, allowsEmpty: true),
        ]
        return Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, $0) })
    }()
}
