/// Every rule Canopy has, by id.
public enum RuleCatalog {
    public static let all: [any Rule] = [
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

    public static func rule(withID id: String) -> (any Rule)? {
        all.first { $0.metadata.id == id }
    }
}
