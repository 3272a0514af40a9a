import ArgumentParser
import CanopyKit
import CanopyReports

@main
struct CanopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canopy",
        abstract: "Audit web pages for accessibility with axe-core's rules, without a browser.",
        discussion: """
            Exit codes: 0 passed, 1 accessibility violations found, 2 bad usage or configuration, \
            3 a page could not be audited.
            """,
        version: CanopyVersion.current,
        subcommands: [CheckCommand.self, RulesCommand.self]
    )
}
