import Foundation

/// Locates `../shared/` (the provided conformance material) beside the repository.
public enum SharedFixtures {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let conformance = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: conformance.path) }

    public static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: conformance.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// A fixture fragment in the page axe-core's runner builds around it.
    public static func wrap(_ fragment: String) -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title></title></head>
        <body><div id="fixture">\(fragment)</div></body></html>
        """
    }
}
