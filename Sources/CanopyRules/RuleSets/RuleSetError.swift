/// Why a rule set file cannot be used, located as precisely as the file allows:
/// `Rules/team.yml:7: rules[2]: unknown rule "imag-alt"`.
public struct RuleSetError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file as the user named it (or a label such as `<default>` for bundled text).
    public let file: String
    /// 1-based line of the offending node; nil when the problem is the file as a whole.
    public let line: Int?
    /// Where in the document, e.g. `rules[2]`, `rules[0].impact`, `tags[1]`; empty for the whole file.
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
