import CanopyDiagnostics
import CanopyHistory
import CanopyReports
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyKit

/// A JSON Schema (draft-07) validator covering the keywords the SARIF 2.1.0 schema uses: type,
/// properties, required, additionalProperties, items, enum, $ref to #/definitions, minItems,
/// uniqueItems, minimum, pattern, oneOf, anyOf, allOf; `default`, `format` and descriptions are
/// annotations only. An unknown keyword fails loudly, so the validator cannot quietly accept
/// what it does not check.
struct JSONSchemaValidator {
    let root: [String: Any]

    static let annotations: Set<String> = ["$schema", "$id", "id", "title", "description", "default", "format", "definitions"]
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "$ref", "minItems", "uniqueItems", "minimum",
        "pattern", "oneOf", "anyOf", "allOf", "maxItems", "minLength", "maximum", "const",
    ]

    func errors(_ value: Any) -> [String] {
        var errors: [String] = []
        validate(value, root, "$", &errors)
        return errors
    }

    private func validate(_ value: Any, _ schema: [String: Any], _ path: String, _ errors: inout [String]) {
        for key in schema.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
            errors.append("\(path): the validator does not know the keyword \(key)")
        }
        if let ref = schema["$ref"] as? String {
            let name = ref.replacingOccurrences(of: "#/definitions/", with: "")
            guard ref.hasPrefix("#/definitions/"), let target = (root["definitions"] as? [String: Any])?[name] as? [String: Any] else {
                errors.append("\(path): unresolvable $ref \(ref)")
                return
            }
            validate(value, target, path, &errors)
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as? String ?? ""]
            if !types.contains(where: { Self.isType(value, $0) }) { errors.append("\(path): expected \(types), found \(value)") }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            errors.append("\(path): \(value) is not one of \(options)")
        }
        if let constant = schema["const"], !Self.equal(constant, value) { errors.append("\(path): expected \(constant)") }
        if let object = value as? [String: Any], !(value is NSNumber) {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                errors.append("\(path): missing required \(name)")
            }
            for (name, child) in object {
                if let property = properties[name] as? [String: Any] {
                    validate(child, property, "\(path).\(name)", &errors)
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Bool {
                        if !allowed { errors.append("\(path): property \(name) is not allowed") }
                    } else if let additionalSchema = additional as? [String: Any] {
                        validate(child, additionalSchema, "\(path).\(name)", &errors)
                    }
                }
            }
        }
        if let array = value as? [Any] {
            if let minimum = schema["minItems"] as? Int, array.count < minimum { errors.append("\(path): fewer than \(minimum) items") }
            if let maximum = schema["maxItems"] as? Int, array.count > maximum { errors.append("\(path): more than \(maximum) items") }
            if schema["uniqueItems"] as? Bool == true {
                for (index, item) in array.enumerated() where array[..<index].contains(where: { Self.equal($0, item) }) {
                    errors.append("\(path)[\(index)]: duplicate item")
                }
            }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() { validate(item, items, "\(path)[\(index)]", &errors) }
            }
        }
        if let number = value as? NSNumber, !Self.isBool(value) {
            if let minimum = schema["minimum"] as? Double, number.doubleValue < minimum { errors.append("\(path): below \(minimum)") }
            if let maximum = schema["maximum"] as? Double, number.doubleValue > maximum { errors.append("\(path): above \(maximum)") }
        }
        if let string = value as? String {
            if let minimum = schema["minLength"] as? Int, string.count < minimum { errors.append("\(path): shorter than \(minimum)") }
            if let pattern = schema["pattern"] as? String, string.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): \"\(string)\" does not match \(pattern)")
            }
        }
        for (keyword, needed) in [("allOf", -1), ("anyOf", 0), ("oneOf", 1)] {
            guard let subschemas = schema[keyword] as? [[String: Any]] else { continue }
            let passing = subschemas.filter { sub in var nested: [String] = []; validate(value, sub, path, &nested); return nested.isEmpty }.count
            let ok = needed == -1 ? passing == subschemas.count : needed == 0 ? passing > 0 : passing == 1
            if !ok { errors.append("\(path): \(keyword) not satisfied (\(passing) of \(subschemas.count) match)") }
        }
    }

    private static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        // JSON booleans come back as NSNumbers made from Bool, whose type code is "c".
        return String(cString: number.objCType) == "c"
    }

    private static func isType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBool(value)
        case "integer":
            guard let number = value as? NSNumber, !isBool(value) else { return false }
            return number.doubleValue == number.doubleValue.rounded()
        case "number": return value is NSNumber && !isBool(value)
        case "null": return value is NSNull
        default: return false
        }
    }

    private static func equal(_ a: Any, _ b: Any) -> Bool {
        (a as? NSObject)?.isEqual(b) ?? false
    }
}

