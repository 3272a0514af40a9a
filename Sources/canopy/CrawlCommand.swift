import CanopyDiagnostics
import ArgumentParser
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

    @OptionGroup var configuration: ConfigurationOption
    @OptionGroup var ruleSelection: RuleSelectionOptions
    @OptionGroup var scope: CrawlScopeOptions
    @OptionGroup var fetching: FetchOptions
    @OptionGroup var exclusions: ExcludeOptions
    @OptionGroup var storage: StorageOptions
    @OptionGroup var styles: StyleOptions

    @Option(
        name: .long, defaultAsFlag: "latest", parsing: .next,
        help: ArgumentHelp(
            "Continue the latest interrupted run of the store, or run <run>, instead of starting a new one; pages it recorded are not fetched again. Needs the same configuration and flags.",
            valueName: "run"
        )
    )
    var resume: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Post the digest to this chat webhook (JSON with a `text` field); replaces notify.url. A failed post never fails the crawl.", valueName: "url")
    )
    var notify: String?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Compare with the store's latest complete run: pages that have not changed (a 304, the same bytes, or a sitemap lastmod before that run) keep its findings without being parsed. On by default (the `incremental` key); a change of rules, configuration or Canopy audits every page anyway."
        )
    )
    var incremental: Bool?

    @OptionGroup var log: LogOptions

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
        ruleSelection.apply(to: &overrides)
        scope.apply(to: &overrides)
        fetching.apply(to: &overrides)
        overrides.excludeSelectors = exclusions.excludeSelectors
        storage.apply(to: &overrides)
        styles.apply(to: &overrides)
        overrides.notifyURL = notify
        overrides.incremental = incremental
        let options = SiteCrawl.Options(
            configPath: configuration.config, overrides: overrides, verbosity: log.verbosity,
            environment: ProcessInfo.processInfo.environment, resume: resumeRequest
        )
        let stopper = SiteCrawl.Stopper()
        let signals = SignalStop(stopper: stopper)
        let outcome = SiteCrawl(progress: .standardError(verbosity: log.verbosity)).run(options, stopper: stopper)
        let received = signals.received
        withExtendedLifetime(signals) {}
        emit(outcome.messages, quiet: log.quiet)
        // As a shell reports a process ended by the signal: 128 + its number (130, 143).
        if outcome.interrupted, let received { throw ExitCode(128 + received) }
        try end(with: outcome.exitStatus)
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
