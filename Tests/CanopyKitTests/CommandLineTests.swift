import CanopyTestSupport
import Foundation
import Testing

/// The built `canopy` binary, run as a user runs it: exit codes and output streams.
struct CommandLineTests {
    static let binary: URL? = {
        // The test bundle sits in the build products folder, next to the executables.
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if folder.lastPathComponent == "MacOS" { folder = folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
        let candidate = folder.appendingPathComponent("canopy")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    func canopy(_ arguments: [String]) throws -> Run {
        let binary = try #require(Self.binary, "the canopy executable is not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func checkWithoutArgumentsAuditsTheBundledSample() throws {
        let run = try canopy(["check"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("sample.html"))
        #expect(run.stdout.contains("image-alt"))
    }

    @Test func exitCodesFollowTheInterface() throws {
        let server = try TestHTTPServer.routes([
            "/ok.html": .html("<!DOCTYPE html><html lang=en><head><title>OK</title></head><body><main><h1>OK</h1><img src=a alt=A></main></body></html>"),
            "/bad.html": .html("<!DOCTYPE html><html><head><title>Bad</title></head><body><img src=a></body></html>"),
        ])
        defer { server.stop() }
        #expect(try canopy(["check", server.url("/ok.html")]).status == 0)
        #expect(try canopy(["check", server.url("/bad.html")]).status == 1)
        let usage = try canopy(["check", "--exclude", "div[", server.url("/ok.html")])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("div["))
        #expect(try canopy(["check", "--format", "yaml"]).status == 2)
        let unreachable = try canopy(["check", server.url("/missing.html")])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.contains("404"))
    }

    @Test func jsonGoesToStandardOutput() throws {
        let run = try canopy(["check", "--format", "json", "--rules", "image-alt"])
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect((json?["violations"] as? [[String: Any]])?.map { $0["id"] as? String } == ["image-alt"])
    }

    @Test func rulesListsEveryRule() throws {
        let run = try canopy(["rules"])
        #expect(run.status == 0)
        for id in ["image-alt", "html-has-lang", "document-title"] { #expect(run.stdout.contains(id)) }
        #expect(run.stdout.contains("WCAG 1.1.1"))
        #expect(run.stdout.hasSuffix("54 rules\n"))
        #expect(!run.stdout.contains("object-alt"), "opt-in rules are off by default")
    }

    @Test func allSetTurnsOnTheOptInRules() throws {
        let allSet = SharedFixtures.repositoryRoot.appendingPathComponent("Rules/all.yml").path
        let run = try canopy(["rules", "--set", allSet])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("82 rules\n"))
        for id in ["object-alt", "bypass", "aria-allowed-role", "skip-link"] { #expect(run.stdout.contains(id + "  [")) }
    }
}
