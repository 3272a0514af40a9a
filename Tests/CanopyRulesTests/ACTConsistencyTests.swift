import CanopyHTML
import CanopyRules
import CanopyStyle
import CanopyTestSupport
import Foundation
import Testing

/// Every W3C ACT test case in ../shared/act run through the Canopy rules that map to its ACT rule
/// (by axe-core's `actIds`, and a Canopy rule's own `actRules` where axe names none), each ACT rule rated as W3C rates implementations (shared/act's
/// README): inconsistent on any false positive or when no failed example is caught, consistent
/// when every failed example is, partial otherwise. The table is committed as
/// docs/act-consistency.md; any change to it, better or worse, fails here until the file is
/// regenerated in the same change:
///
///     CANOPY_UPDATE_ACT_TABLE=1 swift test --filter ACTConsistencyTests
struct ACTConsistencyTests {
    static let act = SharedFixtures.conformance.deletingLastPathComponent().appendingPathComponent("act")
    static let table = SharedFixtures.repositoryRoot.appendingPathComponent("docs/act-consistency.md")

    enum Outcome: String { case failed, passed, cantTell, inapplicable }

    struct RuleRow {
        let id: String
        let name: String
        let status: String
        let canopyRules: [String]
        var examples = 0
        var failedExamples = 0
        var caught = 0
        var cantTellOnFailed = 0
        var falsePositives: [String] = []
        /// Any example answered "can't tell", and inapplicable examples answered so.
        var answeredCantTell = false
        var cantTellOnInapplicable = 0

        /// W3C's rating (act-tools, `get-consistency.ts`), except that "consistent" also asks every
        /// failed example to be caught, where W3C accepts "can't tell" on some of them.
        var rating: String {
            if canopyRules.isEmpty { return "untested" }
            if !falsePositives.isEmpty { return "inconsistent" }
            if caught == failedExamples { return "consistent" }
            if caught > 0 { return "partial" }
            // A rule that never fails but says "can't tell" rather than guess is partial, as long
            // as it does not doubt the examples it should find inapplicable.
            return answeredCantTell && cantTellOnInapplicable == 0 ? "partial" : "inconsistent"
        }
    }

    /// Stylesheets of the examples, from the files beside them; `/test-assets/...` is the
    /// examples' own site root.
    struct ExampleSheets: StyleSheetLoading {
        let root: URL

        func resolve(_ href: String, relativeTo base: String?) -> String {
            if href.hasPrefix("/") { return root.appendingPathComponent(String(href.dropFirst())).absoluteString }
            guard let base = base.flatMap(URL.init(string:)), let url = URL(string: href, relativeTo: base) else { return href }
            return url.absoluteURL.absoluteString
        }

        func load(_ href: String, relativeTo base: String?) -> StyleSheetLoad {
            let url = resolve(href, relativeTo: base)
            guard let path = URL(string: url)?.path, url.hasPrefix("file:"), let data = FileManager.default.contents(atPath: path) else {
                return .failed(url: url, reason: "not among the test assets")
            }
            return .loaded(url: url, sheet: ParsedStyleSheet(parsing: String(decoding: data, as: UTF8.self)))
        }
    }

    /// Frames of the examples, from the files beside them; `/test-assets/...` is the examples'
    /// own site root, and no other address is loaded.
    struct ExampleFrames: FrameLoading {
        let root: URL

        func frameDocument(at url: String) -> FrameContent {
            guard let parsed = URL(string: url), parsed.isFileURL else { return .unavailable(reason: "not among the test assets") }
            let path = parsed.path.hasPrefix("/test-assets/") ? root.appendingPathComponent(String(parsed.path.dropFirst())).path : parsed.path
            guard let data = FileManager.default.contents(atPath: path) else { return .unavailable(reason: "not among the test assets") }
            return .document(HTMLParser().parse(bytes: [UInt8](data), url: URL(fileURLWithPath: path).absoluteString))
        }
    }

    static func computeTable() throws -> String {
        render(try computeRows())
    }

