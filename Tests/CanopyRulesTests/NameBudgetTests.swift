import CanopyAccessibility
import CanopyHTML
@testable import CanopyRules
import Testing

/// A page whose names would cost the square of its size gets a bounded audit: past the page's
/// name budget, results that needed a name are left for review, with the reason, and none is lost.
struct NameBudgetTests {
    /// Links named by a large element that contains them: each name walks the whole element.
    static func page(links: Int) -> String {
        let words = String(repeating: "<b>word</b> ", count: 200)
        let anchors = (0..<links).map { #"<a href="/p\#($0)" aria-labelledby="big"><img src="i.png" alt=""></a>"# }.joined()
        return #"<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><main><div id="big">\#(words)\#(anchors)</div></main></body></html>"#
    }

    static func linkNameOutcomes(_ result: AuditResult) throws -> [CheckOutcome] {
        try #require(result.rules.first { $0.metadata.id == "link-name" }).nodes.map(\.outcome)
    }

    @Test func withinTheDefaultBudgetNothingIsCut() throws {
        let document = HTMLParser().parse(html: Self.page(links: 50))
        let result = Auditor(rules: RuleCatalog.defaultRules).audit(document)
        let outcomes = try Self.linkNameOutcomes(result)
        #expect(outcomes.count == 50)
        #expect(outcomes.allSatisfy { $0 == .pass })
        for rule in result.rules {
            for node in rule.nodes {
                if case .incomplete(let message) = node.outcome { #expect(!message.contains("stopped computing accessible names")) }
            }
        }
    }

    @Test func pastTheBudgetResultsNeedReviewAndNoneIsLost() throws {
        let document = HTMLParser().parse(html: Self.page(links: 50))
        let full = try Self.linkNameOutcomes(Auditor(rules: RuleCatalog.defaultRules).audit(document))
        // Enough for a few of the links' names (each walks the 400 elements of the div), not all.
        let cut = try Self.linkNameOutcomes(Auditor(rules: RuleCatalog.defaultRules, nameStepBudget: 3_000).audit(document))
        #expect(cut.count == full.count)
        let firstCut = try #require(cut.firstIndex { if case .incomplete = $0 { true } else { false } })
        #expect(firstCut > 0, "names computed within the budget keep their results")
        #expect(Array(cut[..<firstCut]) == Array(full[..<firstCut]))
        for outcome in cut[firstCut...] {
            guard case .incomplete(let message) = outcome else {
                Issue.record("a result after the budget ran out was decided: \(outcome)")
                continue
            }
            #expect(message.contains("stopped computing accessible names"))
        }
    }

    @Test func aSpentBudgetRefusesEveryLaterNameAndCountsIt() {
        let document = HTMLParser().parse(html: Self.page(links: 5))
        let model = AccessibilityModel(document: document, nameStepBudget: 10)
        let links = document.elements(named: "a")
        _ = model.accessibleName(of: links[0])
        let cutAfterFirst = model.namesCutShort
        #expect(cutAfterFirst > 0)
        #expect(model.accessibleName(of: links[0]) == "", "a cut name is not kept")
        #expect(model.namesCutShort > cutAfterFirst)
        #expect(model.accessibleName(of: links[1]) == "")
    }
}
