import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Audit HTML files or URLs and print the findings.",
        discussion: "With no FILE or URL, audits a sample page bundled with Canopy. With --config, canopy.yml's rule set, rules and excluded elements apply (flags override them)."
    )

    @Argument(help: "HTML files or http(s) URLs to audit.")
    var sources: [String] = []

    @Flag(name: .long, help: "Audit HTML read from standard input (e.g. a page's DOM saved by a headless browser after its scripts ran).")
    var stdin = false

    @Option(name: .long, help: "With --stdin: the page's address, which its relative stylesheets and frames resolve against.")
    var url: String?

    func validate() throws {
        if stdin && !sources.isEmpty { throw ValidationError("--stdin reads one page from standard input; give no FILE or URL with it.") }
        if url != nil && !stdin { throw ValidationError("--url goes with --stdin: it names where the piped HTML came from.") }
    }

    @OptionGroup var configuration: ConfigurationOption
    @OptionGroup var ruleSelection: RuleSelectionOptions

    @Option(name: .long, help: "Audit only inside elements matching this CSS selector (repeatable).")
    var include: [String] = []

    @OptionGroup var exclusions: ExcludeOptions
    @OptionGroup var styles: StyleOptions

    @Option(name: .long, help: "Output format: text or json (axe-core's result shape).")
    var format: PageCheck.Format = .text

    @Option(name: .long, help: "A page whose content depends on scripts: fail (exit 3, the default), skip, or audit its shell anyway.")
    var clientRendered: PageCheck.ClientRendered?

    func run() throws {
        var options = PageCheck.Options(
            ruleIDs: ruleSelection.ruleIDs ?? [], ruleSetPath: ruleSelection.ruleSetPath, include: include,
            exclude: exclusions.excludeSelectors, format: format
        )
        options.configPath = configuration.config
        var overrides = CrawlOverrides()
        styles.apply(to: &overrides)
        options.styleOverrides = overrides
        options.clientRendered = clientRendered
        options.environment = ProcessInfo.processInfo.environment
        let pageSources: [PageSource]
        if stdin {
            pageSources = [.markup([UInt8](FileHandle.standardInput.readDataToEndOfFile()), url: url)]
        } else {
            pageSources = sources.isEmpty ? [PageSource.bundledSample] : sources.map(PageSource.init(argument:))
        }
        let outcome = PageCheck().run(sources: pageSources, options: options)
        FileHandle.standardOutput.write(Data(outcome.output.utf8))
        emit(outcome.diagnostics.map(OutcomeLine.problem))
        try end(with: outcome.exitStatus)
    }
}

extension PageCheck.Format: ExpressibleByArgument {}
extension PageCheck.ClientRendered: ExpressibleByArgument {}
