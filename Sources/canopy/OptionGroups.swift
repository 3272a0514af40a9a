import ArgumentParser
import CanopyCrawl
import CanopyDiagnostics
import CanopyKit
import CanopyStyle
import Foundation

// Options several commands share, declared once (`@OptionGroup`): the same flag has the same
// name, help and meaning in every command that takes it, and lands in the one configuration
// layer (canopy.yml + `CrawlOverrides` + the environment) that every command reads.

/// `--config`: canopy.yml.
struct ConfigurationOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The configuration file (docs/configuration.md); flags override it.", valueName: "file"))
    var config: String?
}

/// `--set` and `--rules`: which rules run.
struct RuleSelectionOptions: ParsableArguments {
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp("A rule set file (YAML or JSON): which rules run and their impacts; replaces rules.set (default: Canopy's default set).", valueName: "file")
    )
    var ruleSetPath: String?

    @Option(name: .long, help: "Comma-separated rule ids to run, from the rule set (default: all of them). See `canopy rules`.")
    var rules: String?

    var ruleIDs: [String]? {
        rules.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    func apply(to overrides: inout CrawlOverrides) {
        overrides.ruleSet = ruleSetPath
        overrides.onlyRules = ruleIDs
    }
}

/// `--viewport`, `--no-styles` and `--no-frames`: what of a page is loaded with it.
struct StyleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The screen media queries are evaluated for, WIDTHxHEIGHT in CSS pixels; replaces styles.viewport (default: 1280x1024).", valueName: "size")
    )
    var viewport: Viewport?

    @Flag(name: .customLong("no-styles"), help: "Do not load linked stylesheets (style elements and attributes still apply); the rules they decide answer 'review'.")
    var noStyles = false

    @Flag(name: .customLong("no-frames"), help: "Do not audit frames with the pages showing them (the `frames` key); a crawl then follows frame sources as pages.")
    var noFrames = false

    func apply(to overrides: inout CrawlOverrides) {
        overrides.viewport = viewport
        if noStyles { overrides.stylesEnabled = false }
        if noFrames { overrides.frames = false }
    }
}

extension Viewport: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `--store` and `--reports`: where the history and the reports are.
struct StorageOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite run store; replaces output.store (default: <reports>/canopy.sqlite).", valueName: "file"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Where reports go; replaces output.reports (default: Reports).", valueName: "folder"))
    var reports: String?

    func apply(to overrides: inout CrawlOverrides) {
        overrides.store = store
        overrides.reports = reports
    }
}

/// Which URLs a crawl follows, and how hard it fetches.
struct CrawlScopeOptions: ParsableArguments {
    @Option(name: .customLong("max-pages"), help: "Most pages to crawl.")
    var maxPages: Int?

    @Option(name: .customLong("max-depth"), help: "Most links to follow from a start URL.")
    var maxDepth: Int?

    @Option(name: .customLong("include"), help: "Crawl only URLs matching this pattern: a path prefix (/shop/) or re:REGEX (repeatable).")
    var includePatterns: [String] = []

    @Option(name: .customLong("exclude-url"), help: "Do not crawl URLs matching this pattern (repeatable).")
    var excludePatterns: [String] = []

    @Flag(name: .customLong("no-robots"), help: "Ignore robots.txt (for your own staging site).")
    var ignoreRobots = false

    func apply(to overrides: inout CrawlOverrides) {
        overrides.maxPages = maxPages
        overrides.maxDepth = maxDepth
        overrides.includePatterns = includePatterns
        overrides.excludePatterns = excludePatterns
        if ignoreRobots { overrides.robots = false }
    }
}

/// `--concurrency`.
struct FetchOptions: ParsableArguments {
    @Option(name: .long, help: "Transfers in flight at once.")
    var concurrency: Int?

    func apply(to overrides: inout CrawlOverrides) {
        overrides.concurrency = concurrency
    }
}

/// `--exclude`: elements left out of every rule, as axe-core's `context.exclude`.
struct ExcludeOptions: ParsableArguments {
    @Option(name: .customLong("exclude"), help: "Leave out elements matching this CSS selector and their subtrees, on every page (repeatable).")
    var excludeSelectors: [String] = []
}

/// `--quiet` and `--verbose`.
struct LogOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print a line for every page that fails.")
    var verbose = false

    var verbosity: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }
}

/// Prints what a command said: problems to standard error always, notes to `notes` unless quiet.
func emit(_ lines: [OutcomeLine], quiet: Bool = false, notes: FileHandle = .standardError) {
    for line in lines where !quiet || line.isProblem {
        (line.isProblem ? FileHandle.standardError : notes).write(Data((line.description + "\n").utf8))
    }
}

/// Ends the command with its exit status (nothing to do for 0).
func end(with status: ExitStatus) throws {
    if status != .passed { throw ExitCode(status.rawValue) }
}
