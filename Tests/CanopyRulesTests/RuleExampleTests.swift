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
        // srcdoc frames are audited with the page; examples load no addresses.
        let result = Auditor(rules: [rule]).audit(document, frames: NoFrameAddresses())
        let nodes = try #require(result.rules.first).nodes
        if testCase.expected == .inapplicable {
            #expect(nodes.isEmpty, "expected no applicable element, got \(nodes.map(\.target))")
            return
        }
        try #require(!nodes.isEmpty, "the rule applied to nothing")
        // The named elements get the example's outcome; every other element the rule applies to passes.
        // A target inside a frame is written "frame selector >>> selector in the frame's document".
        var named: Set<Element> = []
        var namedInFrames: [(frame: Set<Element>, selector: SelectorList)] = []
        for target in testCase.targets {
            let parts = target.components(separatedBy: " >>> ")
            let matched = document.querySelectorAll(try SelectorList(parts[0]))
            #expect(!matched.isEmpty, "\(parts[0]) matches nothing in the example")
            if parts.count == 2 {
                namedInFrames.append((Set(matched), try SelectorList(parts[1])))
            } else {
                named.formUnion(matched)
            }
        }
        func isNamed(_ node: NodeResult) -> Bool {
            guard let frameTarget = node.framePath.first else { return named.contains(node.element) }
            let frame = Set(document.querySelectorAll((try? SelectorList(frameTarget)) ?? (try! SelectorList("*"))))
            return namedInFrames.contains { $0.frame == frame && $0.selector.matches(node.element) }
        }
        for node in nodes {
            let expected = (named.isEmpty && namedInFrames.isEmpty) || isNamed(node) ? testCase.expected : .pass
            switch (expected, node.outcome) {
            case (.pass, .pass), (.violation, .violation), (.incomplete, .incomplete): break
            default: Issue.record("\(node.target): expected \(expected), got \(node.outcome)")
            }
        }
        for element in named where !nodes.contains(where: { $0.element == element && $0.framePath.isEmpty }) {
            Issue.record("\(element): named as failing, but the rule does not apply to it")
        }
        for (frame, selector) in namedInFrames where !nodes.contains(where: { isNamed($0) && $0.framePath.count == 1 }) {
            Issue.record("\(frame) >>> \(selector): named as failing, but the rule does not apply to it")
        }
    }
}

/// Frames of rule examples show only their `srcdoc`: an example fetches nothing.
struct NoFrameAddresses: FrameLoading {
    func frameDocument(at url: String) -> FrameContent { .unavailable(reason: "examples load no addresses") }
}
