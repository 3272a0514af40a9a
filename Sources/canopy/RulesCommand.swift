import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import Foundation

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules of a rule set with their impact, WCAG success criteria and help."
    )

    @Option(name: .long, help: "Output format: text or json.")
    var format: PageCheck.Format = .text

    @Option(name: .customLong("set"), help: ArgumentHelp("A rule set file (YAML or JSON) whose rules to list (default: Canopy's default set).", valueName: "file"))
    var ruleSetPath: String?

    func run() throws {
        let listing: RuleListing
        do {
            listing = try RuleListing(ruleSetPath: ruleSetPath)
        } catch {
            emit([.problem(error)])
            try end(with: error.exitStatus)
            return
        }
        let output = format == .json ? listing.json() : listing.text()
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
