// The per-input work of Canopy's fuzz targets (docs/fuzzing.md), in a library so that the
// libFuzzer driver (Sources/canopy-fuzz) and the corpus replay test (FuzzCorpusTests) run the
// very same code: a copy in the test could drift from what was fuzzed.
import CanopyHTML
import CanopyRules

/// An input that did not crash but broke a promise the code makes (e.g. a result node without a
/// target selector). The fuzzer turns it into a crash; the replay test into a failure.
public struct FuzzInvariantViolation: Error, CustomStringConvertible {
    public let description: String
}

/// Canopy's two parsers of untrusted input.
///
/// - `parse`: arbitrary bytes → HTMLParser → every rule of RuleCatalog.all, plus target selectors
///   and snippets for a few result nodes (the code paths a crawled page reaches).
/// - `selector`: arbitrary bytes → SelectorList; when it parses, it is matched against a small
///   fixed document (the code paths `--include`/`--exclude` and rule-set configs reach).
public enum FuzzTarget: String, CaseIterable, Sendable {
    case parse, selector
}

/// Runs one target on one input at a time. What it keeps between inputs (the auditor, the page
/// selectors are matched against) is immutable, so inputs cannot influence each other.
public struct FuzzHarness: Sendable {
    public let target: FuzzTarget
    private let auditor = Auditor(rules: RuleCatalog.all)
    private let selectorDocument: Document

    public init(target: FuzzTarget) {
        self.target = target
        selectorDocument = HTMLParser().parse(html: Self.selectorPage)
    }

    public func run(_ bytes: [UInt8]) throws(FuzzInvariantViolation) {
        switch target {
        case .parse: try parseAndAudit(bytes)
        case .selector: parseAndMatchSelector(bytes)
        }
    }

    private func parseAndAudit(_ bytes: [UInt8]) throws(FuzzInvariantViolation) {
        let document = HTMLParser().parse(bytes: bytes, contentType: "text/html", url: "https://fuzz.example/")
        let result = auditor.audit(document)
        // Targets and snippets are built on demand; ask for a few of every outcome.
        var described = 0
        for rule in result.rules {
            for node in rule.nodes.prefix(2) where described < 40 {
                described += 1
                if node.target.isEmpty {
                    throw FuzzInvariantViolation(description: "\(rule.metadata.id): a result node without a target selector")
                }
                _ = node.html
                _ = node.element.snippet(maxLength: 40)
            }
        }
    }

    private func parseAndMatchSelector(_ bytes: [UInt8]) {
        guard let list = try? SelectorList(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = selectorDocument.querySelectorAll(list)
        _ = list.description
    }

    /// A small page with something for most selector features: ids, classes, attributes with
    /// spaces and hyphens, form states, a table, SVG, comments, empty and hidden elements.
    public static let selectorPage = """
        <!DOCTYPE html><html lang="en"><head><title>t</title></head><body>
        <header id="top" class="a b"><nav aria-label="main"><ul><li><a href="/x" lang="en-US">x</a></li>
        <li class="b"><a href="https://e.example/y?q=1">y</a></li><li></li></ul></nav></header>
        <main><h1 data-x="1 2">T</h1><p>text <em>e</em> <!-- c --></p>
        <form><input type="checkbox" checked disabled><select><option selected>o</option></select>
        <label for="i">l</label><input id="i" required></form>
        <table><tr><th scope=col>h</th></tr><tr><td>d</td></tr></table>
        <svg viewBox="0 0 1 1"><g><title>s</title></g></svg><div hidden></div><p></p></main>
        </body></html>
        """
}
