import CanopyHTML
import CanopyRules
import CanopyTestSupport
import Foundation
import Testing

/// axe-core's own integration fixtures (../shared/conformance) for every rule Canopy has:
/// each expected target must be reported in its group, and nothing else may be, except for the
/// disagreements listed in Tests/conformance-known-differences.txt. A listed disagreement that
/// no longer occurs fails too, so that the list stays honest.
struct ConformanceTests {
    struct FixtureCase: CustomTestStringConvertible, Sendable {
        let rule: String
        let html: String
        let json: String
        var testDescription: String { json }
    }

    struct ManifestEntry: Decodable {
        let rule: String, json: String, html: String
    }

    struct Manifest: Decodable { let fixtures: [ManifestEntry] }

    struct Expectations: Decodable {
        let violations: [[String]]?
        let passes: [[String]]?
        let incomplete: [[String]]?
    }

    /// One way Canopy and axe-core disagree on a fixture, as axe's runner would report it:
    /// an expected target missing from its group, or an extra node in a group the fixture lists.
    struct Disagreement: Hashable, Sendable, CustomStringConvertible {
        enum Kind: String, Sendable { case missing, extra }
        let rule: String
        let target: String
        let group: String
        let kind: Kind
        var key: KnownDifferences.Key { .init(rule: rule, target: target, group: group) }
        var description: String { "\(rule)  \(target)  \(group)  (\(kind.rawValue))" }
    }

    /// What one fixture gave: counts for the table, and the disagreements.
    struct FixtureReport: Sendable {
        var expected = 0
        var matched = 0
        var disagreements: [Disagreement] = []
        /// Problems of the harness itself (a selector that matches no element, ...), never excusable.
        var harnessProblems: [String] = []
    }

    /// Loads the frames of axe's fixtures from the fixture folders, as axe's test server serves them.
    struct FixtureFrames: FrameLoading {
        static let origin = "http://axe-fixtures.test"

        func frameDocument(at url: String) -> FrameContent {
            let prefix = Self.origin + "/integration/rules/"
            guard url.hasPrefix(prefix), let html = try? SharedFixtures.read("axe-integration/" + url.dropFirst(prefix.count)) else {
                return .unavailable(reason: "not among the fixtures' files")
            }
            return .document(HTMLParser().parse(html: html, url: url))
        }
    }

    static func cases() -> [FixtureCase] {
        guard let text = try? SharedFixtures.read("axe-integration-manifest.json"),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
        else { return [] }
        let ours = Set(RuleCatalog.all.map(\.metadata.id))
        return manifest.fixtures.filter { ours.contains($0.rule) }.map {
            FixtureCase(rule: $0.rule, html: $0.html, json: $0.json)
        }
    }

    /// Runs the fixture's rule over it in axe's runner set-up (`#fixture` as the context) and
    /// compares each group that the fixture's JSON lists, by element.
    static func run(_ fixture: FixtureCase) throws -> FixtureReport {
        let rule = try #require(RuleCatalog.rule(withID: fixture.rule))
        let html = try SharedFixtures.read("axe-integration/" + fixture.html)
        let expected = try JSONDecoder().decode(Expectations.self, from: Data(try SharedFixtures.read("axe-integration/" + fixture.json).utf8))
        // At the address axe's runner serves it from, so the fixture's frames resolve to its folder.
        let document = HTMLParser().parse(html: SharedFixtures.wrap(html), url: FixtureFrames.origin + "/integration/rules/" + fixture.html)
        let scope = AuditScope(include: [try SelectorList("#fixture")])
        let result = try #require(Auditor(rules: [rule]).audit(document, scope: scope, frames: FixtureFrames()).rules.first)

        var report = FixtureReport()
        func compare(_ group: String, expected targets: [[String]]?, actual: [NodeResult]) throws {
            guard let targets else { return }  // absent groups are not checked, as in axe's runner
            var wanted: [(target: String, place: ExpectedPlace)] = []
            for target in targets {
                // The outermost frame's selector is read in the page, the innermost in the frame's document.
                let matches = document.querySelectorAll(try SelectorList(target[0]))
                guard matches.count == 1 else {
                    report.harnessProblems.append("\(fixture.json): \(target[0]) matches \(matches.count) elements")
                    continue
                }
                let inner = target.count > 1 ? try SelectorList(target[target.count - 1]) : nil
                wanted.append((target.joined(separator: " >>> "), ExpectedPlace(outer: matches[0], depth: target.count - 1, inner: inner)))
            }
            report.expected += wanted.count
            func matches(_ node: NodeResult, _ place: ExpectedPlace) -> Bool {
                guard node.framePath.count == place.depth else { return false }
                guard let inner = place.inner, let frame = node.framePath.first else { return node.element == place.outer }
                let frames = document.querySelectorAll((try? SelectorList(frame)) ?? inner)
                return frames == [place.outer] && node.element.document.querySelectorAll(inner) == [node.element]
            }
            for (target, place) in wanted {
                if actual.contains(where: { matches($0, place) }) {
                    report.matched += 1
                } else {
                    report.disagreements.append(Disagreement(rule: fixture.rule, target: target, group: group, kind: .missing))
                }
            }
            for node in actual where !wanted.contains(where: { matches(node, $0.place) }) {
                report.disagreements.append(Disagreement(rule: fixture.rule, target: Self.target(of: node, in: document), group: group, kind: .extra))
            }
        }
        try compare("violations", expected: expected.violations, actual: result.violations)
        try compare("passes", expected: expected.passes, actual: result.passes)
        try compare("incomplete", expected: expected.incomplete, actual: result.incomplete)
        return report
    }

