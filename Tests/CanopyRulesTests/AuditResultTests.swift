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
}
