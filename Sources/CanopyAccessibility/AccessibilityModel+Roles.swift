import CanopyHTML

/// How to read an element's role, after axe-core's `getRole` options.
public struct RoleOptions: Hashable, Sendable {
    /// Read `role` as a token list and take the first valid token (ARIA's fallback roles);
    /// otherwise the whole trimmed value must be one valid role.
    public var fallback: Bool
    /// Accept DPUB `doc-*` roles.
    public var dpub: Bool
    /// Accept abstract roles.
    public var abstracts: Bool

    public init(fallback: Bool, dpub: Bool, abstracts: Bool = false) {
        self.fallback = fallback
        self.dpub = dpub
        self.abstracts = abstracts
    }

    /// Fallback tokens and DPUB roles accepted: what `explicitRole(of:)` and `role(of:)` use.
    public static let standard = RoleOptions(fallback: true, dpub: true)
    /// axe-core's `getRole` without options: the whole attribute is one role, no DPUB roles.
    /// Accessible name computation reads roles this way, as axe does.
    public static let axeDefault = RoleOptions(fallback: false, dpub: false)
}

extension AccessibilityModel {
    // MARK: Roles

    /// The first token of `role` that names a concrete (non-abstract) ARIA role, lowercased.
    public func explicitRole(of element: Element) -> String? {
        explicitRole(of: element, options: .standard)
    }

    /// Cached per element for the two common option sets: rules ask again for each ancestor and
    /// each check, and reading the attribute costs more than the lookup.
    public func explicitRole(of element: Element, options: RoleOptions) -> String? {
        let position = element.position
        if options == .standard {
            if standardExplicitRoles.isEmpty { standardExplicitRoles.allocate(document.elementCount) }
            if let cached = standardExplicitRoles[position] { return cached }
            let role = Self.explicitRole(of: element, options: options)
            standardExplicitRoles.set(role, at: position)
            return role
        }
        if options == .axeDefault {
            if axeDefaultExplicitRoles.isEmpty { axeDefaultExplicitRoles.allocate(document.elementCount) }
            if let cached = axeDefaultExplicitRoles[position] { return cached }
            let role = Self.explicitRole(of: element, options: options)
            axeDefaultExplicitRoles.set(role, at: position)
            return role
        }
        return Self.explicitRole(of: element, options: options)
    }

    static func explicitRole(of element: Element, options: RoleOptions) -> String? {
        guard let value = element.attribute(.role) else { return nil }
        // Nearly every value is one lowercase token: then trimming, lowercasing and splitting
        // (character by character) change nothing.
        if isLowercaseToken(value) { return isAccepted(value, options: options) ? value : nil }
        let normalized = value.trimmingWhitespace().lowercased()
        let candidates = options.fallback ? normalized.split(whereSeparator: \.isHTMLWhitespace).map(String.init) : [normalized]
        return candidates.first { isAccepted($0, options: options) }
    }

    private static func isAccepted(_ name: String, options: RoleOptions) -> Bool {
        guard let role = ARIARoles.role(named: name) else { return false }
        if !options.dpub && role.isDPUB { return false }
        return options.abstracts || !role.isAbstract
    }