    /// Where an expected target is: an element of the page, or (depth > 0) an element of a frame's
    /// document under the page's frame element `outer`.
    struct ExpectedPlace {
        let outer: Element
        let depth: Int
        let inner: SelectorList?
    }

    /// `#id` when the id is unique, as the fixtures write targets; otherwise our own selector.
    /// Inside frames, the frame selectors and the element's, joined by " >>> ".
    static func target(of node: NodeResult, in document: Document) -> String {
        (node.framePath + [ownTarget(of: node, in: node.element.document)]).joined(separator: " >>> ")
    }

    private static func ownTarget(of node: NodeResult, in document: Document) -> String {
        if let id = node.element.id, !id.isEmpty, let selector = try? SelectorList("#" + id),
            document.querySelectorAll(selector).count == 1
        {
            return "#" + id
        }
        return node.target
    }

    /// Every rule of the catalog is checked against axe-core's fixtures, except these whole-page
    /// rules that have none there (their tests are the page tests of this target). A rule whose
    /// fixtures stop being found, by a renamed id or a changed manifest, fails here.
    static let rulesWithoutFixtures: Set<String> = [
        "aria-hidden-body", "bypass", "document-title", "html-has-lang", "html-lang-valid", "html-xml-lang-mismatch",
        "landmark-banner-is-top-level", "landmark-contentinfo-is-top-level", "landmark-main-is-top-level",
        "landmark-no-duplicate-banner", "landmark-no-duplicate-contentinfo", "landmark-no-duplicate-main",
        "landmark-one-main", "page-has-heading-one", "region", "skip-link", "css-orientation-lock", "meta-refresh-no-exceptions",
    ]

    @Test(.enabled(if: SharedFixtures.isAvailable, "the shared conformance folder (../shared/conformance) is not present"))
    func everyRegisteredRuleWithFixturesIsCovered() throws {
        let covered = Set(Self.cases().map(\.rule))
        let catalog = Set(RuleCatalog.all.map(\.metadata.id))
        #expect(catalog.subtracting(covered) == Self.rulesWithoutFixtures)
    }

    @Test(arguments: cases())
    func fixture(_ fixture: FixtureCase) throws {
        let known = try KnownDifferences.load()
        let report = try Self.run(fixture)
        for problem in report.harnessProblems { Issue.record(Comment(rawValue: problem)) }
        for disagreement in report.disagreements where !known.contains(disagreement.key) {
            Issue.record("\(disagreement.kind == .missing ? "missing from" : "unexpected in") \(disagreement.group): \(disagreement.target) — add `\(disagreement.rule)  \(disagreement.target)  \(disagreement.group)  <reason>` to Tests/conformance-known-differences.txt only if Canopy is right or cannot decide statically")
        }
    }

