import CanopyDiagnostics
import CanopyKit
import Foundation
import Testing

/// W3C's rating of an implementation, example outcomes in, rating out.
struct ACTConsistencyRatingTests {
    typealias Examples = [ACTConsistency.ExampleOutcomes]

    /// One procedure's outcomes, as "expected:outcome" pairs.
    static func procedure(_ pairs: [(ACTTestCases.Expected, ACTRun.Outcome)]) -> Examples {
        pairs.map { ACTConsistency.ExampleOutcomes(expected: $0.0, outcomes: [$0.1]) }
    }

    @Test func aFalsePositiveMakesAProcedureInconsistentWhateverElseItCatches() {
        let rating = ACTConsistency.rating(procedures: [Self.procedure([(.failed, .failed), (.passed, .passed), (.inapplicable, .failed)])])
        #expect(rating == .inconsistent)
    }

    @Test func cantTellOnAFailedExampleKeepsItConsistentButAMissDoesNot() {
        #expect(ACTConsistency.rating(procedures: [Self.procedure([(.failed, .failed), (.failed, .cantTell), (.passed, .cantTell)])]) == .consistent)
        #expect(ACTConsistency.rating(procedures: [Self.procedure([(.failed, .failed), (.failed, .passed)])]) == .partial)
        #expect(ACTConsistency.rating(procedures: [Self.procedure([(.failed, .failed), (.failed, .inapplicable)])]) == .partial)
    }

    @Test func cantTellWithoutCatchingIsMinimalOnlyWhenInapplicableExamplesAreRight() {
        let minimal = ACTConsistency.rating(procedures: [Self.procedure([(.failed, .cantTell), (.passed, .cantTell), (.inapplicable, .inapplicable)])])
        #expect(minimal == .minimal)
        #expect(minimal.publishedCategory == .partial)
        #expect(ACTConsistency.rating(procedures: [Self.procedure([(.failed, .cantTell), (.inapplicable, .cantTell)])]) == .inconsistent)
        #expect(ACTConsistency.rating(procedures: [Self.procedure([(.failed, .passed), (.inapplicable, .inapplicable)])]) == .inconsistent)
    }

    @Test func theBestProcedureRatesTheRuleAndPartialOnesArePooled() {
        let catchesFirst = Self.procedure([(.failed, .failed), (.failed, .passed), (.passed, .passed)])
        let catchesSecond = Self.procedure([(.failed, .passed), (.failed, .failed), (.passed, .passed)])
        #expect(ACTConsistency.rating(procedures: [catchesFirst]) == .partial)
        #expect(ACTConsistency.rating(procedures: [catchesFirst, catchesSecond]) == .consistent)
        let wrong = Self.procedure([(.failed, .failed), (.failed, .failed), (.passed, .failed)])
        #expect(ACTConsistency.rating(procedures: [catchesFirst, wrong]) == .partial, "an inconsistent procedure is not pooled")
        #expect(ACTConsistency.rating(procedures: []) == .untested)
    }
}

/// `canopy act-report` on a small folder of test cases laid out as ../shared/act is.
struct ACTReportTests {
    static let titled = "<!DOCTYPE html><html lang=en><head><title>Opening hours</title></head><body><p>Hi</p></body></html>"
    static let untitled = "<!DOCTYPE html><html lang=en><head></head><body><p>Hi</p></body></html>"
    static let drawing = "<svg xmlns=\"http://www.w3.org/2000/svg\"><title>Not an HTML page</title></svg>"

