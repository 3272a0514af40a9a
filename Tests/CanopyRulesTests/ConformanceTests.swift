import CanopyHTML
import CanopyRules
import Foundation
import Testing

/// axe-core's own integration fixtures (../shared/conformance) for every rule Canopy has:
/// each expected target must be reported in its group, and nothing else may be.
struct ConformanceTests {
    struct FixtureCase: CustomTestStringConvertible, Sendable {
        let rule: String
        let html: String
        let json: String
        let skippedTargets: [[String]]
        var testDescription: String { json }
    }

    struct ManifestEntry: Decodable {
        let rule: String, json: String, html: String
        let skipIframeTargets: [[String]]
    }

    struct Manifest: Decodable { let fixtures: [ManifestEntry] }

    struct Expectations: Decodable {
        let violations: [[String]]?
        let passes: [[String]]?
        let incomplete: [[String]]?
    }

    static func cases() -> [FixtureCase] {
        guard let text = try? SharedFixtures.read("axe-integration-manifest.json"),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
        else { return [] }
        let ours = Set(RuleCatalog.all.map(\.metadata.id))
        return manifest.fixtures.filter { ours.contains($0.rule) }.map {
            FixtureCase(rule: $0.rule, html: $0.html, json: $0.json, skippedTargets: $0.skipIframeTargets)
        }
    }

    @Test func everyRuleWithFixturesIsCovered() throws {
        try #require(SharedFixtures.isAvailable, "../shared/conformance is missing")
        #expect(Self.cases().map(\.rule).contains("image-alt"))
    }

    @Test(arguments: cases())
    func fixture(_ fixture: FixtureCase) throws {
        let rule = try #require(RuleCatalog.rule(withID: fixture.rule))
        let html = try SharedFixtures.read("axe-integration/" + fixture.html)
        let expected = try JSONDecoder().decode(Expectations.self, from: Data(try SharedFixtures.read("axe-integration/" + fixture.json).utf8))
        let document = HTMLParser().parse(html: SharedFixtures.wrap(html))
        let scope = AuditScope(include: [try SelectorList("#fixture")])
        let result = try #require(Auditor(rules: [rule]).audit(document, scope: scope).rules.first)

        func check(_ group: String, expected targets: [[String]]?, actual: [NodeResult]) throws {
            guard let targets else { return }  // absent groups are not checked, as in axe's runner
            let wanted = try targets.filter { !fixture.skippedTargets.contains($0) }.map { target -> Element in
                let matches = document.querySelectorAll(try SelectorList(target[0]))
                try #require(matches.count == 1, "\(target[0]) matches \(matches.count) elements")
                return matches[0]
            }
            let got = actual.map(\.element)
            let missing = wanted.filter { !got.contains($0) }.map { $0.id ?? $0.description }
            let extra = got.filter { !wanted.contains($0) }.map { $0.id ?? $0.description }
            #expect(missing.isEmpty && extra.isEmpty, "\(group): missing \(missing), unexpected \(extra)")
        }
        try check("violations", expected: expected.violations, actual: result.violations)
        try check("passes", expected: expected.passes, actual: result.passes)
        try check("incomplete", expected: expected.incomplete, actual: result.incomplete)
    }
}
