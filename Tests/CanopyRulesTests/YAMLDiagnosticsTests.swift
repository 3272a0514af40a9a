import CanopyDiagnostics
import Testing
import Yams

@testable import CanopyRules

/// The wording shared by rule-set and crawl-configuration errors.
struct YAMLDiagnosticsTests {
    @Test("a misspelt name is matched to the nearest candidate within two edits, or to none")
    func closest() {
        let ids = ["image-alt", "input-image-alt", "label", "link-name"]
        #expect(YAMLDiagnostics.closest(to: "imag-alt", in: ids) == "image-alt")
        #expect(YAMLDiagnostics.closest(to: "lable", in: ids) == "label")
        #expect(YAMLDiagnostics.closest(to: "region", in: ids) == nil)
        #expect(YAMLDiagnostics.closest(to: "", in: ids) == nil)
        #expect(YAMLDiagnostics.editDistance("", "abc") == 3)
        #expect(YAMLDiagnostics.editDistance("abc", "") == 3)
        #expect(YAMLDiagnostics.editDistance("kitten", "sitting") == 3)
    }

    @Test("nodes are named by kind, scalars by their text")
    func kinds() throws {
        let node = try #require(try Yams.compose(yaml: "{a: [1], b: ~, c: true, d: 3, e: lots, f: {x: 1}}"))
        func kind(_ key: String) throws -> String { YAMLDiagnostics.kind(of: try #require(node.mapping?[key])) }
        #expect(try kind("a") == "a list")
        #expect(try kind("b") == "nothing")
        #expect(try kind("c") == "a boolean (true)")
        #expect(try kind("d") == "a number (3)")
        #expect(try kind("e") == "\"lots\"")
        #expect(try kind("f") == "a mapping")
    }

    @Test("syntax errors give the line Yams found them on")
    func syntax() {
        do {
            _ = try Yams.compose(yaml: "rules:\n  - a\n  - [b\n")
            Issue.record("expected a syntax error")
        } catch let error as YamlError {
            let problem = YAMLDiagnostics.syntaxProblem(error)
            #expect(problem.line != nil)
            #expect(problem.message.hasPrefix("invalid YAML: "))
        } catch {
            Issue.record("unexpected \(error)")
        }
        do {
            _ = try Yams.compose(yaml: "a: 1\na: 2\n")
            Issue.record("expected a duplicate key error")
        } catch let error as YamlError {
            #expect(YAMLDiagnostics.syntaxProblem(error).message == "duplicate key \"a\"")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
