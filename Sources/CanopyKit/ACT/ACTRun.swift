import CanopyHTML
import CanopyRules
import CanopyStyle
import Foundation

/// Every ACT test case run through the Canopy rules mapped to its ACT rule: axe-core's `actIds`
/// for the rules Canopy shares with axe-core, and a Canopy rule's own `actRules` where axe-core
/// maps none. Each mapped Canopy rule is a *procedure*, in W3C's word, and answers every example
/// of the ACT rule on its own, as an implementation report lists it.
public struct ACTRun: Sendable {
    public enum Outcome: String, Sendable {
        case passed, failed, cantTell, inapplicable
    }

    public struct ExampleResult: Sendable {
        public let example: ACTTestCases.Example
        /// The outcome of each mapped Canopy rule, in the order of `RuleResult.canopyRules`.
        public let outcomes: [Outcome]

        /// The example's outcome with the procedures taken together: failed if any failed, else
        /// "can't tell" if any could not tell, else passed if any passed.
        public var combined: Outcome {
            for outcome in [Outcome.failed, .cantTell, .passed] where outcomes.contains(outcome) { return outcome }
            return .inapplicable
        }
    }

    public struct RuleResult: Sendable {
        public let rule: ACTTestCases.Rule
        public let canopyRules: [String]
        public let examples: [ExampleResult]

        public var consistency: ACTConsistency {
            ACTConsistency.rating(
                procedures: canopyRules.indices.map { index in
                    examples.map { ACTConsistency.ExampleOutcomes(expected: $0.example.expected, outcomes: [$0.outcomes[index]]) }
                })
        }

        public func examples(expected: ACTTestCases.Expected, combined: Outcome) -> [ExampleResult] {
            examples.filter { $0.example.expected == expected && $0.combined == combined }
        }

        /// Passed or inapplicable examples that some procedure reported failed.
        public var falsePositives: [ExampleResult] {
            examples.filter { $0.example.expected != .failed && $0.outcomes.contains(.failed) }
        }
    }

    public let rules: [RuleResult]
    /// The WCAG criteria each mapped Canopy rule reports, from the catalog the run used.
    public let wcagCriteria: [String: [String]]

    /// The approved or the proposed rules, by id.
    public func rules(approved: Bool) -> [RuleResult] {
        rules.filter { $0.rule.approved == approved }.sorted { $0.rule.id < $1.rule.id }
    }

    /// "33 consistent, 0 partial, 0 inconsistent, 4 untested", as W3C publishes the figures.
    public func ratingCounts(approved: Bool) -> String {
        let ratings = rules(approved: approved).map(\.consistency.publishedCategory)
        return [ACTConsistency.consistent, .partial, .inconsistent, .untested].map { rating in
            "\(ratings.filter { $0 == rating }.count) \(rating.rawValue)"
        }.joined(separator: ", ")
    }

    public init(testCases: ACTTestCases, catalog: [any Rule] = RuleCatalog.all, viewport: Viewport = .desktop) {
        let root = testCases.examplesFolder
        let styles = StyleEnvironment(viewport: viewport, loader: ACTExampleStyleSheets(root: root))
        let frames = ACTExampleFrames(root: root)
        let known = Dictionary(catalog.map { ($0.metadata.id, $0) }, uniquingKeysWith: { first, _ in first })
        wcagCriteria = known.mapValues(\.metadata.wcagCriteria)
        rules = testCases.rules.map { rule in
            let ownMappings = catalog.filter { $0.metadata.actRules.contains(rule.id) }.map(\.metadata.id)
            let mapped = Set(rule.axeRuleIDs.filter { known[$0] != nil }).union(ownMappings).sorted()
            guard !mapped.isEmpty else { return RuleResult(rule: rule, canopyRules: [], examples: []) }
            let auditor = Auditor(rules: mapped.compactMap { known[$0] })
            let examples = rule.examples.map { example in
                let file = root.appendingPathComponent(example.file)
                let bytes = (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? []
                let document = HTMLParser().parse(bytes: bytes, url: file.absoluteString)
                let results = auditor.audit(document, styles: styles, frames: frames).rules
                let outcomes = mapped.map { id in Self.outcome(of: results.first { $0.metadata.id == id }) }
                return ExampleResult(example: example, outcomes: outcomes)
            }
            return RuleResult(rule: rule, canopyRules: mapped, examples: examples)
        }
    }

    static func outcome(of result: CanopyRules.RuleResult?) -> Outcome {
        guard let result else { return .inapplicable }
        if !result.violations.isEmpty { return .failed }
        if !result.incomplete.isEmpty { return .cantTell }
        return result.passCount > 0 ? .passed : .inapplicable
    }
}
