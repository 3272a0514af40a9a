import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import Foundation

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Crawl a bundled sample shop for two simulated weeks and write its trend report.",
        discussion: """
            Serves a small sample shop on 127.0.0.1 (nothing else is contacted), crawls it as week 1, \
            applies week 2's fixes, regressions and unrelated markup changes, crawls it again, and \
            writes the trend report. Each demo starts a fresh history in its folder.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Where the demo's canopy.yml, store and reports go.", valueName: "folder"))
    var output: String = SiteDemo.defaultFolder

    func run() throws {
        let outcome = SiteDemo().run(SiteDemo.Options(folder: output))
        emit(outcome.messages, notes: .standardOutput)
        try end(with: outcome.exitStatus)
    }
}
