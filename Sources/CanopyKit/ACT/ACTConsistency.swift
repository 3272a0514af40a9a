/// How W3C rates an implementation of one ACT rule from its outcomes on the rule's examples, as
/// act-tools (the program behind W3C's published implementation reports) rates it, in its own
/// words here:
///
/// - each procedure (a Canopy rule mapped to the ACT rule) is rated alone: **inconsistent** on any
///   passed or inapplicable example it reports failed; **consistent** when it reports at least one
///   failed example failed, every example has an outcome, and no failed example gets only
///   passed or inapplicable ("can't tell" on a failed example is allowed); **partial** when it
///   reports some failed example failed; **minimal** when it never does but answers "can't
///   tell" somewhere and every inapplicable example passed or inapplicable; inconsistent otherwise;
/// - the ACT rule takes the best rating among its procedures; when that is partial, the
///   procedures rated partial are taken together (their outcomes on each example pooled) and
///   rated again, so two rules that each catch half of the failed examples can be consistent
///   together;
/// - **untested** when no procedure maps to the rule.
///
/// act-tools also compares the success criteria a failure reports with the ACT rule's; its
/// current version assumes they agree, and so does this rating.
public enum ACTConsistency: String, Sendable, CaseIterable {
    case consistent, partial, minimal, inconsistent, untested

    public struct ExampleOutcomes: Sendable {
        public let expected: ACTTestCases.Expected
        public let outcomes: [ACTRun.Outcome]

        public init(expected: ACTTestCases.Expected, outcomes: [ACTRun.Outcome]) {
            self.expected = expected
            self.outcomes = outcomes
        }
    }

    /// W3C's published figures count a minimal implementation among the partial ones.
    public var publishedCategory: ACTConsistency { self == .minimal ? .partial : self }

    public static func rating(procedures: [[ExampleOutcomes]]) -> ACTConsistency {
        guard !procedures.isEmpty else { return .untested }
        let ratings = procedures.map(rating(of:))
        let order: [ACTConsistency] = [.consistent, .partial, .minimal, .inconsistent]
        let best = order.first(where: ratings.contains) ?? .inconsistent
        guard best == .partial else { return best }
        let partial = procedures.indices.filter { ratings[$0] == .partial }.map { procedures[$0] }
        let pooled = partial[0].indices.map { index in
            ExampleOutcomes(expected: partial[0][index].expected, outcomes: partial.flatMap { $0[index].outcomes })
        }
        return rating(of: pooled)
    }

    static func rating(of examples: [ExampleOutcomes]) -> ACTConsistency {
        let reportsFailed = { (example: ExampleOutcomes) in example.outcomes.contains(.failed) }
        if examples.contains(where: { $0.expected != .failed && reportsFailed($0) }) { return .inconsistent }
        let failed = examples.filter { $0.expected == .failed }
        let caughtSome = failed.contains(where: reportsFailed)
        let missedSome = failed.contains { $0.outcomes.allSatisfy { $0 == .passed || $0 == .inapplicable } }
        let untested = examples.contains { $0.outcomes.isEmpty }
        if caughtSome, !missedSome, !untested { return .consistent }
        if caughtSome { return .partial }
        let inapplicableRight = examples.allSatisfy { example in
            example.expected != .inapplicable || example.outcomes.allSatisfy { $0 == .passed || $0 == .inapplicable }
        }
        if examples.contains(where: { $0.outcomes.contains(.cantTell) }), inapplicableRight { return .minimal }
        return .inconsistent
    }
}
