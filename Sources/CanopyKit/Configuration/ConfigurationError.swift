/// Why a crawl configuration cannot be used, located as precisely as possible:
/// `canopy.yml:12: limits.max-pages: expected a whole number of at least 1, found "lots"`.
/// Command-line overrides report the file as `<command line>` and no line.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable, Sendable {
    public static let commandLine = "<command line>"

    /// The file as the user named it.
    public let file: String
    /// 1-based line of the offending node; nil when the problem is the file as a whole.
    public let line: Int?
    /// Where in the document, e.g. `limits.max-pages`, `exclude-by-url[1].selectors[0]`; empty for the whole file.
    public let keyPath: String
    public let message: String

    public init(file: String, line: Int?, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }
}
