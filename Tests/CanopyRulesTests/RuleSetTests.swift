import CanopyDiagnostics
import CanopyHTML
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyRules

/// Rule set files: selection by id and tag, impact overrides, and errors that name file, line and key.
struct RuleSetTests {
    static let defaultFile = SharedFixtures.repositoryRoot.appendingPathComponent("Rules/default.yml")

    func parse(_ yaml: String, file: String = "Rules/team.yml") throws(Diagnostic) -> RuleSet {
        try RuleSet(yaml: yaml, file: file)
    }

    /// The error a rule set text raises, as the user reads it.
    func failure(_ yaml: String, file: String = "Rules/team.yml") -> String? {
        do {
            _ = try parse(yaml, file: file)
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: The default set

    @Test(arguments: RuleCatalog.ShippedSet.allCases)
    func committedRuleSetFilesAreTheRulesMetadata(set: RuleCatalog.ShippedSet) throws {
        let file = Self.defaultFile.deletingLastPathComponent().appendingPathComponent("\(set.rawValue).yml")
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        #expect(
            onDisk == RuleCatalog.ruleSetFile(set),
            "Rules/\(set.rawValue).yml is stale: regenerate it with `swift run canopy rules --format yaml\(set == .all ? " --all" : "") > Rules/\(set.rawValue).yml`"
        )
    }

    @Test func defaultSetListsExactlyTheCatalog() throws {
        let onDisk = try RuleSet.load(contentsOf: Self.defaultFile.path)
        let listed = onDisk.ruleIDs
        #expect(Set(listed).count == listed.count, "a rule is listed twice")
        let catalog = Set(RuleCatalog.defaultRules.map(\.metadata.id))
        #expect(Set(listed).subtracting(catalog).isEmpty, "opt-in or unknown rules in Rules/default.yml: \(Set(listed).subtracting(catalog).sorted())")
        #expect(catalog.subtracting(listed).isEmpty, "registered rules missing from Rules/default.yml: \(catalog.subtracting(listed).sorted())")
        #expect(RuleSet.standard().ruleIDs == listed)
        #expect(onDisk.name == "default")
    }

    @Test func allSetListsEveryRegisteredRuleDefaultsFirst() throws {
        let all = try RuleSet.load(contentsOf: Self.defaultFile.deletingLastPathComponent().appendingPathComponent("all.yml").path)
        #expect(all.name == "all")
        let expected = RuleSet.standard().ruleIDs + RuleCatalog.optInRules.map(\.metadata.id)
        #expect(all.ruleIDs == expected, "Rules/all.yml must list the default set's rules, then the opt-in ones, each by id")
        #expect(RuleCatalog.optInRules.count == 34)
        #expect(Set(RuleCatalog.defaultRules.map(\.metadata.id)).isDisjoint(with: RuleCatalog.optInRules.map(\.metadata.id)))
    }

    @Test func defaultSetHasNoImpactOverrides() throws {
        for rule in RuleSet.standard().rules {
            #expect(rule.metadata == RuleCatalog.rule(withID: rule.metadata.id)?.metadata)
        }
    }

    // MARK: Selection

    @Test func rulesAreSelectedByIDInListedOrder() throws {
        let set = try parse("rules: [image-alt, document-title]")
        #expect(set.ruleIDs == ["image-alt", "document-title"])
        #expect(set.name == "team")
    }

    @Test func tagsSelectEveryRuleCarryingOne() throws {
        let set = try parse("name: text\ntags: [wcag111]")
        let expected = RuleCatalog.all.filter { $0.metadata.tags.contains("wcag111") }.map(\.metadata.id)
        #expect(!expected.isEmpty)
        #expect(set.ruleIDs == expected)
        #expect(set.name == "text")
    }

    @Test func listedRulesComeBeforeTaggedOnesAndDisableRemoves() throws {
        let set = try parse(
            """
            rules:
              - document-title
            tags: [wcag2a]
            disable: [image-alt]
            """
        )
        #expect(set.ruleIDs.first == "document-title")
        #expect(!set.ruleIDs.contains("image-alt"))
        #expect(set.ruleIDs.contains("html-has-lang"))
        #expect(Set(set.ruleIDs).count == set.ruleIDs.count)
    }

    @Test func levelTagsWithoutRulesAreAcceptedAndSelectNothing() throws {
        let set = try parse("tags: [wcag2aaa]")
        #expect(set.ruleIDs == RuleCatalog.all.filter { $0.metadata.tags.contains("wcag2aaa") }.map(\.metadata.id))
    }

    @Test func jsonIsAccepted() throws {
        let set = try parse(#"{"name": "ci", "rules": ["image-alt", {"id": "html-has-lang", "impact": "minor"}]}"#, file: "ci.json")
        #expect(set.name == "ci")
        #expect(set.ruleIDs == ["image-alt", "html-has-lang"])
        #expect(set.rules[1].metadata.impact == .minor)
    }

    // MARK: Impact overrides

    @Test func impactOverrideChangesMetadataOnly() throws {
        let set = try parse(
            """
            rules:
              - id: image-alt
                impact: minor
            """
        )
        let rule = try #require(set.rules.first)
        let original = try #require(RuleCatalog.rule(withID: "image-alt"))
        #expect(rule.metadata.impact == .minor)
        #expect(original.metadata.impact == .critical)
        #expect(rule.metadata.id == original.metadata.id)
        #expect(rule.metadata.tags == original.metadata.tags)
        #expect(rule.metadata.help == original.metadata.help)
        #expect(rule.excludesHidden == original.excludesHidden)
    }

    @Test func impactOverrideFlowsIntoResults() throws {
        let set = try parse("rules:\n  - {id: image-alt, impact: moderate}\n")
        let document = HTMLParser().parse(html: "<!DOCTYPE html><html lang=en><title>T</title><img src=a.png><img src=b.png alt=B></html>")
        let result = Auditor(rules: set.rules).audit(document)
        let violations = try #require(result.violations.first)
        #expect(violations.metadata.impact == .moderate)
        #expect(violations.nodes.count == 1)
        #expect(result.passes.first?.nodes.count == 1)
    }

    @Test func loadReadsAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-ruleset-\(UUID().uuidString).yml").path
        try "rules: [image-alt]\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try RuleSet.load(contentsOf: path).ruleIDs == ["image-alt"])
    }

    // MARK: Errors

    @Test func unknownRuleNamesFileLineAndIndex() {
        let yaml = """
            # team rules
            name: team
            rules:
              - image-alt
              - html-has-lang
              - imag-alt
            """
        #expect(failure(yaml) == #"Rules/team.yml:6: rules[2]: unknown rule "imag-alt"; did you mean "image-alt"?"#)
    }

    @Test func unknownRuleWithoutCloseMatchHasNoSuggestion() {
        #expect(failure("rules: [colour-contrast-of-everything]") == #"Rules/team.yml:1: rules[0]: unknown rule "colour-contrast-of-everything""#)
    }

    @Test func unknownTagIsNamed() {
        #expect(failure("rules: [image-alt]\ntags:\n  - wcag2a\n  - wcag9zz\n") == #"Rules/team.yml:4: tags[1]: unknown tag "wcag9zz": no rule carries it"#)
    }

    @Test func unknownKeysAreNamed() {
        #expect(failure("rules: [image-alt]\nrule: [html-has-lang]\n")?.hasPrefix("Rules/team.yml:2: rule: unknown key") == true)
        #expect(failure("rules:\n  - id: image-alt\n    severity: minor\n")?.hasPrefix("Rules/team.yml:3: rules[0].severity: unknown key") == true)
    }

    @Test func wrongTypesAreNamed() {
        #expect(failure("rules: image-alt") == #"Rules/team.yml:1: rules: expected a list of rule ids, found "image-alt""#)
        #expect(failure("rules: [image-alt]\ndisable: 3\n") == "Rules/team.yml:2: disable: expected a list of rule ids, found a number (3)")
        #expect(failure("name: [a]\nrules: []") == "Rules/team.yml:1: name: expected a string, found a list")
        #expect(failure("rules:\n  - [image-alt]\n") == "Rules/team.yml:2: rules[0]: expected a rule id or a mapping with `id` and `impact`, found a list")
        #expect(failure("rules:\n  - id: image-alt\n    impact: true\n") == "Rules/team.yml:3: rules[0].impact: expected a string, found a boolean (true)")
        #expect(failure("- image-alt") == "Rules/team.yml:1: expected a mapping with a `rules` or `tags` key, found a list")
    }

    @Test func badImpactListsTheLevels() {
        #expect(failure("rules:\n  - id: image-alt\n    impact: severe\n") == #"Rules/team.yml:3: rules[0].impact: unknown impact "severe"; expected one of minor, moderate, serious, critical"#)
    }

    @Test func entryWithoutIDIsAnError() {
        #expect(failure("rules:\n  - impact: minor\n") == "Rules/team.yml:2: rules[0]: missing `id`")
    }

    @Test func duplicatesAreErrors() {
        #expect(failure("rules:\n  - image-alt\n  - id: image-alt\n    impact: minor\n") == #"Rules/team.yml:3: rules[1]: rule "image-alt" is listed twice"#)
        let twice = failure("rules: [image-alt]\nrules: [html-has-lang]\n")
        #expect(twice?.hasPrefix("Rules/team.yml:") == true && twice?.contains("rules") == true, "\(twice ?? "no error")")
    }

    @Test func unknownIDInDisableIsAnError() {
        #expect(failure("tags: [wcag2a]\ndisable:\n  - html-has-lang\n  - nope\n") == #"Rules/team.yml:4: disable[1]: unknown rule "nope""#)
    }

    @Test func emptyOrSelectionlessFilesAreErrors() {
        #expect(failure("") == "Rules/team.yml: the file is empty; expected a mapping with a `rules` or `tags` key")
        #expect(failure("# nothing\n") == "Rules/team.yml: the file is empty; expected a mapping with a `rules` or `tags` key")
        #expect(failure("name: x\n") == "Rules/team.yml:1: the rule set selects nothing: add a `rules` or `tags` key")
    }

    @Test func yamlSyntaxErrorsHaveALine() throws {
        let message = try #require(failure("name: team\nrules: [image-alt\n"))
        #expect(message.hasPrefix("Rules/team.yml:"))
        #expect(message.contains("invalid YAML"))
        let line = Int(message.split(separator: ":")[1])
        #expect(line != nil && line! >= 2)
    }

    @Test func missingFileIsNamed() {
        #expect(throws: Diagnostic.ruleSet(file: "/nonexistent/set.yml", line: nil, keyPath: "", message: "no such file")) {
            try RuleSet.load(contentsOf: "/nonexistent/set.yml")
        }
    }
}
