import CanopyHTML
import CanopyRules
import Testing

struct AuditResultTests {
    @Test func resultsAreGroupedAsAxeGroupsThem() {
        let document = HTMLParser().parse(html: "<html><head><title>T</title></head><body><img src=a alt=ok><img src=b></body></html>")
        let result = Auditor(rules: [DocumentTitleRule(), HTMLHasLangRule(), ImageAltRule()]).audit(document)
        #expect(result.violations.map(\.metadata.id).sorted() == ["html-has-lang", "image-alt"])
        #expect(result.passes.map(\.metadata.id).sorted() == ["document-title", "image-alt"])
        #expect(result.violations.first { $0.metadata.id == "image-alt" }?.nodes.count == 1)
        #expect(result.incomplete.isEmpty)
        #expect(result.inapplicable.isEmpty)
    }

    @Test func ruleWithNoCandidatesIsInapplicable() {
        let document = HTMLParser().parse(html: "<html lang=en><head><title>T</title></head><body><p>x</p></body></html>")
        let result = Auditor(rules: [ImageAltRule()]).audit(document)
        #expect(result.inapplicable.map(\.metadata.id) == ["image-alt"])
        #expect(result.violations.isEmpty && result.passes.isEmpty)
    }

    /// Letting go of the selector tables keeps the targets made and makes the others again.
    @Test func targetsAfterTheSelectorTablesAreLetGoAreTheSame() throws {
        let html = "<div><img src=a><img src=a></div><div><img src=a class=x><img src=b></div><p><img src=a></p>"
        let fresh = Auditor(rules: [ImageAltRule()]).audit(HTMLParser().parse(html: html)).rules[0].nodes.map(\.target)
        let document = HTMLParser().parse(html: html)
        let result = Auditor(rules: [ImageAltRule()]).audit(document)
        let nodes = result.rules[0].nodes
        let first = nodes[0].target
        result.releaseTargetSelectorTables()
        #expect([first] + nodes.dropFirst().map(\.target) == fresh)
        result.releaseTargetSelectorTables()
        #expect(nodes.map(\.target) == fresh)
        for node in nodes {
            #expect(document.querySelectorAll(try SelectorList(node.target)) == [node.element], "\(node.target)")
        }
    }

    @Test func everyTargetMatchesExactlyItsElement() throws {
        let document = HTMLParser().parse(html: "<div><img src=a><img src=a></div><div><img src=a class=x></div>")
        let result = Auditor(rules: [ImageAltRule()]).audit(document)
        for node in result.rules[0].nodes {
            let matches = document.querySelectorAll(try SelectorList(node.target))
            #expect(matches == [node.element], "\(node.target)")
        }
    }

    @Test func wcagCriteriaComeFromTags() {
        #expect(ImageAltRule().metadata.wcagCriteria == ["1.1.1"])
        #expect(DocumentTitleRule().metadata.wcagCriteria == ["2.4.2"])
    }

    /// A crawl keeps only counts of passes: counting them instead of listing them must change no
    /// finding, no count and no grouping, on a page alone and on one whose frames are merged.
    @Test(arguments: [
        "<html><head><title>T</title></head><body><img src=a alt=ok><img src=b><h1>Title</h1><p style='color:#999'>Grey</p><p>Black</p></body></html>",
        #"<html lang=en><head><title>T</title></head><body><main><h2>Not one</h2><iframe title=f srcdoc="<html lang=en><title>In</title><h1>Frame</h1><img src=c alt=''><img src=d>"></iframe></main></body></html>"#,
    ])
    func countingPassesChangesNoResult(html: String) {
        let document = HTMLParser().parse(html: html)
        let rules = RuleCatalog.defaultRules
        let listed = Auditor(rules: rules).audit(document, frames: NoFrameAddresses())
        var counting = Auditor(rules: rules)
        counting.listsPassingNodes = false
        let counted = counting.audit(document, frames: NoFrameAddresses())
        func summary(_ result: AuditResult) -> [String] {
            result.rules.map { rule in
                let kept = rule.nodes.filter { $0.outcome != .pass }.map { "\($0.location) \($0.outcome)" }
                return "\(rule.metadata.id): \(rule.passCount) passes; \(kept)"
            }
        }
        #expect(summary(counted) == summary(listed))
        #expect(counted.rules.allSatisfy { rule in !rule.nodes.contains { $0.outcome == .pass } })
        #expect(listed.rules.contains { $0.passesNotListed == 0 && $0.passCount > 0 })
        #expect(counted.inapplicable.map(\.metadata.id) == listed.inapplicable.map(\.metadata.id))
        #expect(counted.passes.map(\.metadata.id) == listed.passes.map(\.metadata.id))
        #expect(counted.passes.map(\.passCount) == listed.passes.map(\.passCount))
    }
}
