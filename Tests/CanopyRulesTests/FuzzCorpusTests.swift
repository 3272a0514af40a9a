import CanopyHTML
import CanopyRules
import Foundation
import Testing

/// Replays Tests/FuzzCorpus (inputs that once crashed a fuzz target, and hand-made hostile ones:
/// deep nesting, huge attributes, NUL bytes, invalid UTF-8, unterminated constructs, pathological
/// selectors) through the same code as the fuzz targets in Sources/canopy-fuzz (docs/fuzzing.md).
/// Passing means: no crash, and every input finishes.
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzCorpus")

    static func inputs(_ target: String) -> [String] {
        let folder = corpus.appendingPathComponent(target).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { target + "/" + $0 }
    }

    static func bytes(_ input: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(input)))
    }

    @Test func corpusIsThere() {
        #expect(Self.inputs("parse").count >= 10)
        #expect(Self.inputs("selector").count >= 10)
    }

    // Same as FuzzTarget.parseAndAudit in Sources/canopy-fuzz/FuzzTargets.swift.
    @Test(arguments: inputs("parse"))
    func parseAndAudit(_ input: String) throws {
        let document = HTMLParser().parse(bytes: try Self.bytes(input), contentType: "text/html", url: "https://fuzz.example/")
        let result = Auditor(rules: RuleCatalog.all).audit(document)
        var described = 0
        for rule in result.rules {
            for node in rule.nodes.prefix(2) where described < 40 {
                described += 1
                #expect(!node.target.isEmpty)
                _ = node.html
                _ = node.element.snippet(maxLength: 40)
            }
        }
    }

    static let selectorDocument = HTMLParser().parse(html: """
        <!DOCTYPE html><html lang="en"><head><title>t</title></head><body>
        <header id="top" class="a b"><nav aria-label="main"><ul><li><a href="/x" lang="en-US">x</a></li>
        <li class="b"><a href="https://e.example/y?q=1">y</a></li><li></li></ul></nav></header>
        <main><h1 data-x="1 2">T</h1><p>text <em>e</em> <!-- c --></p>
        <form><input type="checkbox" checked disabled><select><option selected>o</option></select>
        <label for="i">l</label><input id="i" required></form>
        <table><tr><th scope=col>h</th></tr><tr><td>d</td></tr></table>
        <svg viewBox="0 0 1 1"><g><title>s</title></g></svg><div hidden></div><p></p></main>
        </body></html>
        """)

    @Test func selectorNestingIsCappedWithAnError() throws {
        let nested = { (levels: Int) in String(repeating: ":not(:is(", count: levels / 2) + "a" + String(repeating: "))", count: levels / 2) }
        // 16 × :not(:is( … )) is 32 levels, an even number of :not: it selects the two links.
        #expect(Self.selectorDocument.querySelectorAll(try SelectorList(nested(32))).count == 2)
        #expect(throws: SelectorParseError.self) { try SelectorList(nested(34)) }
        #expect(throws: SelectorParseError.self) { try SelectorList(String(repeating: ":is(", count: 100_000)) }
    }

    // Same as FuzzTarget.parseAndMatchSelector in Sources/canopy-fuzz/FuzzTargets.swift.
    @Test(arguments: inputs("selector"))
    func parseAndMatchSelector(_ input: String) throws {
        let bytes = try Self.bytes(input)
        guard let list = try? SelectorList(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = Self.selectorDocument.querySelectorAll(list)
        _ = list.description
    }
}
