extension RuleSet {
    /// The text of `Rules/default.yml`, bundled so that the default rule set needs no file system.
    /// A test checks that the two are identical: edit both together.
    public static let defaultYAML = """
# Canopy's default rule set: the rules `canopy check` runs unless `--set FILE` names another.
# The format is described in docs/rule-sets.md. Canopy bundles a copy of this file
# (Sources/CanopyRules/RuleSets/DefaultRuleSet.swift); the two must stay identical.
name: default
rules:
  - image-alt
  - input-image-alt
  - area-alt
  - role-img-alt
  - svg-img-alt
  - button-name
  - input-button-name
  - link-name
  - label
  - select-name
  - summary-name
  - frame-title
  - aria-command-name
  - aria-input-field-name
  - aria-toggle-field-name
  - aria-tooltip-name
  - aria-tab-name
  - document-title
  - html-has-lang
  - html-lang-valid
  - valid-lang
  - list
  - listitem
  - definition-list
  - dlitem
  - meta-refresh
  - meta-viewport
  - aria-allowed-attr
  - aria-conditional-attr
  - aria-prohibited-attr
  - aria-required-attr
  - aria-required-children
  - aria-required-parent
  - aria-roles
  - aria-deprecated-role
  - aria-valid-attr
  - aria-valid-attr-value
  - aria-hidden-body
  - aria-hidden-focus
  - td-headers-attr
  - nested-interactive
  - autocomplete-valid
  - tabindex
  - landmark-one-main
  - region
  - page-has-heading-one
  - heading-order
  - empty-heading
  - landmark-unique
  - landmark-no-duplicate-main
  - landmark-no-duplicate-banner
  - landmark-no-duplicate-contentinfo
  - landmark-main-is-top-level
  - image-redundant-alt

"""
}