    /// The per-rule table, and the check that every listed known difference still occurs.
    @Test(.enabled(if: SharedFixtures.isAvailable, "the shared conformance folder (../shared/conformance) is not present"))
    func summaryAndKnownDifferencesStayHonest() throws {
        let known = try KnownDifferences.load()
        struct Row { var fixtures = 0, expected = 0, matched = 0, missing = 0, extra = 0, known = 0 }
        var rows: [String: Row] = [:]
        var occurred: Set<KnownDifferences.Key> = []
        for fixture in Self.cases() {
            let report = try Self.run(fixture)
            var row = rows[fixture.rule] ?? Row()
            row.fixtures += 1
            row.expected += report.expected
            row.matched += report.matched
            for disagreement in report.disagreements {
                occurred.insert(disagreement.key)
                if known.contains(disagreement.key) {
                    row.known += 1
                } else if disagreement.kind == .missing {
                    row.missing += 1
                } else {
                    row.extra += 1
                }
            }
            rows[fixture.rule] = row
        }

        let header = ["rule", "fixtures", "expected", "matched", "missing", "extra", "known"]
        var lines = [header]
        var total = Row()
        for (rule, row) in rows.sorted(by: { $0.key < $1.key }) {
            lines.append([rule] + [row.fixtures, row.expected, row.matched, row.missing, row.extra, row.known].map(String.init))
            total.fixtures += row.fixtures
            total.expected += row.expected
            total.matched += row.matched
            total.missing += row.missing
            total.extra += row.extra
            total.known += row.known
        }
        lines.append(["total"] + [total.fixtures, total.expected, total.matched, total.missing, total.extra, total.known].map(String.init))
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        let table = lines.map { cells in
            cells.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        print("axe-core conformance (missing/extra exclude known differences):\n" + table.joined(separator: "\n"))

        let registered = Set(RuleCatalog.all.map(\.metadata.id))
        for entry in known.entries where registered.contains(entry.key.rule) && !occurred.contains(entry.key) {
            Issue.record("Tests/conformance-known-differences.txt:\(entry.line): \(entry.key.rule)  \(entry.key.target)  \(entry.key.group) no longer disagrees; remove the line")
        }
    }

    @Test func knownDifferencesFileIsWellFormed() throws {
        let known = try KnownDifferences.load()
        let groups: Set<String> = ["violations", "passes", "incomplete"]
        var seen: Set<KnownDifferences.Key> = []
        for entry in known.entries {
            #expect(groups.contains(entry.key.group), "line \(entry.line): group must be violations, passes or incomplete")
            #expect(!entry.reason.isEmpty, "line \(entry.line): give a reason")
            #expect(seen.insert(entry.key).inserted, "line \(entry.line): listed twice")
        }
    }

    @Test func knownDifferencesParsing() throws {
        let known = try KnownDifferences(
            text: """
                # comment
                list  #divul  violations  because

                color-contrast\t#pass7 > input\tpasses\tneeds layout
                """
        )
        #expect(known.entries.map(\.key) == [
            .init(rule: "list", target: "#divul", group: "violations"),
            .init(rule: "color-contrast", target: "#pass7 > input", group: "passes"),
        ])
        #expect(known.entries.map(\.line) == [2, 4])
        #expect(known.entries.last?.reason == "needs layout")
        #expect(throws: KnownDifferences.FormatError.self) { try KnownDifferences(text: "list #divul violations") }
    }
}

/// Tests/conformance-known-differences.txt: disagreements with axe's fixtures that are accepted,
/// one per line as `rule-id  target  group  reason`, the fields separated by two or more spaces or
/// a tab (a target may contain single spaces); `#` starts a comment line.
struct KnownDifferences {
    struct Key: Hashable, Sendable {
        let rule: String, target: String, group: String
    }

    struct Entry {
        let key: Key
        let reason: String
        let line: Int
    }

    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        var description: String { "Tests/conformance-known-differences.txt:\(line): expected `rule-id  target  group  reason`" }
    }

    static let file = SharedFixtures.repositoryRoot.appendingPathComponent("Tests/conformance-known-differences.txt")

    let entries: [Entry]
    private let keys: Set<Key>

    static func load() throws -> KnownDifferences {
        try KnownDifferences(text: try String(contentsOf: file, encoding: .utf8))
    }

    init(text: String) throws {
        var entries: [Entry] = []
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.replacingOccurrences(of: "\t", with: "  ").components(separatedBy: "  ")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard fields.count >= 4 else { throw FormatError(line: index + 1) }
            entries.append(
                Entry(
                    key: Key(rule: fields[0], target: fields[1], group: fields[2]),
                    reason: fields[3...].joined(separator: " "), line: index + 1
                )
            )
        }
        self.entries = entries
        self.keys = Set(entries.map(\.key))
    }

    func contains(_ key: Key) -> Bool { keys.contains(key) }
}
