import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import CanopyRules
import Foundation

struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Audit a deploy's pages and fail on new accessibility problems.",
        discussion: """
            Audits the given pages with the crawl's rules, exclusions and owners, compares the \
            findings with the baseline and applies the policy (canopy.yml `gate:`; see docs/gate.md). \
            Exit codes: 0 passed, 1 new failures, 2 bad usage or configuration, 3 a page that \
            should have been audited could not be (unreachable, an HTTP error, a listed page that \
            is not HTML or redirects to another host): the gate fails, it does not pass. Pages a \
            crawl leaves out by design (a linked PDF, a link leaving the site) are reported as \
            skipped.
            """
    )

    @Argument(help: "Page URLs to audit.")
    var urls: [String] = []

    @OptionGroup var configuration: ConfigurationOption

    @Option(name: .customLong("urls"), help: ArgumentHelp("A file of page URLs, one a line (# comments).", valueName: "file"))
    var urlsFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp("A sitemap listing the pages (rewritten like baseline URLs; cut at limits.max-pages, which the outputs say).", valueName: "url")
    )
    var sitemap: String?

    @Flag(name: .long, help: "Crawl as the configuration says instead of a list of pages.")
    var crawl = false

    @Option(name: .long, help: ArgumentHelp("Known issues to tolerate (replaces gate.baseline).", valueName: "file"))
    var baseline: String?

    @Option(name: .customLong("fail-on"), help: "Lowest impact of a new violation that fails: critical, serious (default), moderate, minor.")
    var failOn: String?

    @Flag(name: .customLong("fail-on-vendors"), help: "Findings inside owners' selectors fail too.")
    var failOnVendors = false

    @Flag(name: .customLong("fail-on-incomplete"), help: "\"Needs review\" findings fail too.")
    var failOnIncomplete = false

    @Option(name: .customLong("rewrite"), help: ArgumentHelp("Map a production URL prefix to the deploy's (repeatable).", valueName: "from=to"))
    var rewrites: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write the gate output JSON (input of `canopy baseline`).", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Write JUnit XML.", valueName: "file"))
    var junit: String?

    @Option(name: .long, help: ArgumentHelp("Write SARIF 2.1.0.", valueName: "file"))
    var sarif: String?

    @Option(name: .long, help: ArgumentHelp("Write a Markdown summary (CI job summary, PR comment).", valueName: "file"))
    var summary: String?

    @OptionGroup var ruleSelection: RuleSelectionOptions
    @OptionGroup var fetching: FetchOptions
    @OptionGroup var styles: StyleOptions

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    func run() throws {
        var options = DeployGate.Options()
        options.configPath = configuration.config
        options.urls = urls
        options.urlsFile = urlsFile
        options.sitemap = sitemap
        options.crawl = crawl
        options.baselinePath = baseline
        if let failOn {
            guard let impact = Impact(rawValue: failOn) else {
                throw ValidationError("--fail-on: expected critical, serious, moderate or minor, found \"\(failOn)\"")
            }
            options.failOn = impact
        }
        if failOnVendors { options.failOnVendors = true }
        if failOnIncomplete { options.failOnIncomplete = true }
        options.rewrites = rewrites
        options.outputPath = output
        options.junitPath = junit
        options.sarifPath = sarif
        options.summaryPath = summary
        ruleSelection.apply(to: &options.overrides)
        fetching.apply(to: &options.overrides)
        styles.apply(to: &options.overrides)
        options.environment = ProcessInfo.processInfo.environment
        let outcome = DeployGate().run(options)
        emit(outcome.messages, quiet: quiet)
        try end(with: outcome.exitStatus)
    }
}
