import CanopyHistory
import CanopyKit
import CanopyStore
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

    /// Runs canopy with `arguments`, in `folder` when given (as a user runs it from a project folder).
    func canopy(_ arguments: [String], in folder: String? = nil, input: String? = nil) throws -> Run {
        let binary = try #require(Self.binary, "the canopy executable is not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
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

    @Test("check --stdin audits piped HTML (a rendered snapshot), its sheets and frames resolved against --url")
    func checkReadsStandardInput() throws {
        let server = try TestHTTPServer.routes([
            "/site.css": TestHTTPResponse(headers: [("Content-Type", "text/css")], body: Array(".menu { display: none }".utf8)),
            "/pay.html": .html("<!DOCTYPE html><html lang=en><head><title>Pay</title></head><body><button id=pay></button></body></html>"),
        ])
        defer { server.stop() }
        let snapshot = #"<!DOCTYPE html><html lang="en"><head><title>App</title><link rel="stylesheet" href="/site.css"></head><body><main><h1>App</h1><div class="menu"><img src="m.png"></div><img id="hero" src="h.png"><iframe id="checkout" title="Checkout" src="/pay.html"></iframe></main></body></html>"#
        let run = try canopy(["check", "--stdin", "--url", server.url("/app"), "--format", "json"], input: snapshot)
        #expect(run.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let violations = try #require(json["violations"] as? [[String: Any]])
        let targets = { (rule: String) in (violations.first { $0["id"] as? String == rule }?["nodes"] as? [[String: Any]])?.compactMap { $0["target"] as? [String] } }
        #expect(targets("image-alt") == [["#hero"]], "the menu the linked sheet hides is not audited")
        #expect(targets("button-name") == [["#checkout", "#pay"]])
        let misuse = try canopy(["check", "--url", server.url("/app")])
        #expect(misuse.status == 2)
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
        #expect(run.stdout.hasSuffix("59 rules\n"))
        #expect(!run.stdout.contains("object-alt"), "opt-in rules are off by default")
    }

    @Test func allSetTurnsOnTheOptInRules() throws {
        let allSet = SharedFixtures.repositoryRoot.appendingPathComponent("Rules/all.yml").path
        let run = try canopy(["rules", "--set", allSet])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("93 rules\n"))
        for id in ["object-alt", "bypass", "aria-allowed-role", "skip-link"] { #expect(run.stdout.contains(id + "  [")) }
    }

    @Test func demoWithoutArgumentsWorksInAnEmptyFolderAndSaysWhereTheReportIs() throws {
        let folder = try ReportTestFolder("cli-demo")
        let run = try canopy(["demo"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        // The report's path as a person would type it from where they ran the demo.
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("report: open Reports/demo/index.html"))
        #expect(lines.contains { $0.hasPrefix("week 2, ") && $0.hasSuffix("3 new and 3 fixed since week 1") })
        #expect(lines.filter { $0.hasPrefix("week ") }.count == DemoShop.story.count)
        for file in ["index.html", "trend.json", "open-issues.csv", "latest-results.jsonl", "canopy.yml", "rules.yml", "canopy.sqlite"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("Reports/demo/\(file)")), "\(file)")
        }
        let trend = try TrendReport.decode(Data(contentsOf: URL(fileURLWithPath: folder.file("Reports/demo/trend.json"))))
        #expect(trend.runs.count == DemoShop.story.count)
    }

    @Test func reportWritesTheReportsOfAStoreACrawlMade() throws {
        let server = try TestHTTPServer.routes([
            "/": .html("<!DOCTYPE html><html lang=en><head><title>Home</title></head><body><main><h1>Home</h1><a href=/a>A</a><img src=logo.png></main></body></html>"),
            "/a": .html("<!DOCTYPE html><html lang=en><head><title>A</title></head><body><main><h1>A</h1><img src=a.png alt=A></main></body></html>"),
        ])
        defer { server.stop() }
        let folder = try ReportTestFolder("cli-report")
        let store = folder.file("history/canopy.sqlite")
        let crawl = try canopy(["crawl", server.url("/"), "--no-robots", "--store", store, "--reports", folder.file("crawl-reports"), "--quiet"])
        #expect(crawl.status == 1, "\(crawl.stderr)")

        let report = try canopy(["report", "--store", store, "--reports", folder.file("out")])
        #expect(report.status == 0, "\(report.stderr)")
        let lines = report.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "run 1: 1 violation issues on 1 page instances, 0 to review")
        #expect(lines.dropFirst().first == "report: " + folder.file("out/index.html"))
        for file in ["index.html", "trend.json", "open-issues.csv", "latest-results.jsonl"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("out/\(file)")), "\(file)")
        }
        let trend = try TrendReport.decode(Data(contentsOf: URL(fileURLWithPath: folder.file("out/trend.json"))))
        #expect(trend.runs.map(\.coverage.crawled) == [2])
        #expect(trend.latest?.openIssues.map(\.ruleId) == ["image-alt"])

        let missing = try canopy(["report", "--store", folder.file("nowhere.sqlite"), "--reports", folder.file("out2")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out2/index.html")))
    }
}
