import CanopyDiagnostics
import ArgumentParser
import CanopyKit
import Foundation

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Crawl a bundled sample shop for eight simulated weeks and write its trend report.",
        discussion: """
            Serves a small sample shop on 127.0.0.1 (nothing else is contacted) and crawls it once \
            per simulated week, eight weeks ending today: fixes, regressions, a product-template \
            redesign, an update of a vendor's chat widget, a week in which the shop's rule set \
            enables one more rule, and unrelated markup changes. Then writes the trend report. Each \
            demo starts a fresh history in its folder.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Where the demo's canopy.yml, rules.yml, store and reports go.", valueName: "folder"))
    var output: String = SiteDemo.defaultFolder

    func run() throws {
        let outcome = SiteDemo().run(SiteDemo.Options(folder: output))
        emit(outcome.messages, notes: .standardOutput)
        try end(with: outcome.exitStatus)
    }
}
