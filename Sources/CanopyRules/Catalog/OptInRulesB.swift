extension RuleCatalog {
    /// Opt-in rules, part B.
    static let optInRulesB: [any Rule] = [
        AccesskeysRule(),
        BlinkRule(),
        BypassRule(),
        FrameTitleUniqueRule(),
        HTMLXMLLangMismatchRule(),
        LandmarkBannerIsTopLevelRule(),
        LandmarkContentinfoIsTopLevelRule(),
        MarqueeRule(),
        MetaViewportLargeRule(),
        ScopeAttrValidRule(),
        ServerSideImageMapRule(),
        SkipLinkRule(),
        TableDuplicateNameRule(),
        VideoCaptionRule(),
    ]
}
