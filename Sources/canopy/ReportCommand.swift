import CanopyDiagnostics
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

    @OptionGroup var configuration: ConfigurationOption
    @OptionGroup var storage: StorageOptions

    func run() throws {
        let outcome = ReportGeneration().run(ReportGeneration.Options(
            configPath: configuration.config, storePath: storage.store, reportsFolder: storage.reports,
            environment: ProcessInfo.processInfo.environment
        ))
        emit(outcome.messages, notes: .standardOutput)
        try end(with: outcome.exitStatus)
    }
}
