import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import Foundation

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Write and tighten the known-issues file `canopy gate` tolerates.",
        discussion: "The file's format is in docs/gate.md.",
        subcommands: [Create.self, Update.self]
    )

    struct SourceOptions: ParsableArguments {
        @Option(name: .customLong("from-run"), help: ArgumentHelp("latest, a run id of the store, or a gate output JSON file.", valueName: "run"))
        var fromRun: String

        @Option(name: .long, help: ArgumentHelp("The SQLite run store; replaces output.store (default: <reports>/canopy.sqlite).", valueName: "file"))
        var store: String?

        @OptionGroup var configuration: ConfigurationOption

        @Flag(name: .customLong("include-incomplete"), help: "Also list \"needs review\" findings.")
        var includeIncomplete = false

        @Option(
            name: .customLong("rewrite"),
            help: ArgumentHelp("A production URL prefix and the deploy's, as given to the gate (repeatable).", valueName: "from=to")
        )
        var rewrites: [String] = []

        var source: BaselineMaintenance.Source {
            BaselineMaintenance.Source(
                fromRun: fromRun, storePath: store, configPath: configuration.config, rewrites: rewrites, environment: ProcessInfo.processInfo.environment
            )
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Write a baseline with every issue of a run or gate output."
        )

        @OptionGroup var source: SourceOptions

        @Option(name: .shortAndLong, help: ArgumentHelp("The baseline file to write.", valueName: "file"))
        var output: String

        @Option(name: .long, help: "A reason recorded on every entry.")
        var reason: String?

        @Option(name: .long, help: ArgumentHelp("An expiry date for every entry.", valueName: "YYYY-MM-DD"))
        var expires: String?

        func run() throws {
            let outcome = BaselineMaintenance().create(
                from: source.source, to: output, includeIncomplete: source.includeIncomplete, reason: reason, expires: expires
            )
            try finish(outcome)
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Remove the entries whose issue is fixed (the ratchet); add new ones only with --add-new."
        )

        @OptionGroup var source: SourceOptions

        @Option(name: .long, help: ArgumentHelp("The baseline to update.", valueName: "file"))
        var baseline: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of in place.", valueName: "file"))
        var output: String?

        @Flag(name: .customLong("add-new"), help: "Also add the source's issues the baseline does not have.")
        var addNew = false

        @Flag(
            name: .customLong("prune-templates"),
            help: "Also remove page-type and component entries that no audited page of theirs shows, when the source audited only part of the site."
        )
        var pruneTemplates = false

        func run() throws {
            let outcome = BaselineMaintenance().update(
                baselinePath: baseline, from: source.source, output: output, addNew: addNew, includeIncomplete: source.includeIncomplete,
                pruneTemplates: pruneTemplates
            )
            try finish(outcome)
        }
    }
}

private func finish(_ outcome: BaselineMaintenance.Outcome) throws {
    emit(outcome.messages)
    try end(with: outcome.exitStatus)
}