    /// Non-empty, and only ASCII lowercase letters and `-` (which role names are made of).
    private static func isLowercaseToken(_ value: String) -> Bool {
        var bytes = 0
        for byte in value.utf8 {
            guard (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D else { return false }
            bytes += 1
        }
        return bytes > 0
    }

    /// The role assistive technology sees: the explicit role, unless it is `none`/`presentation`
    /// and the element is focusable or has a global ARIA attribute (ARIA's presentational role
    /// conflict resolution), in which case the implicit role applies; an implicit role also
    /// yields to a presentational role inherited from a table or list parent (`li` in `ul role=none`).
    public func role(of element: Element) -> String? { role(of: element, options: .standard) }

    public func role(of element: Element, options: RoleOptions) -> String? {
        let position = element.position
        if options == .axeDefault {
            if axeDefaultRoles.isEmpty { axeDefaultRoles.allocate(document.elementCount) }
            if let cached = axeDefaultRoles[position] { return cached }
            let resolved = resolveRole(of: element, options: options)
            // A role that needed a name (section, form, aside) is not kept once names are cut.
            if !isNameBudgetSpent { axeDefaultRoles.set(resolved, at: position) }
            return resolved
        }
        if options == .standard {
            if standardRoles.isEmpty { standardRoles.allocate(document.elementCount) }
            if let cached = standardRoles[position] { return cached }
            let resolved = resolveRole(of: element, options: options)
            // A role that needed a name (section, form, aside) is not kept once names are cut.
            if !isNameBudgetSpent { standardRoles.set(resolved, at: position) }
            return resolved
        }
        if let cached = roleCache[options]?[position] { return cached }
        let resolved = resolveRole(of: element, options: options)
        if !isNameBudgetSpent { roleCache[options, default: [:]][position] = resolved }
        return resolved
    }

    /// The implicit role alone (HTML-AAM, as axe maps it), with the model's focus and name facts.
    public func implicitRole(of element: Element) -> String? {
        guard let kind = ImplicitRoles.kind(of: element) else { return nil }
        // Only roles that depend on `aria-labelledby` text can lead back to the element; guarding
        // just those spares nearly every element two set operations.
        let position = element.position
        if kind.needsName {
            guard resolvingImplicitRole.insert(position).inserted else { return nil }
        }
        defer { if kind.needsName { resolvingImplicitRole.remove(position) } }
        return ImplicitRoles.role(
            of: element, kind: kind, isFocusable: isFocusable, hasAuthorName: hasAuthorGivenName,
            headerScope: { self.tableHeaderScope(of: $0) })
    }

    private func resolveRole(of element: Element, options: RoleOptions) -> String? {
        guard let explicit = explicitRole(of: element, options: options) else {
            return resolveImplicitRole(of: element, options: options)
        }
        if explicit != "none" && explicit != "presentation" { return explicit }
        return hasPresentationalConflict(element) ? resolveImplicitRole(of: element, options: options) : explicit
    }

    private func resolveImplicitRole(of element: Element, options: RoleOptions) -> String? {
        guard let implicit = implicitRole(of: element) else { return nil }
        return inheritedPresentationalRole(of: element, options: options) ?? implicit
    }

    /// Table parts and list items whose structural parent is presentational are presentational too.
    private func inheritedPresentationalRole(of element: Element, options: RoleOptions) -> String? {
        // Names in the chain have 2, 3 or 5 letters: the rest (links above all) need no lookup.
        guard element.isHTML else { return nil }
        let nameLength = element.localName.utf8.count
        guard nameLength == 2 || nameLength == 3 || nameLength == 5 else { return nil }
        guard let allowedParents = Self.presentationChain[element.localName],
            let parent = element.parent, parent.isHTML, allowedParents.contains(parent.localName)
        else { return nil }
        if let parentRole = explicitRole(of: parent, options: options) {
            let presentational = parentRole == "none" || parentRole == "presentation"
            return presentational && !hasPresentationalConflict(parent) ? parentRole : nil
        }
        return inheritedPresentationalRole(of: parent, options: options)
    }

    /// Which parents pass a presentational role down to which children.
    private static let presentationChain: [String: Set<String>] = [
        "td": ["tr"], "th": ["tr"], "tr": ["thead", "tbody", "tfoot", "table"], "thead": ["table"],
        "tbody": ["table"], "tfoot": ["table"], "li": ["ol", "ul"], "dt": ["dl", "div"], "dd": ["dl", "div"],
        "div": ["dl"],
    ]

    /// A presentational role is ignored on elements that are focusable or carry global ARIA attributes.
    public func hasPresentationalConflict(_ element: Element) -> Bool {
        hasGlobalARIAAttribute(element) || isFocusable(element)
    }

    public func hasGlobalARIAAttribute(_ element: Element) -> Bool {
        ARIAAttributes.hasGlobalAttribute(element)
    }

    /// `section` and `form` are landmarks only with a name from `aria-labelledby` or `aria-label`
    /// (what every browser agrees on; `title` is not enough for all of them).
    func hasAuthorGivenName(_ element: Element) -> Bool {
        if !TextNormalization.sanitize(element.attribute("aria-label") ?? "").isEmpty { return true }
        guard element.hasAttribute("aria-labelledby") else { return false }
        var computation = NameComputation(model: self, start: element)
        return !TextNormalization.sanitize(computation.labelledByText(of: element, context: .init())).isEmpty
    }

    /// Whether a `th`/`td` heads its column, its row, or (when neither is clear) both.
    public func tableHeaderScope(of cell: Element) -> TableHeaderScope {
        guard let table = cell.ancestors.first(where: { $0.isHTML && $0.localName == "table" }) else {
            return TableGrid.scope(of: cell)
        }
        let grid = tableGrids[table.position] ?? TableGrid(table: table)
        tableGrids[table.position] = grid
        return grid.scope(of: cell)
    }
}
