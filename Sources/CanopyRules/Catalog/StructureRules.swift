extension RuleCatalog {
    /// Structure and interaction: table headers, nested interactive controls, autocomplete, tabindex, headings, redundant alt.
    static let structureRules: [any Rule] = [
        EmptyHeadingRule(),
        ImageRedundantAltRule(),
        TabindexRule(),
        PageHasHeadingOneRule(),
        HeadingOrderRule(),
        AutocompleteValidRule(),
        NestedInteractiveRule(),
        TDHeadersAttrRule(),
    ]
}
