import CanopyHTML
import CanopyTestSupport
import Foundation
import Testing

/// The element trees Canopy builds for the W3C ACT test cases (../shared/act), against the trees
/// html5lib, an implementation of HTML5 tree construction, builds from the same files: kept in
/// Tests/act-html5-trees.txt, which `benchmarks/check-tree.py --write-html5` writes.
struct ACTTreeTests {
    static let act = SharedFixtures.conformance.deletingLastPathComponent().appendingPathComponent("act")
    static let expectedTrees = SharedFixtures.repositoryRoot.appendingPathComponent("Tests/act-html5-trees.txt")

    /// Test cases whose tree is known to differ, and why.
    static let knownDifferences = [
        // `</p>` with no paragraph open: HTML5 makes an empty one; libxml2 reports nothing for it.
        "act-rules/fd3a94/failed-3.html",
    ]

    @Test(
        "every ACT test case's element tree is the one an HTML5 parser builds, but for the known differences",
        .enabled(if: FileManager.default.fileExists(atPath: act.path), "the shared ACT test cases (../shared/act) are not present")
    )
    func treesAreHTML5Trees() throws {
        let expected = try String(contentsOf: Self.expectedTrees, encoding: .utf8)
        var compared = 0
        var differing: [String] = []
        for line in expected.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            try #require(fields.count == 2, "\(line)")
            let bytes = try #require(FileManager.default.contents(atPath: Self.act.appendingPathComponent(fields[0]).path), "\(fields[0])")
            let document = HTMLParser().parse(bytes: [UInt8](bytes), contentType: "text/html; charset=utf-8")
            compared += 1
            if document.documentElement?.elementOutline != fields[1] { differing.append(fields[0]) }
        }
        #expect(compared == 1_218)
        #expect(differing == Self.knownDifferences)
    }

    @Test("an outline lists element names only, children in parentheses, at any depth")
    func outlineShape() {
        let document = HTMLParser().parse(html: "<title>t</title><main><h1>a</h1>text<p>b<b>c</b></p><!-- note --></main>")
        #expect(document.documentElement?.elementOutline == "html(head(title) body(main(h1 p(b))))")
        let deep = HTMLParser().parse(html: String(repeating: "<span>", count: 200) + "x")
        #expect(deep.body?.elementOutline == "body" + String(repeating: "(span", count: 200) + String(repeating: ")", count: 200))
    }
}
