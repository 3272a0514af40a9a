/// Every rule Canopy has, by id: the default set's rules first, then the opt-in ones
/// (enabled by `Rules/all.yml` or a team's own set).
public enum RuleCatalog {
    public static let all: [any Rule] = defaultRules + optInRules

    /// The rules `Rules/default.yml` enables.
    public static let defaultRules: [any Rule] = [
        AreaAltRule(),
        ARIACommandNameRule(),
        ARIAInputFieldNameRule(),
        ARIATabNameRule(),
        ARIAToggleFieldNameRule(),
        ARIATooltipNameRule(),
        ButtonNameRule(),
        DefinitionListItemRule(),
        DefinitionListRule(),
        DocumentTitleRule(),
        FrameTitleRule(),
        HTMLHasLangRule(),
        HTMLLangValidRule(),
        ImageAltRule(),
        InputButtonNameRule(),
        InputImageAltRule(),
        LabelRule(),
        LinkNameRule(),
        ListItemRule(),
        ListRule(),
        MetaRefreshRule(),
        MetaViewportRule(),
        RoleImgAltRule(),
        SelectNameRule(),
        SummaryNameRule(),
        SVGImgAltRule(),
        ValidLangRule(),
    ] + ariaValidityRules + structureRules + landmarkRules

    /// Rules outside the default set: noisier, narrower, or mostly needing review without layout.
    public static let optInRules: [any Rule] = optInRulesA + optInRulesB

    public static func rule(withID id: String) -> (any Rule)? {
        all.first { $0.metadata.id == id }
    }
}
