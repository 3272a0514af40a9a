import ArgumentParser
import CanopyKit
import Foundation

struct CrawlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Crawl a site, audit every page, and record the run.",
        discussion: """
            Reads canopy.yml when --config names it (see docs/configuration.md); flags override \
            the file, and `canopy crawl URL` works with no file at all. Writes the run to the \
            store and results under the reports folder. Ctrl-C stops gracefully: finished pages \
            are kept and the run is marked interrupted.
            """
    )

    @Argument(help: "Start URLs (replace the configuration's `start`).")
    var urls: [String] = []

    @Option(name: .long, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A rule set file (replaces rules.set).", valueName: "file"))
    var ruleSetPath: String?

    @Option(name: .long, help: "Comma-separated rule ids to run, from the rule set.")
    var rules: String?

    @Option(name: .customLong("max-pages"), help: "Most pages to crawl.")
    var maxPages: Int?

    @Option(name: .customLong("max-depth"), help: "Most links to follow from a start URL.")
    var maxDepth: Int?

    @Option(name: .long, help: "Transfers in flight at once.")
    var concurrency: Int?

    @Option(name: .customLong("include"), help: "Crawl only URLs matching this pattern: a path prefix (/shop/) or re:REGEX (repeatable).")
    var includePatterns: [String] = []

    @Option(name: .customLong("exclude-url"), help: "Do not crawl URLs matching this pattern (repeatable).")
    var excludePatterns: [String] = []

    @Option(name: .customLong("exclude"), help: "Leave out elements matching this CSS selector, on every page (repeatable).")
    var excludeSelectors: [String] = []

    @Flag(name: .customLong("no-robots"), help: "Ignore robots.txt (for your own staging site).")
    var ignoreRobots = false

    @Option(name: .long, help: ArgumentHelp("Where reports go (replaces output.reports).", valueName: "folder"))
    var reports: String?

    @Option(name: .long, help: ArgumentHelp("The SQLite run store (replaces output.store).", valueName: "file"))
    var store: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print a line for every page that fails.")
    var verbose = false

    func run() throws {
        var overrides = CrawlOverrides()
        if !urls.isEmpty { overrides.startURLs = urls }
        overrides.ruleSet = ruleSetPath
        overrides.onlyRules = rules.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        overrides.maxPages = maxPages
        overrides.maxDepth = maxDepth
        overrides.concurrency = concurrency
        overrides.includePatterns = includePatterns
        overrides.excludePatterns = excludePatterns
        overrides.excludeSelectors = excludeSelectors
        if ignoreRobots { overrides.robots = false }
        overrides.reports = reports
        overrides.store = store
        let verbosity: Verbosity = quiet ? .quiet : verbose ? .verbose : .normal
        let options = SiteCrawl.Options(
            configPath: config, overrides: overrides, verbosity: verbosity, environment: ProcessInfo.processInfo.environment
        )
        let stopper = SiteCrawl.Stopper()
        let signals = SignalStop(stopper: stopper)
        let outcome = SiteCrawl(progress: .standardError(verbosity: verbosity)).run(options, stopper: stopper)
        withExtendedLifetime(signals) {}
        for message in outcome.messages where !quiet || message.hasPrefix("error") {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
        if outcome.exitStatus != .passed { throw ExitCode(outcome.exitStatus.rawValue) }
    }
}

/// SIGINT and SIGTERM stop the crawl gracefully instead of killing the process, so the pages
/// already audited are recorded and the run is marked interrupted.
final class SignalStop {
    private let sources: [any DispatchSourceSignal]

    init(stopper: SiteCrawl.Stopper) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopper.stop() }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
