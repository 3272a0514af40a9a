import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import CanopyReports
import Foundation

@main
struct CanopyCommand: ParsableCommand {
    // Every command names itself: without `commandName` ArgumentParser derives the name from the
    // type with `String(describing:)` at every start, and six subcommands doing so were a fifth of
    // `canopy --version`'s instructions.
    static let configuration = CommandConfiguration(
        commandName: "canopy",
        abstract: "Audit web pages for accessibility with axe-core's rules, without a browser.",
        discussion: """
            Exit codes: 0 passed, 1 accessibility violations found, 2 bad usage or configuration, \
            3 a page could not be audited, 130 or 143 a crawl stopped by SIGINT or SIGTERM.
            """,
        version: CanopyVersion.current,
        subcommands: [
            CrawlCommand.self, CheckCommand.self, RulesCommand.self, ReportCommand.self, DemoCommand.self, GateCommand.self, BaselineCommand.self,
            StoreCommand.self, ACTReportCommand.self,
        ]
    )

    /// Runs like ArgumentParser's own `main`, except that usage errors exit with 2, which is
    /// Canopy's documented code for bad usage (ArgumentParser uses 64).
    static func main() {
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch {
            let exitCode = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let stream = exitCode == .success ? FileHandle.standardOutput : FileHandle.standardError
                stream.write(Data((message + "\n").utf8))
            }
            status = exitCode == .validationFailure ? 2 : exitCode.rawValue
        }
        Foundation.exit(status)
    }
}
