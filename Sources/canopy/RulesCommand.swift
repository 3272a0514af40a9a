import ArgumentParser
import CanopyKit
import Foundation

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules with their impact, WCAG success criteria and help."
    )

    @Option(name: .long, help: "Output format: text or json.")
    var format: PageCheck.Format = .text

    func run() throws {
        let listing = RuleListing()
        let output = format == .json ? listing.json() : listing.text()
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
