import CanopyDiagnostics
import CanopyKit
import CanopyRules
import Foundation
import Testing

/// `--set FILE` for `check` and `rules`: the set decides which rules run and with what impact.
struct RuleSetOptionTests {
    /// Writes a temporary file and returns its path; the caller removes it.
    static func temporaryFile(_ text: String, extension ext: String = "yml") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-set-\(UUID().uuidString).\(ext)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let page = "<!DOCTYPE html><html><head><title>T</title></head><body><img src=a.png></body></html>"

    @Test func ruleSetChoosesTheRulesAndTheirImpact() throws {
        let setPath = try Self.temporaryFile("name: soft\nrules:\n  - id: image-alt\n    impact: minor\n")
        let pagePath = try Self.temporaryFile(Self.page, extension: "html")
        defer {
            try? FileManager.default.removeItem(atPath: setPath)
            try? FileManager.default.removeItem(atPath: pagePath)
        }
        let outcome = PageCheck().run(sources: [.file(pagePath)], options: .init(ruleSetPath: setPath, format: .json))
        #expect(outcome.exitStatus == .violationsFound)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let violations = try #require(json["violations"] as? [[String: Any]])
        #expect(violations.map { $0["id"] as? String } == ["image-alt"])
        #expect(violations.first?["impact"] as? String == "minor")
        // html-has-lang would fail on this page, but the set leaves it out.
        let inapplicable = json["inapplicable"] as? [[String: Any]] ?? []
        let passes = json["passes"] as? [[String: Any]] ?? []
        #expect(!(inapplicable + passes).contains { $0["id"] as? String == "html-has-lang" })
    }

    @Test func rulesOptionPicksFromTheSet() throws {
        let setPath = try Self.temporaryFile("rules: [image-alt, document-title]\n")
        defer { try? FileManager.default.removeItem(atPath: setPath) }
        let picked = PageCheck().run(sources: [.bundledSample], options: .init(ruleIDs: ["image-alt"], ruleSetPath: setPath))
        #expect(picked.exitStatus == .violationsFound)
        let outside = PageCheck().run(sources: [.bundledSample], options: .init(ruleIDs: ["html-has-lang"], ruleSetPath: setPath))
        #expect(outside.exitStatus == .usageError)
        #expect(outside.diagnostics.first?.kind == .usage)
        #expect(outside.diagnostics.first?.description.contains(#""html-has-lang" not in the rule set"#) == true)
    }

    @Test func unknownRuleIDsAreAllNamed() {
        let outcome = PageCheck().run(sources: [.bundledSample], options: .init(ruleIDs: ["image-alt", "nope", "nada"]))
        #expect(outcome.exitStatus == .usageError)
        #expect(outcome.diagnostics == [.usage(#"unknown rules "nope", "nada"; `canopy rules` lists the rules"#)])
    }

    @Test func badRuleSetIsAUsageErrorNamingFileLineAndKey() throws {
        let setPath = try Self.temporaryFile("rules:\n  - image-alt\n  - imag-alt\n")
        defer { try? FileManager.default.removeItem(atPath: setPath) }
        let outcome = PageCheck().run(sources: [.bundledSample], options: .init(ruleSetPath: setPath))
        #expect(outcome.exitStatus == .usageError)
        #expect(outcome.diagnostics == [
            .ruleSet(file: setPath, line: 3, keyPath: "rules[1]", message: "unknown rule \"imag-alt\"; did you mean \"image-alt\"?"),
        ])
        let missing = PageCheck().run(sources: [.bundledSample], options: .init(ruleSetPath: "/nonexistent/set.yml"))
        #expect(missing.exitStatus == .usageError)
        #expect(missing.diagnostics == [.ruleSet(file: "/nonexistent/set.yml", line: nil, keyPath: "", message: "no such file")])
    }

    @Test func defaultRunUsesTheDefaultSet() throws {
        let set = try PageCheck.ruleSet(at: nil)
        #expect(set.name == "default")
        #expect(Set(set.ruleIDs) == Set(RuleCatalog.defaultRules.map(\.metadata.id)))
    }

    @Test func listingShowsTheSetWithOverriddenImpacts() throws {
        let setPath = try Self.temporaryFile("rules:\n  - id: document-title\n    impact: critical\n")
        defer { try? FileManager.default.removeItem(atPath: setPath) }
        let listing = try RuleListing(ruleSetPath: setPath)
        #expect(listing.text().contains("document-title  [critical]"))
        #expect(!listing.text().contains("image-alt"))
        #expect(listing.text().hasSuffix("1 rules\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listing.json().utf8)) as? [[String: Any]])
        #expect(json.map { $0["impact"] as? String } == ["critical"])
    }
}

extension CommandLineTests {
    @Test func setOptionOnCheckAndRules() throws {
        let setPath = try RuleSetOptionTests.temporaryFile("rules:\n  - id: image-alt\n    impact: moderate\n")
        defer { try? FileManager.default.removeItem(atPath: setPath) }
        let rules = try canopy(["rules", "--set", setPath, "--format", "json"])
        #expect(rules.status == 0)
        let listed = try JSONSerialization.jsonObject(with: Data(rules.stdout.utf8)) as? [[String: Any]]
        #expect(listed?.map { $0["id"] as? String } == ["image-alt"])
        #expect(listed?.first?["impact"] as? String == "moderate")

        let check = try canopy(["check", "--set", setPath, "--format", "json"])
        #expect(check.status == 1)
        let result = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let violations = result?["violations"] as? [[String: Any]]
        #expect(violations?.map { $0["impact"] as? String } == ["moderate"])
    }

    @Test func badSetFileExitsWithUsageError() throws {
        let setPath = try RuleSetOptionTests.temporaryFile("rules: [image-alt]\ntags: [no-such-tag]\n")
        defer { try? FileManager.default.removeItem(atPath: setPath) }
        for command in [["rules"], ["check"]] {
            let run = try canopy(command + ["--set", setPath])
            #expect(run.status == 2)
            #expect(run.stderr.contains("\(setPath):2: tags[0]: unknown tag \"no-such-tag\""))
        }
    }
}
