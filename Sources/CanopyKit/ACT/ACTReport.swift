import CanopyDiagnostics
import Foundation

/// `canopy act-report`: runs the W3C ACT test cases of a folder through Canopy's rules and writes
/// the EARL implementation report (`earl.json`) and the consistency table
/// (`act-consistency.md`) into the output folder.
public struct ACTReport: Sendable {
    public struct Outcome: Sendable {
        public let run: ACTRun
        public let messages: [OutcomeLine]
    }

    public init() {}

    public func write(casesFolder: URL, outputFolder: URL, version: String) throws(Diagnostic) -> Outcome {
        let run = ACTRun(testCases: try ACTTestCases(folder: casesFolder))
        let earl = outputFolder.appendingPathComponent("earl.json")
        let table = outputFolder.appendingPathComponent("act-consistency.md")
        var assertions = 0
        do {
            try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
            let report = try EARLReport.json(run, version: version)
            assertions = report.assertions
            try report.data.write(to: earl, options: .atomic)
            try Data(ACTConsistencyTable.markdown(run).utf8).write(to: table, options: .atomic)
        } catch {
            throw Diagnostic(.unreadableFile, "cannot write the ACT report: \(error.localizedDescription)", at: SourceLocation(file: outputFolder.path))
        }
        var messages: [OutcomeLine] = []
        for approved in [true, false] {
            messages.append("\(approved ? "approved" : "proposed") ACT rules: \(run.ratingCounts(approved: approved))")
        }
        messages.append("wrote \(earl.path) (\(assertions) assertions) and \(table.path)")
        return Outcome(run: run, messages: messages)
    }
}