    static func computeRows() throws -> [RuleRow] {
        let decoder = { (name: String) throws -> [String: Any] in
            let data = try Data(contentsOf: act.appendingPathComponent(name))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let axeRules = try #require(try decoder("axe-rules.json")["rules"] as? [String: [String: Any]])
        let w3c = try #require(try decoder("w3c-rules.json")["rules"] as? [String: [String: Any]])
        let manifest = try #require(try decoder("act-rules/manifest.json")["rules"] as? [[String: Any]])
        let ours = Set(RuleCatalog.all.map(\.metadata.id))
        let root = act.appendingPathComponent("act-rules")
        let environment = StyleEnvironment(viewport: .desktop, loader: ExampleSheets(root: root))

        var rows: [RuleRow] = []
        for entry in manifest {
            guard let id = entry["ruleId"] as? String, let facts = w3c[id], facts["deprecated"] as? Bool != true else { continue }
            let byAxe = axeRules.filter { ours.contains($0.key) && (($0.value["actIds"] as? [String]) ?? []).contains(id) }.keys
            let byCanopy = RuleCatalog.all.filter { $0.metadata.actRules.contains(id) }.map(\.metadata.id)
            let mapped = Set(byAxe).union(byCanopy).sorted()
            var row = RuleRow(
                id: id, name: (facts["name"] as? String) ?? id, status: facts["proposed"] as? Bool == true ? "proposed" : "approved",
                canopyRules: mapped
            )
            let auditor = Auditor(rules: mapped.compactMap(RuleCatalog.rule(withID:)))
            for example in (entry["examples"] as? [[String: Any]]) ?? [] {
                guard let expected = example["expected"] as? String, let file = example["file"] as? String else { continue }
                row.examples += 1
                if expected == "failed" { row.failedExamples += 1 }
                guard !mapped.isEmpty else { continue }
                let url = root.appendingPathComponent(file)
                let document = HTMLParser().parse(bytes: [UInt8]((try? Data(contentsOf: url)) ?? Data()), url: url.absoluteString)
                let nodes = auditor.audit(document, styles: environment, frames: ExampleFrames(root: root)).rules.flatMap(\.nodes)
                let outcome: Outcome
                if nodes.contains(where: { if case .violation = $0.outcome { true } else { false } }) {
                    outcome = .failed
                } else if nodes.contains(where: { if case .incomplete = $0.outcome { true } else { false } }) {
                    outcome = .cantTell
                } else {
                    outcome = nodes.isEmpty ? .inapplicable : .passed
                }
                if outcome == .cantTell {
                    row.answeredCantTell = true
                    if expected == "inapplicable" { row.cantTellOnInapplicable += 1 }
                }
                switch (expected, outcome) {
                case ("failed", .failed): row.caught += 1
                case ("failed", .cantTell): row.cantTellOnFailed += 1
                case (_, .failed) where expected != "failed": row.falsePositives.append(URL(fileURLWithPath: file).lastPathComponent)
                default: break
                }
            }
            rows.append(row)
        }
        return rows.sorted { ($0.status, $0.id) < ($1.status, $1.id) }
    }

    static func render(_ rows: [RuleRow]) -> String {
        var text = """
            # Canopy on the W3C ACT rules

            Every test case of the W3C ACT rules in `shared/act` (not deprecated ones), run through the
            Canopy rules that map to each ACT rule (axe-core's `actIds`, plus the ACT rules a Canopy
            rule's metadata names in `actRules` where axe maps none), and rated as W3C rates an
            implementation (act-tools): **inconsistent** on any false positive (a passed or inapplicable
            example reported failed); **consistent** when every failed example is reported failed;
            **partial** when some are, or when none is but the rule answers "can't tell" rather than
            guess and never on an inapplicable example; **inconsistent** otherwise; **untested** when no
            Canopy rule maps to it. W3C also rates a rule consistent when some failed examples are
            only "can't tell", and compares the success criteria a tool reports: this table does neither.

            Generated by `ACTConsistencyTests`, which fails when this file is not what the rules give
            today: `CANOPY_UPDATE_ACT_TABLE=1 swift test --filter ACTConsistencyTests` rewrites it.


            """
        for status in ["approved", "proposed"] {
            let group = rows.filter { $0.status == status }
            let counts = ["consistent", "partial", "inconsistent", "untested"].map { rating in
                "\(group.filter { $0.rating == rating }.count) \(rating)"
            }
            text += "## \(status.capitalized) rules: \(counts.joined(separator: ", "))\n\n"
            text += "| ACT rule | name | Canopy rules | examples | failed caught | failed, can't tell | false positives | rating |\n"
            text += "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
            for row in group {
                let rules = row.canopyRules.isEmpty ? "—" : row.canopyRules.map { "`\($0)`" }.joined(separator: ", ")
                let wrong = row.falsePositives.isEmpty ? "0" : "\(row.falsePositives.count): " + row.falsePositives.joined(separator: ", ")
                text += "| \(row.id) | \(row.name) | \(rules) | \(row.examples) | \(row.caught) of \(row.failedExamples) | \(row.cantTellOnFailed) | \(wrong) | \(row.rating) |\n"
            }
            text += "\n"
        }
        return text + notesSection
    }

    /// A rule's own `actRules` name real, current ACT rules, and only ones axe does not already map it to.
    @Test(.enabled(if: SharedFixtures.isAvailable))
    func ownACTMappingsNameRulesAxeLeavesOut() throws {
        let w3c = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.act.appendingPathComponent("w3c-rules.json"))) as? [String: Any])
        let actRules = try #require(w3c["rules"] as? [String: [String: Any]])
        let axe = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.act.appendingPathComponent("axe-rules.json"))) as? [String: Any])
        let axeRules = try #require(axe["rules"] as? [String: [String: Any]])
        for rule in RuleCatalog.all {
            let axeIDs = (axeRules[rule.metadata.id]?["actIds"] as? [String]) ?? []
            for id in rule.metadata.actRules {
                #expect(actRules[id] != nil && actRules[id]?["deprecated"] as? Bool != true, "\(rule.metadata.id): \(id) is not a current ACT rule")
                #expect(!axeIDs.contains(id), "\(rule.metadata.id): axe-core already maps it to \(id)")
            }
        }
    }

    @Test(.enabled(if: SharedFixtures.isAvailable))
    func committedTableIsWhatTheRulesGive() throws {
        let computed = try Self.computeTable()
        if ProcessInfo.processInfo.environment["CANOPY_UPDATE_ACT_TABLE"] == "1" {
            try computed.write(to: Self.table, atomically: true, encoding: .utf8)
            return
        }
        let committed = try String(contentsOf: Self.table, encoding: .utf8)
        #expect(
            committed == computed,
            "docs/act-consistency.md is not what the rules give today: run CANOPY_UPDATE_ACT_TABLE=1 swift test --filter ACTConsistencyTests and commit the change"
        )
    }
}