enum GateSchemas {
    /// The schemas ship with the tests as a resource folder.
    static var folder: String { Bundle.module.url(forResource: "Schemas", withExtension: nil)!.path }

    static func read(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }
}

@Suite("canopy gate outputs: JUnit XML, SARIF, Markdown, gate output JSON")
struct GateOutputTests {
    /// A failing gate with every kind of page: one with a new failure, one baselined, one gone.
    static func failingGate(_ fixture: GateFixture) throws -> (DeployGate.Outcome, before: TestHTTPServer, after: TestHTTPServer) {
        let before = try TestHTTPServer.routes(GateSite.routes("before"))
        let after = try TestHTTPServer.routes(GateSite.routes("after"))
        let baseline = try fixture.baseline(from: [before.url("/"), before.url("/product/1")])
        let outcome = try fixture.gate([after.url("/"), after.url("/product/1"), after.url("/gone")], baseline: baseline) {
            $0.rewrites = ["\(before.baseURL)=\(after.baseURL)"]
            $0.junitPath = fixture.path("junit.xml")
            $0.sarifPath = fixture.path("results.sarif")
            $0.summaryPath = fixture.path("summary.md")
            $0.outputPath = fixture.path("gate.json")
        }
        return (outcome, before, after)
    }

    @Test("JUnit XML validates against the Ant JUnit schema: one suite per page, a case per rule")
    func junitValidates() throws {
        let fixture = try GateFixture()
        let (outcome, _, after) = try Self.failingGate(fixture)
        #expect(outcome.exitStatus == .couldNotAudit)
        let xml = try Data(contentsOf: URL(fileURLWithPath: fixture.path("junit.xml")))
        let schema = try GateSchemas.read("JUnit.xsd")

        #expect(XMLSchemaValidator.errors(document: Array(xml), schema: Array(schema)) == [])
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<testsuite name=\"\(after.url("/product/1"))\""))
        #expect(text.contains("<testcase name=\"button-name\" classname=\"\(after.url("/product/1"))\" time=\"0\">\n      <failure"))
        #expect(text.contains("<testcase name=\"image-alt\" classname=\"\(after.url("/product/1"))\" time=\"0\"/>"))
        #expect(text.contains("type=\"could-not-audit\">HTTP 404</error>"))

        // The validator can fail: a suite without its required attributes does not validate.
        let broken = Array(text.replacingOccurrences(of: " failures=\"", with: " failed=\"").utf8)
        #expect(!XMLSchemaValidator.errors(document: broken, schema: Array(schema)).isEmpty)
    }

    @Test("SARIF validates against the SARIF 2.1.0 schema, with rule metadata and page + selector locations")
    func sarifValidates() throws {
        let fixture = try GateFixture()
        let (_, _, after) = try Self.failingGate(fixture)
        let sarif = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: fixture.path("results.sarif"))))
        let schema = try JSONSerialization.jsonObject(with: try GateSchemas.read("sarif-schema-2.1.0.json")) as! [String: Any]
        let validator = JSONSchemaValidator(root: schema)

        #expect(validator.errors(sarif) == [])
        let run = ((sarif as! [String: Any])["runs"] as! [[String: Any]])[0]
        let rules = ((run["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]]
        #expect(rules.contains { $0["id"] as? String == "button-name" && ($0["helpUri"] as? String)?.contains("button-name") == true })
        let results = run["results"] as! [[String: Any]]
        let new = results.first { $0["ruleId"] as? String == "button-name" && $0["baselineState"] as? String == "new" && $0["level"] as? String == "error" }
        let location = (new?["locations"] as? [[String: Any]])?.first
        #expect(((location?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String == after.url("/product/1"))
        #expect((location?["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String != nil)
        #expect(results.contains { $0["baselineState"] as? String == "unchanged" && $0["suppressions"] != nil })

        // SARIF 2.1.0 §3.27.9-10: a result whose kind is not "fail" has level "none".
        let review = results.filter { $0["kind"] as? String == "review" }
        #expect(review.map { $0["ruleId"] as? String } == ["autocomplete-valid"])
        for result in results where result["kind"] as? String != "fail" {
            #expect(result["level"] as? String == "none", "\(result)")
        }
        // A region says where in the page's source: the element's line, never a snippet alone.
        let body = String(decoding: GateSite.routes("after")["/product/1"]!.body, as: UTF8.self)
        let buttonLine = body.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<button type=\"button\"></button>") }! + 1
        let region = (location?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        #expect(region?["startLine"] as? Int == buttonLine)
        for result in results {
            for location in result["locations"] as? [[String: Any]] ?? [] {
                if let region = (location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any] {
                    #expect(region["startLine"] is Int, "\(region)")
                }
            }
        }
        #expect(((new?["properties"] as? [String: Any])?["snippet"] as? String)?.contains("<button") == true)

        // The validator can fail: a result without its message, a wrong version.
        var broken = sarif as! [String: Any]
        broken["version"] = "2.0.0"
        #expect(!validator.errors(broken).isEmpty)
    }

    @Test("the Markdown summary lists new failures with how to fix, and escapes page content")
    func markdownSummary() throws {
        let fixture = try GateFixture()
        let (_, _, after) = try Self.failingGate(fixture)
        let markdown = try String(contentsOfFile: fixture.path("summary.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("## Canopy accessibility gate: COULD NOT AUDIT"))
        #expect(markdown.contains("### Could not audit"))
        #expect(markdown.contains("### New failures"))
        #expect(markdown.contains("[button-name](https://dequeuniversity.com/rules/axe/4.11/button-name"))
        #expect(markdown.contains(after.url("/product/1")))
        #expect(GateOutputs.md("<script>|x") == "\\<script\\>\\|x")
    }

    @Test("the gate output JSON reads back, and a baseline written from it is sorted and stable")
    func gateOutputRoundTrip() throws {
        let fixture = try GateFixture()
        _ = try Self.failingGate(fixture)
        let report = try GateReport.load(contentsOf: fixture.path("gate.json"))
        #expect(report.result == .couldNotAudit)
        #expect(report.exitCode == 3)
        #expect(report.failing.map(\.rule) == ["button-name"])

        let maintenance = BaselineMaintenance(now: fixture.now)
        _ = maintenance.create(from: .init(fromRun: fixture.path("gate.json")), to: fixture.path("a.json"))
        _ = maintenance.create(from: .init(fromRun: fixture.path("gate.json")), to: fixture.path("b.json"))
        let a = try String(contentsOfFile: fixture.path("a.json"), encoding: .utf8)
        #expect(a == (try String(contentsOfFile: fixture.path("b.json"), encoding: .utf8)))
        #expect(a.contains("\"fingerprint\" : "))
        #expect(a.contains("\"version\" : 1"))
    }
}

@Suite("Gate policy: configuration and baseline files")
struct GatePolicyTests {
    @Test("canopy.yml's gate section is read, with defaults")
    func parsesGateSection() throws {
        let configuration = try CrawlConfiguration(yaml: """
            start: https://www.example.com/
            gate:
              baseline: a11y/baseline.json
              fail-on: moderate
              fail-on-vendors: true
              fail-on-incomplete: true
              rules: {image-alt: always, region: never}
              budgets: {"/product/*": 3, "/blog/**": 1}
              rewrite:
                https://www.example.com: https://staging.example.com
            """, file: "canopy.yml", baseDirectory: "/repo", environment: [:])
        let gate = configuration.gate
        #expect(gate.baseline == "/repo/a11y/baseline.json")
        #expect(gate.failOn == .moderate)
        #expect(gate.failOnVendors && gate.failOnIncomplete)
        #expect(gate.rules == ["image-alt": .always, "region": .never])
        #expect(gate.budgets.map(\.pattern.text) == ["/product/*", "/blog/**"])
        #expect(gate.rewrites.apply("https://www.example.com/a?b") == "https://staging.example.com/a?b")
        #expect(CrawlConfiguration(startURLs: []).gate.failOn == .serious)
    }

    @Test("mistakes in the gate section name the file, line and key", arguments: [
        ("gate:\n  fail-on: severe", "canopy.yml:3: gate.fail-on: expected one of critical, serious, moderate, minor, found \"severe\""),
        ("gate:\n  rules:\n    image-alts: never", "canopy.yml:4: gate.rules.image-alts: unknown rule \"image-alts\"; did you mean \"image-alt\"?"),
        ("gate:\n  rules:\n    image-alt: sometimes", "canopy.yml:4: gate.rules.image-alt: expected never or always, found \"sometimes\""),
        ("gate:\n  budgets:\n    product: 3", "canopy.yml:4: gate.budgets.product: \"product\" is not a path pattern: it must start with /"),
        ("gate:\n  budgets:\n    /p/*: -1", "canopy.yml:4: gate.budgets./p/*: expected a whole number of at least 0, found a number (-1)"),
        ("gate:\n  fail-on-vendor: true", "canopy.yml:3: gate.fail-on-vendor: unknown key; did you mean `fail-on-vendors`?"),
        ("gate:\n  rewrite:\n    www.example.com: staging", "canopy.yml:4: gate.rewrite.www.example.com: rewrite \"www.example.com\" → \"staging\": \"www.example.com\" is not an http(s) URL prefix"),
    ])
    func gateErrors(yaml: String, message: String) {
        #expect(throws: Diagnostic.self) {
            _ = try CrawlConfiguration(yaml: "start: https://www.example.com/\n" + yaml, file: "canopy.yml", baseDirectory: nil, environment: [:])
        }
        do {
            _ = try CrawlConfiguration(yaml: "start: https://www.example.com/\n" + yaml, file: "canopy.yml", baseDirectory: nil, environment: [:])
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a baseline with a bad date or no location is refused with the entry named")
    func baselineValidation() throws {
        let fixture = try GateFixture()
        let entry = #"{"fingerprint":"a","rule":"image-alt","outcome":"violation","signature":"s","target":"img","snippet":"<img>","url":"https://x/","expires":"2025-13-01"}"#
        try #"{"version":1,"created":"x","source":"y","entries":[\#(entry)]}"#.write(toFile: fixture.path("b.json"), atomically: true, encoding: .utf8)
        #expect(throws: Diagnostic(.usage, "\(fixture.path("b.json")): entries[0].expires: expected a date as YYYY-MM-DD, found \"2025-13-01\"")) {
            try Baseline.load(contentsOf: fixture.path("b.json"))
        }
        let nowhere = entry.replacingOccurrences(of: #","url":"https://x/""#, with: "").replacingOccurrences(of: "2025-13-01", with: "2025-12-01")
        try #"{"version":1,"created":"x","source":"y","entries":[\#(nowhere)]}"#.write(toFile: fixture.path("c.json"), atomically: true, encoding: .utf8)
        #expect(throws: Diagnostic(.usage, "\(fixture.path("c.json")): entries[0]: needs one of component, url or pageType to say where the issue is")) {
            try Baseline.load(contentsOf: fixture.path("c.json"))
        }
    }

    @Test("a rewrite prefix ends at a boundary: never inside a longer host, port or path segment")
    func rewriteBoundaries() throws {
        let host = try URLRewrite(from: "https://example.com", to: "https://staging.example.com")
        #expect(host.apply("https://example.com") == "https://staging.example.com")
        #expect(host.apply("https://EXAMPLE.com/a?b#c") == "https://staging.example.com/a?b#c")
        #expect(host.apply("https://example.com?q=1") == "https://staging.example.com?q=1")
        #expect(host.apply("https://example.com#top") == "https://staging.example.com#top")
        #expect(host.apply("https://example.com.evil.net/login") == nil)
        #expect(host.apply("https://example.community/") == nil)
        #expect(host.apply("https://example.com:8443/") == nil)
        #expect(host.apply("http://example.com/") == nil)

        let path = try URLRewrite(from: "https://example.com/shop", to: "https://staging.example.com/store")
        #expect(path.apply("https://example.com/shop") == "https://staging.example.com/store")
        #expect(path.apply("https://example.com/shop/1?x") == "https://staging.example.com/store/1?x")
        #expect(path.apply("https://example.com/shopping") == nil)
        #expect(path.apply("https://example.com/Shop/1") == nil, "paths compare exactly; only scheme and host ignore case")

        let folder = try URLRewrite(from: "https://example.com/shop/", to: "https://staging.example.com/s/")
        #expect(folder.apply("https://example.com/shop/1") == "https://staging.example.com/s/1")
        #expect([host].applyToPageType("//example.com/product/*") == "//staging.example.com/product/*")
        #expect([host].applyToPageType("//example.community/product/*") == "//example.community/product/*")
    }

    @Test("a waiver date must be a day of the calendar", arguments: ["2025-02-29", "2025-02-31", "2025-04-31", "2025-00-10", "2025-01-00", "2025-1-01"])
    func impossibleWaiverDates(text: String) {
        #expect(WaiverDate(text) == nil)
    }

    @Test("a baseline entry expiring on a day that does not exist is refused, saying why")
    func baselineRefusesImpossibleDate() throws {
        #expect(WaiverDate("2024-02-29") != nil)
        #expect(WaiverDate("2025-12-31") != nil)
        let fixture = try GateFixture()
        let entry = #"{"fingerprint":"a","rule":"image-alt","outcome":"violation","signature":"s","target":"img","snippet":"<img>","url":"https://x/","expires":"2025-02-31"}"#
        try #"{"version":1,"created":"x","source":"y","entries":[\#(entry)]}"#.write(toFile: fixture.path("b.json"), atomically: true, encoding: .utf8)
        #expect(throws: Diagnostic(.usage, "\(fixture.path("b.json")): entries[0].expires: \"2025-02-31\" is not a day of the calendar (February 2025 has 28 days)")) {
            try Baseline.load(contentsOf: fixture.path("b.json"))
        }
        let created = BaselineMaintenance().create(from: .init(fromRun: fixture.path("none.json")), to: fixture.path("c.json"), expires: "2025-06-31")
        #expect(created.exitStatus == .usageError)
        #expect(created.messages == [.problem(.usage(#"--expires: "2025-06-31" is not a day of the calendar (June 2025 has 30 days)"#))])
    }

    @Test("path patterns: * within a segment, ** across segments, page-type queries")
    func pathPatterns() throws {
        #expect(try PathPattern("/product/*").matches(url: "https://x/product/12"))
        #expect(try !PathPattern("/product/*").matches(url: "https://x/product/12/reviews"))
        #expect(try PathPattern("/docs/**").matches(url: "https://x/docs/a/b/c"))
        #expect(try PathPattern("/search?q=*").matches(url: "https://x/search?q=shoes"))
        #expect(try !PathPattern("/search?q=*").matches(url: "https://x/search?q=shoes&page=2"))
        #expect(try PathPattern("/img/*.jpg").matches(url: "https://x/img/1.jpg"))
    }
}
