import ArgumentParser
import CanopyKit
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Audit HTML files or URLs and print the findings.",
        discussion: "With no FILE or URL, audits a sample page bundled with Canopy."
    )

    @Argument(help: "HTML files or http(s) URLs to audit.")
    var sources: [String] = []

    @Option(name: .long, help: "Comma-separated rule ids to run, from the rule set (default: all of them). See `canopy rules`.")
    var rules: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A rule set file (YAML or JSON): which rules run and their impacts (default: Canopy's default set).", valueName: "file"))
    var ruleSetPath: String?

    @Option(name: .long, help: "Audit only inside elements matching this CSS selector (repeatable).")
    var include: [String] = []

    @Option(name: .long, help: "Leave out elements matching this CSS selector and their subtrees (repeatable).")
    var exclude: [String] = []

    @Option(name: .long, help: "Output format: text or json (axe-core's result shape).")
    var format: PageCheck.Format = .text

    func run() throws {
        let ruleIDs = rules.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
        let options = PageCheck.Options(ruleIDs: ruleIDs, ruleSetPath: ruleSetPath, include: include, exclude: exclude, format: format)
        let pageSources = sources.isEmpty ? [PageSource.bundledSample] : sources.map(PageSource.init(argument:))
        let outcome = PageCheck().run(sources: pageSources, options: options)
        FileHandle.standardOutput.write(Data(outcome.output.utf8))
        for diagnostic in outcome.diagnostics {
            FileHandle.standardError.write(Data((diagnostic + "\n").utf8))
        }
        if outcome.exitStatus != .passed { throw ExitCode(outcome.exitStatus.rawValue) }
    }
}

extension PageCheck.Format: ExpressibleByArgument {}
