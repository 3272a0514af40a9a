import ArgumentParser
import CanopyDiagnostics
import CanopyKit
import CanopyReports
import Foundation

struct ACTReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "act-report",
        abstract: "Run the W3C ACT rules' test cases and write Canopy's implementation report.",
        discussion: """
            The folder holds the test cases as extracted from the ACT rules repository: \
            act-rules/manifest.json with the examples beside it, w3c-rules.json and axe-rules.json. \
            Writes earl.json (the EARL report W3C takes, one assertion per test case and Canopy rule) \
            and act-consistency.md (each ACT rule rated as W3C rates implementations).
            """
    )

    @Argument(help: ArgumentHelp("The folder of ACT test cases.", valueName: "folder"))
    var cases: String

    @Option(name: .long, help: ArgumentHelp("Where to write earl.json and act-consistency.md.", valueName: "folder"))
    var output = "Reports/act"

    func run() throws {
        do {
            let outcome = try ACTReport().write(
                casesFolder: URL(fileURLWithPath: cases), outputFolder: URL(fileURLWithPath: output), version: CanopyVersion.current)
            emit(outcome.messages, notes: .standardOutput)
        } catch {
            emit([.problem(error)])
            try end(with: error.exitStatus)
        }
    }
}
