extension RuleCatalog {
    /// Page structure: landmarks and regions.
    static let landmarkRules: [any Rule] = [
        LandmarkOneMainRule(),
        LandmarkNoDuplicateMainRule(),
        LandmarkNoDuplicateBannerRule(),
        LandmarkNoDuplicateContentinfoRule(),
        LandmarkMainIsTopLevelRule(),
        LandmarkUniqueRule(),
        RegionRule(),
    ]
}
