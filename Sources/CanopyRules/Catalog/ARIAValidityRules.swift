extension RuleCatalog {
    /// ARIA validity: roles, attributes and their values, required context and children, aria-hidden.
    static let ariaValidityRules: [any Rule] = [
        ARIAValidAttrRule(),
        ARIARolesRule(),
        ARIADeprecatedRoleRule(),
        ARIAProhibitedAttrRule(),
        ARIARequiredAttrRule(),
        ARIAValidAttrValueRule(),
        ARIAAllowedAttrRule(),
        ARIAConditionalAttrRule(),
        ARIAHiddenBodyRule(),
        ARIAHiddenFocusRule(),
        ARIARequiredParentRule(),
        ARIARequiredChildrenRule(),
    ]
}
