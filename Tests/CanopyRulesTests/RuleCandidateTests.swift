import CanopyHTML
import CanopyRules
import Testing

/// Rules that list their own candidates (instead of testing every match of `*`) must see the
/// same elements the selector and `applies` would have chosen, in the same order.
struct RuleCandidateTests {
    /// Every rule's examples, plus pages with ARIA attributes in the places a scan could miss them:
    /// the root, foreign elements, upper case, elements with many attributes.
    static var pages: [String] {
        let examples = RuleCatalog.all.flatMap { rule in
            rule.examples.passing + rule.examples.violating + rule.examples.incomplete + rule.examples.inapplicable
        }
        return examples.map { RuleExampleTests.page($0.markup) } + [
            #"<!DOCTYPE html><html aria-hidden="false" lang="en"><body aria-busy="true"><p>x</p></body></html>"#,
            #"<!DOCTYPE html><html><body><svg ARIA-LABEL="Logo" role="img"><circle aria-hidden="true"/></svg></body></html>"#,
            #"<!DOCTYPE html><html><body><div a=1 b=2 c=3 aria-x=4 d=5></div><span data-aria-label="no"></span><i aria-></i></body></html>"#,
            #"<!DOCTYPE html><html><body><math aria-label="sum"><mi>x</mi></math><template><b aria-label="inert"></b></template></body></html>"#,
        ]
    }

    @Test func listedCandidatesAreTheSelectorMatchesTheRuleAppliesTo() throws {
        var listed = 0
        for html in Self.pages {
            let document = HTMLParser().parse(html: html)
            for rule in RuleCatalog.all {
                let page = PageContext(document: document)
                guard let candidates = rule.candidates(on: page) else { continue }
                listed += 1
                let matches = page.elements(matching: rule.selector)
                let matchPositions = Set(matches.map(\.position))
                let positions = candidates.map(\.position)
                #expect(positions == positions.sorted() && Set(positions).count == positions.count, "\(rule.metadata.id): not in document order")
                #expect(positions.allSatisfy(matchPositions.contains), "\(rule.metadata.id): a candidate the selector does not match")
                let applying = matches.filter { rule.applies(to: $0, on: page) }.map(\.position)
                #expect(applying.allSatisfy(Set(positions).contains), "\(rule.metadata.id) on \(html.prefix(120)): an element it applies to is not listed")
            }
        }
        #expect(listed > 0)
    }
}
