/// Every rule Canopy has. Each rule registers itself by being declared in its own file under
/// `Rules/` (RuleCatalogPlugin lists them at build time); whether it is in the default set is
/// its own metadata's `enabledByDefault`.
public enum RuleCatalog {
    /// Every rule, by id.
    public static let all: [any Rule] = declaredRules.sorted { $0.metadata.id < $1.metadata.id }

    /// The rules of Canopy's default set (`Rules/default.yml`), by id.
    public static let defaultRules: [any Rule] = all.filter(\.metadata.enabledByDefault)

    /// Rules outside the default set: noisier, narrower, or mostly needing review without layout.
    public static let optInRules: [any Rule] = all.filter { !$0.metadata.enabledByDefault }

    public static func rule(withID id: String) -> (any Rule)? {
        all.first { $0.metadata.id == id }
    }

    /// The two rule set files Canopy ships, derived from the rules' metadata.
    public enum ShippedSet: String, Sendable, CaseIterable {
        /// `Rules/default.yml`: the rules `canopy check` and `canopy crawl` run by default.
        case standard = "default"
        /// `Rules/all.yml`: every rule, the opt-in ones after the default set.
        case all
    }

    /// The text of `Rules/default.yml` or `Rules/all.yml`. The committed files are this text
    /// (a test compares them); `canopy rules --format yaml [--all]` prints it.
    public static func ruleSetFile(_ set: ShippedSet) -> String {
        func list(_ rules: [any Rule]) -> String { rules.map { "  - \($0.metadata.id)\n" }.joined() }
        let regenerate = "Generated from the rules' metadata by `canopy rules --format yaml\(set == .all ? " --all" : "") > Rules/\(set.rawValue).yml`: change a rule's file, then regenerate;"
        switch set {
        case .standard:
            return """
                # Canopy's default rule set: the rules `canopy check` and `canopy crawl` run unless a set is named.
                # \(regenerate)
                # the format is described in docs/rule-sets.md.
                name: default
                rules:
                \(list(defaultRules))
                """
        case .all:
            return """
                # Every rule Canopy has: the default set plus the opt-in rules, which are narrower, noisier,
                # or mostly need a person to review without layout. Use it with `--set Rules/all.yml`, or copy
                # the lines you want into a team's own set.
                # \(regenerate)
                # the format is described in docs/rule-sets.md.
                name: all
                rules:
                  # The default set (Rules/default.yml)
                \(list(defaultRules))  # Opt-in
                \(list(optInRules))
                """
        }
    }
}
