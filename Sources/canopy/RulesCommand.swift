import ArgumentParser
import CanopyDiagnostics
import CanopyKit
import CanopyRules
import Foundation

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules of a rule set with their impact, WCAG success criteria and help.",
        discussion: """
            `--format yaml` prints the rule set file Canopy ships for the listing: \
            `canopy rules --format yaml > Rules/default.yml` and `canopy rules --all --format yaml > Rules/all.yml` \
            write them from the rules' own metadata.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, yaml
    }

    @Option(name: .long, help: "Output format: text, json, or yaml (a rule set file).")
    var format: Format = .text

    @Option(name: .customLong("set"), help: ArgumentHelp("A rule set file (YAML or JSON) whose rules to list (default: Canopy's default set).", valueName: "file"))
    var ruleSetPath: String?

    @Flag(name: .long, help: "List every rule Canopy has, the opt-in ones included.")
    var all = false

    func validate() throws {
        if all, ruleSetPath != nil { throw ValidationError("--all lists every rule; it does not go with --set") }
        if format == .yaml, ruleSetPath != nil { throw ValidationError("--format yaml writes Canopy's own rule set files; it does not go with --set") }
    }

    func run() throws {
        if format == .yaml {
            FileHandle.standardOutput.write(Data(RuleCatalog.ruleSetFile(all ? .all : .standard).utf8))
            return
        }
        let listing: RuleListing
        do {
            listing = all ? .everyRule : try RuleListing(ruleSetPath: ruleSetPath)
        } catch {
            emit([.problem(error)])
            try end(with: error.exitStatus)
            return
        }
        FileHandle.standardOutput.write(Data((format == .json ? listing.json() : listing.text()).utf8))
    }
}
