import CanopyHTML
import CanopyRules
import Testing

/// Every rule's own examples, run through the real parser and auditor.
struct RuleExampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let ruleID: String
        let markup: String
        /// Selectors of the elements that get `expected`; the rule's other elements must pass.
        let targets: [String]
        let expected: Expectation
        var testDescription: String { "\(ruleID) \(expected): \(markup.prefix(80))" }
    }

    enum Expectation: String, Sendable { case pass, violation, incomplete, inapplicable }

    static func cases() -> [Case] {
        RuleCatalog.all.flatMap { rule -> [Case] in
            let id = rule.metadata.id, examples = rule.examples
            func cases(_ list: [RuleExample], _ expected: Expectation) -> [Case] {
                list.map { Case(ruleID: id, markup: $0.markup, targets: $0.targets, expected: expected) }
            }
            return cases(examples.passing, .pass) + cases(examples.violating, .violation) + cases(examples.incomplete, .incomplete)
                + cases(examples.inapplicable, .inapplicable)
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

    @Test func everyFailingExampleNamesItsFailingElements() {
        for rule in RuleCatalog.all {
            for example in rule.examples.violating + rule.examples.incomplete {
                #expect(!example.targets.isEmpty, "\(rule.metadata.id): say which element fails in \(example.markup)")
            }
            for example in rule.examples.passing + rule.examples.inapplicable {
                #expect(example.targets.isEmpty, "\(rule.metadata.id): a passing or inapplicable example has no failing element")
            }
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
        // The named elements get the example's outcome; every other element the rule applies to passes.
        var named: Set<Element> = []
        for target in testCase.targets {
            let matched = document.querySelectorAll(try SelectorList(target))
            #expect(!matched.isEmpty, "\(target) matches nothing in the example")
            named.formUnion(matched)
        }
        for node in nodes {
            let expected = named.isEmpty || named.contains(node.element) ? testCase.expected : .pass
            switch (expected, node.outcome) {
            case (.pass, .pass), (.violation, .violation), (.incomplete, .incomplete): break
            default: Issue.record("\(node.target): expected \(expected), got \(node.outcome)")
            }
        }
        for element in named where !nodes.contains(where: { $0.element == element }) {
            Issue.record("\(element): named as failing, but the rule does not apply to it")
        }
    }
}