    /// Rule 2779a5 (page title) with a passed, a failed and an inapplicable example, c4a8a4 that
    /// no Canopy rule maps, and a deprecated rule that is left out.
    static func writeCases() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-act-\(UUID().uuidString)")
        let examples = folder.appendingPathComponent("act-rules/2779a5")
        try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
        try titled.write(to: examples.appendingPathComponent("passed-1.html"), atomically: true, encoding: .utf8)
        try untitled.write(to: examples.appendingPathComponent("failed-1.html"), atomically: true, encoding: .utf8)
        try drawing.write(to: examples.appendingPathComponent("inapplicable-1.svg"), atomically: true, encoding: .utf8)
        func example(_ expected: String, _ file: String, _ id: Character) -> [String: Any] {
            ["title": "\(expected) 1", "expected": expected, "file": file, "testcaseId": String(repeating: id, count: 40)]
        }
        let manifest: [String: Any] = [
            "rules": [
                [
                    "ruleId": "2779a5", "ruleName": "HTML page has non-empty title",
                    "examples": [
                        example("passed", "2779a5/passed-1.html", "a"), example("failed", "2779a5/failed-1.html", "b"),
                        example("inapplicable", "2779a5/inapplicable-1.svg", "c"),
                        // The same code twice is one test case to W3C, asserted once.
                        example("failed", "2779a5/failed-1.html", "b"),
                    ],
                ],
                ["ruleId": "c4a8a4", "ruleName": "HTML page title is descriptive", "examples": [example("failed", "2779a5/failed-1.html", "d")]],
                ["ruleId": "old000", "ruleName": "Gone", "examples": [example("failed", "2779a5/failed-1.html", "e")]],
            ]
        ]
        let w3c: [String: Any] = [
            "rules": [
                "2779a5": ["name": "HTML page has non-empty title", "proposed": false, "deprecated": false],
                "c4a8a4": ["name": "HTML page title is descriptive", "proposed": false, "deprecated": false],
                "old000": ["name": "Gone", "proposed": false, "deprecated": true],
            ]
        ]
        let axe: [String: Any] = ["rules": ["document-title": ["actIds": ["2779a5"]], "not-in-canopy": ["actIds": ["c4a8a4"]]]]
        try JSONSerialization.data(withJSONObject: manifest).write(to: folder.appendingPathComponent("act-rules/manifest.json"))
        try JSONSerialization.data(withJSONObject: w3c).write(to: folder.appendingPathComponent("w3c-rules.json"))
        try JSONSerialization.data(withJSONObject: axe).write(to: folder.appendingPathComponent("axe-rules.json"))
        return folder
    }

    @Test func writesOneEARLAssertionPerTestCaseAndRuleAndTheTable() throws {
        let cases = try Self.writeCases()
        defer { try? FileManager.default.removeItem(at: cases) }
        let output = cases.appendingPathComponent("report")
        let outcome = try ACTReport().write(casesFolder: cases, outputFolder: output, version: "9.9.9")
        #expect(outcome.run.rules.map(\.rule.id) == ["2779a5", "c4a8a4"], "the deprecated rule is left out")
        #expect(outcome.messages.first?.description == "approved ACT rules: 1 consistent, 0 partial, 0 inconsistent, 1 untested")

        let earl = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("earl.json"))) as? [String: Any])
        #expect((earl["@context"] as? [String: Any])?["@vocab"] as? String == "http://www.w3.org/ns/earl#")
        let graph = try #require(earl["@graph"] as? [[String: Any]])
        let assertor = try #require(graph.first { ($0["@type"] as? [String])?.contains("Assertor") == true })
        #expect((assertor["release"] as? [String: Any])?["revision"] as? String == "9.9.9")
        let assertions = graph.filter { $0["@type"] as? String == "Assertion" }
        #expect(assertions.count == 3, "three test cases, one mapped rule; the unmapped ACT rule has none")
        var outcomes: [String: String] = [:]
        for assertion in assertions {
            #expect(assertion["assertedBy"] as? String == assertor["@id"] as? String)
            #expect(assertion["mode"] as? String == "earl:automatic")
            let test = try #require(assertion["test"] as? [String: Any])
            #expect(test["title"] as? String == "document-title")
            #expect(test["isPartOf"] as? [String] == ["https://www.w3.org/TR/WCAG22/#page-titled"])
            let source = try #require((assertion["subject"] as? [String: Any])?["source"] as? String)
            // W3C's tools read the rule and the test case from this address.
            #expect(source.wholeMatch(of: #/https://act-rules\.github\.io/testcases/2779a5/[a-z0-9]{40}\.(html|svg)/#) != nil, "\(source)")
            outcomes[URL(string: source)?.lastPathComponent ?? source] = (assertion["result"] as? [String: Any])?["outcome"] as? String
        }
        #expect(outcomes[String(repeating: "a", count: 40) + ".html"] == "earl:passed")
        #expect(outcomes[String(repeating: "b", count: 40) + ".html"] == "earl:failed")
        #expect(outcomes[String(repeating: "c", count: 40) + ".svg"] == "earl:inapplicable", "an SVG document is not an HTML page")

        let table = try String(contentsOf: output.appendingPathComponent("act-consistency.md"), encoding: .utf8)
        #expect(table.contains("| 2779a5 | HTML page has non-empty title | `document-title` | 4 | 2 of 2 | 0 | 0 | 0 | consistent |"))
        #expect(table.contains("| c4a8a4 | HTML page title is descriptive | — | 1 | 0 of 1 | 0 | 0 | 0 | untested |"))
    }

    @Test func aFolderWithoutTestCasesNamesTheFileItLacks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-act-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try ACTReport().write(casesFolder: folder, outputFolder: folder.appendingPathComponent("out"), version: "1")
        } throws: { error in
            (error as? Diagnostic)?.description.contains("act-rules/manifest.json") == true
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "nothing is written")
    }

    @Test func theCommandWritesTheReportAndSaysWhere() throws {
        let cases = try Self.writeCases()
        defer { try? FileManager.default.removeItem(at: cases) }
        let output = cases.appendingPathComponent("cli")
        let ending = try CanopyProcess.run(["act-report", cases.path, "--output", output.path])
        #expect(ending.status == 0, "\(ending.stderr)")
        #expect(ending.stdout.contains("approved ACT rules: 1 consistent"))
        #expect(ending.stdout.contains("(3 assertions)"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("earl.json").path))
        let missing = try CanopyProcess.run(["act-report", cases.appendingPathComponent("nowhere").path, "--output", output.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("manifest.json"))
    }
}
