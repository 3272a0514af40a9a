import ArgumentParser
import CanopyHistory
import CanopyKit
import Foundation

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Export, import, check and prune the run store (the site's history).",
        discussion: """
            The store is one SQLite file (default Reports/canopy.sqlite). On a CI runner that is new \
            every week, export it at the end of a run and import it at the start of the next one. \
            Only one process writes a store at a time: a crawl, import or prune refuses to start \
            while another holds it.
            """,
        subcommands: [Export.self, Import.self, Check.self, Prune.self]
    )

    struct Location: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The SQLite run store; replaces output.store (default: Reports/canopy.sqlite).", valueName: "file"))
        var store: String?

        @OptionGroup var configuration: ConfigurationOption

        var value: StoreMaintenance.Location {
            StoreMaintenance.Location(configPath: configuration.config, storePath: store, environment: ProcessInfo.processInfo.environment)
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the whole history to one portable file (gzip-compressed SQLite).",
            discussion: "Safe while a crawl is writing: the file is a consistent snapshot, and a run still being written is marked interrupted in it."
        )

        @OptionGroup var location: Location

        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write, e.g. canopy-store.sqlite.gz.", valueName: "file"))
        var output: String

        func run() throws { try finish(StoreMaintenance().export(location.value, to: output)) }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Make an exported file (or a plain store file) the store, after checking it.",
            discussion: """
                The file is checked (integrity, that it is a Canopy store, its schema) before anything \
                changes; a file from an older Canopy is migrated on the way in. A store that already \
                holds runs is replaced only with --replace.
                """
        )

        @OptionGroup var location: Location

        @Argument(help: ArgumentHelp("The exported file.", valueName: "file"))
        var file: String

        @Flag(name: .long, help: "Replace a store that already holds runs.")
        var replace = false

        @Flag(
            name: .customLong("new-history-if-unusable"),
            help: "When the file is missing, damaged or from a newer Canopy, warn and leave the store as it is (a new history starts) instead of failing: for CI restore steps."
        )
        var newHistoryIfUnusable = false

        func run() throws {
            try finish(StoreMaintenance().importArchive(location.value, from: file, replace: replace, newHistoryIfUnusable: newHistoryIfUnusable))
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the store's integrity and schema; list its runs and size.",
            discussion: "Exits 0 when the store is usable, 2 when it is not (damaged, not a Canopy store, from a newer Canopy)."
        )

        @OptionGroup var location: Location

        func run() throws { try finish(StoreMaintenance().check(location.value)) }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Delete old runs and compact the file.",
            discussion: """
                Keeps the latest complete run always, and the first-seen dates of issues that are \
                still open, so their ages stay true. With both limits, a run goes when either says so.
                """
        )

        @OptionGroup var location: Location

        @Option(name: .customLong("keep-runs"), help: ArgumentHelp("Keep the newest this many complete runs.", valueName: "count"))
        var keepRuns: Int?

        @Option(name: .customLong("older-than"), help: ArgumentHelp("Delete runs that started longer ago than this: 400d, 52w, 36h.", valueName: "age"))
        var olderThan: String?

        func validate() throws {
            guard keepRuns != nil || olderThan != nil else { throw ValidationError("say what to keep: --keep-runs N, --older-than AGE, or both") }
            if let keepRuns, keepRuns < 1 { throw ValidationError("--keep-runs must be at least 1: the latest run is always kept") }
            if let olderThan, RetentionPolicy.age(parsing: olderThan) == nil {
                throw ValidationError("--older-than takes a whole number of hours, days or weeks (36h, 400d, 52w), not \"\(olderThan)\"")
            }
        }

        func run() throws {
            let policy = RetentionPolicy(keepRuns: keepRuns, maximumAge: olderThan.flatMap(RetentionPolicy.age(parsing:)))
            try finish(StoreMaintenance().prune(location.value, policy: policy))
        }
    }
}

private func finish(_ outcome: StoreMaintenance.Outcome) throws {
    emit(outcome.messages, notes: .standardOutput)
    try end(with: outcome.exitStatus)
}
