extension RuleCatalog {
    /// Opt-in rules, part A.
    static let optInRulesA: [any Rule] = [
        ARIAAllowedRoleRule(),
        ARIABrailleEquivalentRule(),
        ARIADialogNameRule(),
        ARIAMeterNameRule(),
        ARIAProgressbarNameRule(),
        ARIATextRule(),
        ARIATreeitemNameRule(),
        DuplicateIDARIARule(),
        EmptyTableHeaderRule(),
        FormFieldMultipleLabelsRule(),
        LabelTitleOnlyRule(),
        ObjectAltRule(),
        PresentationRoleConflictRule(),
        THHasDataCellsRule(),
    ]
}
