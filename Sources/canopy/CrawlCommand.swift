import ArgumentParser
import CanopyCrawl
import CanopyKit
import CanopyStore
import Foundation

struct CrawlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Crawl a site, audit every page, and record the run.",
        discussion: """
            Reads canopy.yml when --config names it (see docs/configuration.md); flags override \
            the file, and `canopy crawl URL` works with no file at all. Writes the run to the \
            store and results under the reports folder. Ctrl-C (SIGINT) or SIGTERM stops \
            gracefully: finished pages are kept, the run is marked interrupted and left out of \
            the trend, and the exit status is 130 (SIGINT) or 143 (SIGTERM); a second signal \
            ends the process at once. A crawl killed outright is marked interrupted by the next \
            crawl of the store. `canopy crawl --resume` with the same configuration and flags \
            continues the latest interrupted run without fetching its recorded pages again.
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

    @Option(
        name: .long, defaultAsFlag: "latest", parsing: .next,
        help: ArgumentHelp(
            "Continue the latest interrupted run of the store, or run <run>, instead of starting a new one; pages it recorded are not fetched again. Needs the same configuration and flags.",
            valueName: "run"
        )
    )
    var resume: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print a line for every page that fails.")
    var verbose = false

    func run() throws {
        var startURLs = urls
        var resumeRequest: ResumeRequest?
        switch resume {
        case nil: break
        case "latest"?: resumeRequest = .latest
        case let value?:
            if let number = Int64(value), number > 0 {
                resumeRequest = .run(RunID(number))
            } else if value.contains("://") {
                // `--resume URL`: the optional value took the start URL that followed the flag.
                resumeRequest = .latest
                startURLs.insert(value, at: 0)
            } else {
                throw ValidationError("--resume takes a run number or nothing (the latest interrupted run), not \"\(value)\"")
            }
        }
        var overrides = CrawlOverrides()
        if !startURLs.isEmpty { overrides.startURLs = startURLs }
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
            configPath: config, overrides: overrides, verbosity: verbosity, environment: ProcessInfo.processInfo.environment,
            resume: resumeRequest
        )
        let stopper = SiteCrawl.Stopper()
        let signals = SignalStop(stopper: stopper)
        let outcome = SiteCrawl(progress: .standardError(verbosity: verbosity)).run(options, stopper: stopper)
        let received = signals.received
        withExtendedLifetime(signals) {}
        for message in outcome.messages where !quiet || message.hasPrefix("error") {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
        // As a shell reports a process ended by the signal: 128 + its number (130, 143).
        if outcome.interrupted, let received { throw ExitCode(128 + received) }
        if outcome.exitStatus != .passed { throw ExitCode(outcome.exitStatus.rawValue) }
    }
}

/// SIGINT and SIGTERM stop the crawl gracefully instead of killing the process, so the pages
/// already audited are recorded and the run is marked interrupted. A second signal ends the
/// process at once, for when the graceful stop is not wanted (the next crawl marks the run
/// interrupted then).
final class SignalStop: @unchecked Sendable {
    // @unchecked: `first` is only touched under `lock`.
    private let lock = NSLock()
    private var first: Int32?
    private var sources: [any DispatchSourceSignal] = []

    init(stopper: SiteCrawl.Stopper) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [unowned self] in
                let isFirst = lock.withLock { () -> Bool in
                    guard first == nil else { return false }
                    first = number
                    return true
                }
                guard isFirst else { _exit(128 + number) }
                stopper.stop()
            }
            source.resume()
            return source
        }
    }

    /// The first signal received, if any.
    var received: Int32? { lock.withLock { first } }

    deinit {
        for source in sources { source.cancel() }
    }
}
