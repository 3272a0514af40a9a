/// Canopy's exit codes, part of its interface (README "Exit codes", docs/gate.md).
public enum ExitStatus: Int32, Sendable {
    case passed = 0
    case violationsFound = 1
    case usageError = 2
    case couldNotAudit = 3

    /// When several things end differently, the more serious status wins: a usage error, then a
    /// page that could not be audited, then violations.
    public func combined(with other: ExitStatus) -> ExitStatus {
        func rank(_ status: ExitStatus) -> Int {
            switch status {
            case .passed: 0
            case .violationsFound: 1
            case .couldNotAudit: 2
            case .usageError: 3
            }
        }
        return rank(other) > rank(self) ? other : self
    }
}

/// Where in a file a problem is: `canopy.yml:12: limits.max-pages`.
public struct SourceLocation: Sendable, Equatable {
    /// Command-line flags, named as a file in messages.
    public static let commandLine = "<command line>"

    /// The file as the user named it (or a label such as `<command line>`).
    public var file: String
    /// 1-based line of the offending node; nil when the problem is the file as a whole.
    public var line: Int?
    /// Where in the document, e.g. `limits.max-pages`, `rules[2].impact`; empty for the whole file.
    public var keyPath: String

    public init(file: String, line: Int? = nil, keyPath: String = "") {
        self.file = file
        self.line = line
        self.keyPath = keyPath
    }
}

/// Something that went wrong, located as precisely as Canopy knows, in one shape for every layer:
/// a configuration key, a rule set, a selector, a file, a page, the run store. Its kind decides the
/// exit status, so commands never tell problems apart by their wording, and tests match on kinds.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// canopy.yml or a command-line flag that overrides it.
        case configuration
        /// A rule set file.
        case ruleSet
        /// A command used wrongly: options that do not go together, an unknown rule, a bad value.
        case usage
        /// A file that cannot be read.
        case unreadableFile
        /// A run that cannot be resumed as asked.
        case resume
        /// The run store cannot be opened or used as asked.
        case store
        /// A page that should have been audited and was not: unreachable, an HTTP error, not HTML.
        case pageNotAudited
        /// The crawl or gate could not run, or its results could not be written.
        case couldNotComplete
    }

    public var kind: Kind
    public var location: SourceLocation?
    public var message: String

    public init(_ kind: Kind, _ message: String, at location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// A problem of canopy.yml (or a flag overriding it) at a key of a file.
    public static func configuration(file: String, line: Int?, keyPath: String, message: String) -> Diagnostic {
        Diagnostic(.configuration, message, at: SourceLocation(file: file, line: line, keyPath: keyPath))
    }

    /// A command used wrongly (exit 2).
    public static func usage(_ message: String) -> Diagnostic { Diagnostic(.usage, message) }

    /// A problem of a rule set file at a key.
    public static func ruleSet(file: String, line: Int?, keyPath: String, message: String) -> Diagnostic {
        Diagnostic(.ruleSet, message, at: SourceLocation(file: file, line: line, keyPath: keyPath))
    }

    public var exitStatus: ExitStatus {
        switch kind {
        case .configuration, .ruleSet, .usage, .unreadableFile, .resume, .store: .usageError
        case .pageNotAudited, .couldNotComplete: .couldNotAudit
        }
    }

    /// `canopy.yml:12: limits.max-pages: expected a whole number…`, or the message alone.
    public var description: String {
        guard let location else { return message }
        var place = location.file
        if let line = location.line { place += ":\(line)" }
        return location.keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(location.keyPath): \(message)"
    }

    // The fields of a located problem, by their old names (file, line, key path).
    public var file: String { location?.file ?? "" }
    public var line: Int? { location?.line }
    public var keyPath: String { location?.keyPath ?? "" }
}

/// One line a command has to say: a note for the log, or a problem, printed as `error: …`.
public enum OutcomeLine: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    case note(String)
    case problem(Diagnostic)

    public init(stringLiteral value: String) { self = .note(value) }

    public var description: String {
        switch self {
        case .note(let text): text
        case .problem(let diagnostic): "error: \(diagnostic.description)"
        }
    }

    /// The problem, when the line is one.
    public var problem: Diagnostic? {
        if case .problem(let diagnostic) = self { return diagnostic }
        return nil
    }

    public var isProblem: Bool { problem != nil }
}
