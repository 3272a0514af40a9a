import CanopyDiagnostics
import Foundation

/// The W3C ACT rules' test cases as extracted into a folder: `act-rules/manifest.json` (every
/// rule with its examples), `act-rules/<rule>/<expected>-<n>.<ext>`, `act-rules/test-assets/`,
/// `w3c-rules.json` (approved, proposed, deprecated) and `axe-rules.json` (axe-core's `actIds`).
public struct ACTTestCases: Sendable {
    public enum Expected: String, Sendable, CaseIterable {
        case passed, failed, inapplicable
    }

    public struct Example: Sendable {
        public let title: String
        public let expected: Expected
        /// Relative to `examplesFolder`, e.g. `afw4f7/failed-3.html`.
        public let file: String
        /// W3C's id of the test case: the address W3C publishes it under ends with it.
        public let testcaseID: String

        /// Where W3C publishes the test case; an implementation report names its test subjects
        /// by these addresses.
        public func publishedURL(ruleID: String) -> String {
            let fileExtension = (file as NSString).pathExtension
            return "https://act-rules.github.io/testcases/\(ruleID)/\(testcaseID).\(fileExtension.isEmpty ? "html" : fileExtension)"
        }
    }

    public struct Rule: Sendable {
        public let id: String
        public let name: String
        public let approved: Bool
        public let examples: [Example]
        /// axe-core's rules whose `actIds` name this rule.
        public let axeRuleIDs: [String]
    }

    public let folder: URL
    /// Current rules (deprecated ones left out), in the manifest's order.
    public let rules: [Rule]

    public var examplesFolder: URL { folder.appendingPathComponent("act-rules") }

    public init(folder: URL) throws(Diagnostic) {
        self.folder = folder
        let manifestFile = folder.appendingPathComponent("act-rules/manifest.json")
        let manifest = try Self.object(in: manifestFile)
        let w3c = try Self.object(in: folder.appendingPathComponent("w3c-rules.json"))["rules"] as? [String: [String: Any]] ?? [:]
        let axe = try Self.object(in: folder.appendingPathComponent("axe-rules.json"))["rules"] as? [String: [String: Any]] ?? [:]
        guard let entries = manifest["rules"] as? [[String: Any]] else {
            throw Self.malformed(manifestFile, "it has no `rules` list")
        }
        var rules: [Rule] = []
        for entry in entries {
            guard let id = entry["ruleId"] as? String else { throw Self.malformed(manifestFile, "a rule has no `ruleId`") }
            let status = w3c[id]
            if status?["deprecated"] as? Bool == true { continue }
            var examples: [Example] = []
            for example in entry["examples"] as? [[String: Any]] ?? [] {
                guard let expectedText = example["expected"] as? String, let expected = Expected(rawValue: expectedText),
                    let file = example["file"] as? String, let testcaseID = example["testcaseId"] as? String
                else { throw Self.malformed(manifestFile, "an example of \(id) lacks `expected`, `file` or `testcaseId`") }
                examples.append(Example(title: example["title"] as? String ?? file, expected: expected, file: file, testcaseID: testcaseID))
            }
            let axeRuleIDs = axe.filter { ($0.value["actIds"] as? [String] ?? []).contains(id) }.keys.sorted()
            rules.append(
                Rule(
                    id: id, name: status?["name"] as? String ?? entry["ruleName"] as? String ?? id,
                    approved: status.map { $0["proposed"] as? Bool != true } ?? (entry["w3cStatus"] as? String == "approved"),
                    examples: examples, axeRuleIDs: axeRuleIDs
                ))
        }
        self.rules = rules
    }

    private static func object(in file: URL) throws(Diagnostic) -> [String: Any] {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw Diagnostic(.unreadableFile, "cannot read it: \(error.localizedDescription)", at: SourceLocation(file: file.path))
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw malformed(file, "it is not a JSON object")
        }
        return object
    }

    private static func malformed(_ file: URL, _ reason: String) -> Diagnostic {
        Diagnostic(.unreadableFile, "not an ACT test case file: \(reason)", at: SourceLocation(file: file.path))
    }
}
