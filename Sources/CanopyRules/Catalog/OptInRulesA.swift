extension RuleCatalog {
    /// Opt-in rules, part A.
    static let optInRulesA: [any Rule] = [
    ]
}
