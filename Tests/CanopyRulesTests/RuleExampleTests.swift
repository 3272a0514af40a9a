import CanopyHTML
import CanopyRules
import Testing

/// Every rule's own examples, run through the real parser and auditor.
struct RuleExampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let ruleID: String
        let markup: String
        let expected: Expectation
        var testDescription: String { "\(ruleID) \(expected): \(markup.prefix(80))" }
    }

    enum Expectation: String, Sendable { case pass, violation, incomplete, inapplicable }

    static func cases() -> [Case] {
        RuleCatalog.all.flatMap { rule -> [Case] in
            let id = rule.metadata.id, examples = rule.examples
            return examples.passing.map { Case(ruleID: id, markup: $0, expected: .pass) }
                + examples.violating.map { Case(ruleID: id, markup: $0, expected: .violation) }
                + examples.incomplete.map { Case(ruleID: id, markup: $0, expected: .incomplete) }
                + examples.inapplicable.map { Case(ruleID: id, markup: $0, expected: .inapplicable) }
        }
    }

    static func page(_ markup: String) -> String {
        let lowered = markup.lowercased()
        if lowered.hasPrefix("<!doctype") || lowered.hasPrefix("<html") { return markup }
        return "<!DOCTYPE html><html lang=\"en\"><head><title>Example</title></head><body>\(markup)</body></html>"
    }

    /// Some of axe-core's rules never fail, only ask for review (reviewOnFail, or checks that
    /// cannot be sure); those show their needs-review cases instead of violations.
    @Test func everyRuleHasPassingAndFailingExamples() {
        for rule in RuleCatalog.all {
            // server-side-image-map only ever asks for review: its incomplete examples are its all.
            #expect(!rule.examples.passing.isEmpty || !rule.examples.incomplete.isEmpty, "\(rule.metadata.id) has no passing example")
            #expect(
                !rule.examples.violating.isEmpty || !rule.examples.incomplete.isEmpty,
                "\(rule.metadata.id) has neither a violating nor a needs-review example"
            )
        }
    }

    @Test(arguments: cases())
    func example(_ testCase: Case) throws {
        let rule = try #require(RuleCatalog.rule(withID: testCase.ruleID))
        let document = HTMLParser().parse(html: Self.page(testCase.markup))
        let result = Auditor(rules: [rule]).audit(document)
        let nodes = try #require(result.rules.first).nodes
        if testCase.expected == .inapplicable {
            #expect(nodes.isEmpty, "expected no applicable element, got \(nodes.map(\.target))")
            return
        }
        try #require(!nodes.isEmpty, "the rule applied to nothing")
        for node in nodes {
            switch (testCase.expected, node.outcome) {
            case (.pass, .pass), (.violation, .violation), (.incomplete, .incomplete): break
            default: Issue.record("\(node.target): expected \(testCase.expected), got \(node.outcome)")
            }
        }
    }
}
