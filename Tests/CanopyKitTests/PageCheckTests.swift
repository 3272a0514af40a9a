import CanopyDiagnostics
import CanopyKit
import CanopyTestSupport
import Foundation
import Testing

struct PageCheckTests {
    static let failingPage = """
        <!DOCTYPE html><html><head><title>Shop</title></head>
        <body><header><img id="logo" src="logo.png"></header>
        <main><img id="hero" src="hero.jpg" alt="Our shop"><div class="vendor"><img id="ad" src="ad.gif"></div></main></body></html>
        """
    static let passingPage = """
        <!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><img src="a.png" alt="A"></main></body></html>
        """

    func temporaryFile(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-\(UUID().uuidString).html").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func fileWithViolationsExitsOne() throws {
        let path = try temporaryFile(Self.failingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = PageCheck().run(sources: [.file(path)], options: .init())
        #expect(outcome.exitStatus == .violationsFound)
        #expect(outcome.output.contains("image-alt"))
        #expect(outcome.output.contains("html-has-lang"))
        #expect(outcome.output.contains("#logo"))
        #expect(outcome.diagnostics.isEmpty)
    }

    @Test("a checked file's frames are read from beside it and their findings have axe's two-part target")
    func fileFramesAreReadBesideIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"<!DOCTYPE html><html lang="en"><head><title>Pay</title></head><body><button id="pay"></button></body></html>"#
            .write(to: folder.appendingPathComponent("pay.html"), atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("index.html")
        try #"<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><iframe id="checkout" title="Checkout" src="pay.html"></iframe></main></body></html>"#
            .write(to: page, atomically: true, encoding: .utf8)
        var options = PageCheck.Options()
        options.format = .json
        let outcome = PageCheck().run(sources: [.file(page.path)], options: options)
        #expect(outcome.exitStatus == .violationsFound)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let violations = try #require(json["violations"] as? [[String: Any]])
        let nodes = violations.first { $0["id"] as? String == "button-name" }?["nodes"] as? [[String: Any]]
        #expect(nodes?.first?["target"] as? [String] == ["#checkout", "#pay"])
    }

    @Test func cleanFileExitsZero() throws {
        let path = try temporaryFile(Self.passingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = PageCheck().run(sources: [.file(path)], options: .init())
        #expect(outcome.exitStatus == .passed)
        #expect(outcome.output.contains("no violations"))
    }

    @Test func excludeAndRulesOptionsNarrowTheAudit() throws {
        let path = try temporaryFile(Self.failingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = PageCheck.Options(ruleIDs: ["image-alt"], exclude: ["header", ".vendor"], format: .json)
        let outcome = PageCheck().run(sources: [.file(path)], options: options)
        #expect(outcome.exitStatus == .passed)
        let json = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
        let violations = json?["violations"] as? [Any]
        #expect(violations?.isEmpty == true)
        let passes = json?["passes"] as? [[String: Any]]
        #expect(passes?.map { $0["id"] as? String } == ["image-alt"])
    }

    @Test func jsonHasAxeResultShape() throws {
        let path = try temporaryFile(Self.failingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = PageCheck().run(sources: [.file(path)], options: .init(format: .json))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(json["url"] as? String == path)
        #expect(json["timestamp"] is String)
        let engine = try #require(json["testEngine"] as? [String: Any])
        #expect(engine["name"] as? String == "canopy")
        for group in ["violations", "passes", "incomplete", "inapplicable"] { #expect(json[group] is [Any], "\(group)") }
        let violations = try #require(json["violations"] as? [[String: Any]])
        let imageAlt = try #require(violations.first { $0["id"] as? String == "image-alt" })
        #expect(imageAlt["impact"] as? String == "critical")
        #expect((imageAlt["tags"] as? [String])?.contains("wcag111") == true)
        for key in ["description", "help", "helpUrl"] { #expect(imageAlt[key] is String, "\(key)") }
        let nodes = try #require(imageAlt["nodes"] as? [[String: Any]])
        #expect(nodes.map { ($0["target"] as? [String]) ?? [] } == [["#logo"], ["#ad"]])
        #expect(nodes.first?["html"] as? String == #"<img id="logo" src="logo.png">"#)
        #expect(nodes.first?["impact"] as? String == "critical")
        #expect((nodes.first?["failureSummary"] as? String)?.isEmpty == false)
        let passes = try #require(json["passes"] as? [[String: Any]])
        #expect(passes.allSatisfy { $0["impact"] is NSNull })
        // Every passing node is listed, as axe lists them: the text report only counts the rules.
        let passingImages = try #require(passes.first { $0["id"] as? String == "image-alt" }?["nodes"] as? [[String: Any]])
        #expect(passingImages.map { ($0["target"] as? [String]) ?? [] } == [["#hero"]])
        let text = PageCheck().run(sources: [.file(path)], options: .init()).output
        #expect(text.contains("; \(passes.count) rules passed,"), "\(text)")
    }

    @Test func badSelectorIsUsageError() throws {
        let path = try temporaryFile(Self.passingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = PageCheck().run(sources: [.file(path)], options: .init(exclude: ["div >> p"]))
        #expect(outcome.exitStatus == .usageError)
        #expect(outcome.diagnostics.first?.description.contains("div >> p") == true)
    }

    @Test func unknownRuleAndMissingFileAreUsageErrors() {
        #expect(PageCheck().run(sources: [.bundledSample], options: .init(ruleIDs: ["no-such-rule"])).exitStatus == .usageError)
        let missing = PageCheck().run(sources: [.file("/nonexistent/page.html")], options: .init())
        #expect(missing.exitStatus == .usageError)
        #expect(missing.diagnostics.first?.description.contains("/nonexistent/page.html") == true)
    }

    @Test func bundledSampleHasFindings() {
        let outcome = PageCheck().run(sources: [.bundledSample], options: .init())
        #expect(outcome.exitStatus == .violationsFound)
        #expect(outcome.output.contains("image-alt"))
    }

    @Test func urlIsFetchedFromARealServer() throws {
        let server = try TestHTTPServer.routes([
            "/bad.html": .html(Self.failingPage),
            "/good.html": .html(Self.passingPage),
        ])
        defer { server.stop() }
        let bad = PageCheck().run(sources: [.url(server.url("/bad.html"))], options: .init(format: .json))
        #expect(bad.exitStatus == .violationsFound)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bad.output.utf8)) as? [String: Any])
        #expect(json["url"] as? String == server.url("/bad.html"))
        let good = PageCheck().run(sources: [.url(server.url("/good.html"))], options: .init())
        #expect(good.exitStatus == .passed)
    }

    @Test func unreachableOrFailingURLExitsThree() throws {
        let server = try TestHTTPServer.routes(["/image.png": TestHTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: [1, 2, 3])])
        defer { server.stop() }
        let missing = PageCheck().run(sources: [.url(server.url("/missing.html"))], options: .init())
        #expect(missing.exitStatus == .couldNotAudit)
        #expect(missing.diagnostics.first?.description.contains("404") == true)
        let notHTML = PageCheck().run(sources: [.url(server.url("/image.png"))], options: .init())
        #expect(notHTML.exitStatus == .couldNotAudit)
        let port = server.port
        server.stop()
        let refused = PageCheck().run(sources: [.url("http://127.0.0.1:\(port)/")], options: .init())
        #expect(refused.exitStatus == .couldNotAudit)
    }

    @Test func multiplePagesGiveAJSONArray() throws {
        let path = try temporaryFile(Self.passingPage)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = PageCheck().run(sources: [.file(path), .bundledSample], options: .init(format: .json))
        let array = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]]
        #expect(array?.count == 2)
        #expect(outcome.exitStatus == .violationsFound)
    }

    @Test func sourceArgumentsAreClassified() {
        #expect(PageSource(argument: "https://example.com/") == .url("https://example.com/"))
        #expect(PageSource(argument: "file:///etc/passwd") == .url("file:///etc/passwd"))
        #expect(PageSource(argument: "pages/index.html") == .file("pages/index.html"))
        // Read on bytes as `^[A-Za-z][A-Za-z0-9+.-]*://` reads them.
        let arguments = [
            "http://a", "HTTPS://a", "svn+ssh://x", "a.b-c://x", "x1://y", "1x://y", "://x", "a://", "a:/x", "a:x//", "ab c://x",
            "é://x", "a_b://x", "C:\\pages\\x.html", "./http://x", "", "h", "h:", "h:/", "h://",
        ]
        for argument in arguments {
            let definition = argument.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil
            #expect(PageSource(argument: argument) == (definition ? .url(argument) : .file(argument)), "\(argument)")
        }
    }

    @Test func nonHTTPSchemesAreRefused() {
        let outcome = PageCheck().run(sources: [.url("file:///etc/passwd")], options: .init())
        #expect(outcome.exitStatus == .couldNotAudit)
    }
}
