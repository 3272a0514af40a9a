/// Every rule Canopy has, by id.
public enum RuleCatalog {
    public static let all: [any Rule] = [
        DocumentTitleRule(),
        HTMLHasLangRule(),
        ImageAltRule(),
    ]

    public static func rule(withID id: String) -> (any Rule)? {
        all.first { $0.metadata.id == id }
    }
}
