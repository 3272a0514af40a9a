import CanopyHistory
import CanopyTestSupport
import Foundation
import Testing

/// `canopy gate` and `canopy baseline` as a pipeline runs them: the built binary, its argument
/// parsing, its exit codes and what it prints on standard error.
@Suite("canopy gate and canopy baseline on the command line")
struct GateCommandLineTests {
    let cli = CommandLineTests()

    static let routes: [String: TestHTTPResponse] = [
        "/ok": .html(#"<!doctype html><html lang="en"><head><title>OK</title></head><body><main><h1>OK</h1><img src="a.png" alt="A"></main></body></html>"#),
        "/bad": .html(#"<!doctype html><html lang="en"><head><title>Bad</title></head><body><main><h1>Bad</h1><img src="a.png"></main></body></html>"#),
    ]

    /// A temporary folder, removed when the test's value goes away.
    final class Folder {
        let path = NSTemporaryDirectory() + "canopy-gate-cli-\(UUID().uuidString)"
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { path + "/" + name }
    }

    @Test("gate exits 0 when nothing fails, 1 on a new failure, 3 when a page cannot be audited")
    func gateExitCodes() throws {
        let server = try TestHTTPServer.routes(Self.routes)

        let passed = try cli.canopy(["gate", server.url("/ok")])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stderr.hasPrefix("canopy gate: passed"))

        let failed = try cli.canopy(["gate", server.url("/ok"), server.url("/bad")])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("new: image-alt"))
        #expect(failed.stderr.contains(server.url("/bad")))

        let missing = try cli.canopy(["gate", server.url("/bad"), server.url("/missing")])
        #expect(missing.status == 3, "\(missing.stderr)")
        #expect(missing.stderr.contains("could not audit \(server.url("/missing")): HTTP 404"))

        let quiet = try cli.canopy(["gate", "-q", server.url("/bad")])
        #expect(quiet.status == 1)
        #expect(quiet.stderr.isEmpty)
    }

    @Test("gate exits 2 on bad usage: an unknown flag, a bad value, no pages, a bad baseline file named in the message")
    func gateUsageErrors() throws {
        let server = try TestHTTPServer.routes(Self.routes)
        let folder = try Folder()
        let page = server.url("/ok")

        let unknownFlag = try cli.canopy(["gate", "--fail-fast", page])
        #expect(unknownFlag.status == 2)
        #expect(unknownFlag.stderr.contains("--fail-fast"))

        let badImpact = try cli.canopy(["gate", "--fail-on", "severe", page])
        #expect(badImpact.status == 2)
        #expect(badImpact.stderr.contains("--fail-on: expected critical, serious, moderate or minor, found \"severe\""))

        let noPages = try cli.canopy(["gate"])
        #expect(noPages.status == 2)
        #expect(noPages.stderr.contains("say which pages to gate"))

        let badRewrite = try cli.canopy(["gate", "--rewrite", "www.example.com", page])
        #expect(badRewrite.status == 2)
        #expect(badRewrite.stderr.contains("expected FROM=TO"))

        let notJSON = folder.file("baseline.json")
        try "{\"version\": 1, \"entries\": [".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let broken = try cli.canopy(["gate", "--baseline", notJSON, page])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("error: \(notJSON): not a Canopy baseline"), "\(broken.stderr)")

        let absent = folder.file("nowhere.json")
        let missing = try cli.canopy(["gate", "--baseline", absent, page])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error: \(absent): no such baseline file"))
        #expect(server.requests.isEmpty, "a usage error stops the gate before it fetches anything")
    }

    @Test("baseline create and update from a gate output; with the baseline, the gate passes")
    func baselineWorkflow() throws {
        let server = try TestHTTPServer.routes(Self.routes)
        let folder = try Folder()
        let pages = [server.url("/ok"), server.url("/bad")]
        let output = folder.file("gate.json"), baseline = folder.file("baseline.json")

        #expect(try cli.canopy(["gate", "--output", output] + pages).status == 1)
        let created = try cli.canopy(["baseline", "create", "--from-run", output, "-o", baseline, "--reason", "known since launch"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.contains("wrote \(baseline): 1 known issues"))

        let gated = try cli.canopy(["gate", "--baseline", baseline, "--output", output, "--junit", folder.file("junit.xml")] + pages)
        #expect(gated.status == 0, "\(gated.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("junit.xml")))

        let updated = try cli.canopy(["baseline", "update", "--baseline", baseline, "--from-run", output])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stderr.contains("0 fixed removed, 1 kept"))
        let pruned = try cli.canopy(["baseline", "update", "--baseline", baseline, "--from-run", output, "--prune-templates"])
        #expect(pruned.status == 0, "\(pruned.stderr)")

        let production = try cli.canopy([
            "baseline", "create", "--from-run", output, "-o", folder.file("production.json"),
            "--rewrite", "https://www.example.com=\(server.baseURL)",
        ])
        #expect(production.status == 0, "\(production.stderr)")
        #expect(try String(contentsOfFile: folder.file("production.json"), encoding: .utf8).contains("\"url\" : \"https://www.example.com/bad\""))

        let noBaseline = try cli.canopy(["baseline", "update", "--baseline", folder.file("absent.json"), "--from-run", output])
        #expect(noBaseline.status == 2)
        #expect(noBaseline.stderr.contains("\(folder.file("absent.json")): no such baseline file"))

        let noOutput = try cli.canopy(["baseline", "create", "--from-run", output])
        #expect(noOutput.status == 2)
        #expect(noOutput.stderr.contains("--output"))

        let notAGateOutput = try cli.canopy(["baseline", "create", "--from-run", baseline, "-o", folder.file("x.json")])
        #expect(notAGateOutput.status == 2)
        #expect(notAGateOutput.stderr.contains("\(baseline): not a Canopy gate output"))
    }
}
