import ArgumentParser
import CanopyKit
import Foundation

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the trend reports of the run store without crawling.",
        discussion: """
            Writes index.html (the trend report), trend.json (docs/trend-json.md), open-issues.csv \
            and latest-results.jsonl into the reports folder, from the run store alone. `canopy crawl` \
            writes the same files at the end of every run. The store and the folder come from \
            canopy.yml's `output` section when --config names it; flags override it.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The configuration file (for its output section).", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The SQLite run store (default: <reports>/canopy.sqlite).", valueName: "file"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Where the reports go (default: Reports).", valueName: "folder"))
    var reports: String?

    func run() throws {
        let outcome = ReportGeneration().run(ReportGeneration.Options(
            configPath: config, storePath: store, reportsFolder: reports, environment: ProcessInfo.processInfo.environment
        ))
        for message in outcome.messages {
            let stream = message.hasPrefix("error") ? FileHandle.standardError : FileHandle.standardOutput
            stream.write(Data((message + "\n").utf8))
        }
        if outcome.exitStatus != .passed { throw ExitCode(outcome.exitStatus.rawValue) }
    }
}
