import CanopyHTML
import CanopyRules
import CanopyTestSupport
import Foundation
import Testing

/// W3C's ACT test cases for timed refreshes (../shared/act), run as an evaluator runs them: a
/// failed example must be reported failed, a passed one must not be, an inapplicable one must
/// give the rule nothing to judge. bc659a is meta-refresh's, bisz58 meta-refresh-no-exceptions'.
struct ACTMetaRefreshTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let actRule: String
        let canopyRule: String
        let expected: String
        let file: String
        var testDescription: String { "\(actRule) \(file)" }
    }

    static let act = SharedFixtures.conformance.deletingLastPathComponent().appendingPathComponent("act/act-rules")

    static func examples() -> [Example] {
        let rules = ["bc659a": "meta-refresh", "bisz58": "meta-refresh-no-exceptions"]
        guard let data = FileManager.default.contents(atPath: act.appendingPathComponent("manifest.json").path),
              let manifest = try? JSONSerialization.jsonObject(with: data)
        else { return [] }
        let entries = (manifest as? [[String: Any]]) ?? ((manifest as? [String: Any])?["rules"] as? [[String: Any]]) ?? []
        return entries.flatMap { entry -> [Example] in
            guard let id = entry["ruleId"] as? String, let rule = rules[id], let cases = entry["examples"] as? [[String: Any]] else { return [] }
            return cases.compactMap { example in
                guard let expected = example["expected"] as? String, let file = example["file"] as? String else { return nil }
                return Example(actRule: id, canopyRule: rule, expected: expected, file: file)
            }
        }
    }

    @Test(.enabled(if: SharedFixtures.isAvailable), arguments: examples())
    func example(_ example: Example) throws {
        let html = try String(contentsOf: Self.act.appendingPathComponent(example.file), encoding: .utf8)
        let rule = try #require(RuleCatalog.rule(withID: example.canopyRule))
        let nodes = try #require(Auditor(rules: [rule]).audit(HTMLParser().parse(html: html)).rules.first).nodes
        let failed = nodes.contains { if case .violation = $0.outcome { true } else { false } }
        switch example.expected {
        case "failed": #expect(failed, "expected a violation, got \(nodes.map(\.outcome))")
        case "passed": #expect(!failed && !nodes.isEmpty, "expected a pass, got \(nodes.map(\.outcome))")
        default: #expect(nodes.isEmpty, "expected nothing to judge, got \(nodes.map(\.outcome))")
        }
    }

    @Test(.enabled(if: SharedFixtures.isAvailable)) func casesAreFound() {
        #expect(Self.examples().count == 28)
    }
}
