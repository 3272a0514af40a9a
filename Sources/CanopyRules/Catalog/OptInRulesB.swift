extension RuleCatalog {
    /// Opt-in rules, part B.
    static let optInRulesB: [any Rule] = [
    ]
}
