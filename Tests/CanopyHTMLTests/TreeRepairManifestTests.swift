import CanopyHTML
import CanopyTestSupport
import Foundation
import Testing

/// `../shared/conformance/axe-integration-manifest.json` lists, per fixture, each expected node
/// whose place in libxml2's tree differs from a browser's. After repair, ours must match the browser's.
struct TreeRepairManifestTests {
    struct Divergence: Decodable, CustomTestStringConvertible, Sendable {
        let kind: String
        let target: [String]
        let status: String
        let html5: String
        let libxml2: String
        var fixture: String = ""

        enum CodingKeys: String, CodingKey { case kind, target, status, html5, libxml2 }
        var testDescription: String { "\(fixture) \(target.joined()) (\(status))" }
    }

    struct Fixture: Decodable {
        let html: String
        let libxml2Divergent: [Divergence]
    }

    struct Manifest: Decodable { let fixtures: [Fixture] }

    static func divergences() -> [Divergence] {
        guard SharedFixtures.isAvailable,
            let text = try? SharedFixtures.read("axe-integration-manifest.json"),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
        else { return [] }
        return manifest.fixtures.flatMap { fixture in
            fixture.libxml2Divergent.map { divergence in
                var copy = divergence
                copy.fixture = fixture.html
                return copy
            }
        }
    }

    @Test(.enabled(if: SharedFixtures.isAvailable, "the shared conformance folder (../shared/conformance) is not present"))
    func manifestListsTheKnownDivergences() throws {
        #expect(Self.divergences().count == 106)
    }

    @Test(arguments: divergences())
    func browserTreeAfterRepair(_ divergence: Divergence) throws {
        let html = try SharedFixtures.read("axe-integration/" + divergence.fixture)
        let document = HTMLParser().parse(html: SharedFixtures.wrap(html))
        let fixtureRoot = try #require(document.element(withID: "fixture"))
        let id = String(try #require(divergence.target.first).dropFirst())  // "#pass77" → "pass77"
        let element = try #require(document.element(withID: id), "no element with id \(id)")
        switch divergence.status {
        case "path-differs":
            let path = element.ancestors.prefix { $0 != fixtureRoot }.reversed().map(\.localName) + [element.localName]
            #expect(path.joined(separator: "/") == divergence.html5)
        default:
            let subtree = ([element] + Array(element.descendants)).prefix(20).map(\.localName)
            #expect(subtree.joined(separator: " ") == divergence.html5)
        }
    }
}
