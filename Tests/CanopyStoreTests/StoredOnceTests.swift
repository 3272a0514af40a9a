import CanopyHistory
import CanopyRules
import Foundation
import Testing
@testable import CanopyStore
import CanopyHistoryTestSupport

/// Text stored once and referenced by id (schema version 8): written once, read back byte for
/// byte, the same after migrating an older store, and never read through an id gone stale.
struct StoredOnceTests {
    /// "é" as one code point and as "e" and a combining accent: equal as Swift strings, different text.
    static let composed = "<img alt=\"caf\u{E9}\">"
    static let decomposed = "<img alt=\"cafe\u{301}\">"

    static func finding(_ rule: String, snippet: String, signature: String, evidence: [String: EvidenceValue] = [:]) -> FindingRecord {
        FindingRecord(
            Finding(ruleID: rule, impact: .serious, outcome: .violation, target: "img", snippet: snippet, message: "it fails", evidence: evidence),
            identity: FindingIdentity(elementSignature: signature, component: nil)
        )
    }

    static func rows(_ store: RunStore, _ sql: SQL) throws -> Int {
        try store.withDatabase { try $0.queryFirst(sql) { $0.int(0) } ?? 0 }
    }

    @Test func repeatedTextIsStoredOnceAndReadBackByteForByte() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        #expect(Self.composed == Self.decomposed, "Swift compares them as equal")
        let findings = [
            Self.finding("image-alt", snippet: Self.composed, signature: "s1"),
            Self.finding("image-alt", snippet: Self.decomposed, signature: "s1"),
            Self.finding("image-alt", snippet: "emoji 👩🏽‍💻 and NUL \u{0} inside", signature: "s2", evidence: ["ratio": .number(2.5), "colour": .text("#777")]),
        ]
        let pages = ["a", "b"].map { name in
            PageRecord(url: "https://shop.example/\(name)", statusCode: 200, findings: findings, passCounts: ["image-alt": 2, "link-name": 0])
        }
        let runs = try (0..<3).map { week in
            try store.recordCompleteRun(pages, start: .test(at: Date(timeIntervalSince1970: 1_700_000_000 + Double(week) * 604_800)))
        }

        // Six findings a run, three runs: three distinct texts, and one set of pass counts.
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM findings") == 18)
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM finding_details") == 3)
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM pass_counts") == 1)
        for run in runs {
            let stored = try store.findings(run: run)
            #expect(stored.map { Array($0.snippet.utf8) } == pages.flatMap { _ in findings.map { Array($0.snippet.utf8) } })
            #expect(stored.map(\.finding) == pages.flatMap { _ in findings.map(\.finding) })
            #expect(try store.passCounts(run: run, pageURL: "https://shop.example/b") == ["image-alt": 2])
        }
        var passes: [[String: Int]] = []
        try store.forEachPageResult(run: runs[2]) { _, _, counts in passes.append(counts) }
        #expect(passes == [["image-alt": 2], ["image-alt": 2]])
    }

    /// One after another, as a page's findings of one rule come: each pair is equal to Swift
    /// (or to `==` on numbers) and written differently, so none may take the evidence before it.
    @Test func evidenceThatIsWrittenDifferentlyKeepsItsOwnText() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        let evidences: [[String: EvidenceValue]] = [
            ["colour": .text("caf\u{E9}"), "ratio": .number(2.5)],
            ["colour": .text("cafe\u{301}"), "ratio": .number(2.5)],
            ["colour": .text("cafe\u{301}"), "ratio": .number(2.5)],
            ["ratio": .number(0)],
            ["ratio": .number(-0.0)],
            ["caf\u{E9}": .text("x")],
            ["cafe\u{301}": .text("x")],
            ["cafe\u{301}": .number(1)],
            ["cafe\u{301}": .number(1), "other": .number(1)],
        ]
        let findings = evidences.enumerated().map { index, evidence in
            Self.finding("color-contrast", snippet: "<p>\(index)</p>", signature: "s\(index)", evidence: evidence)
        }
        let run = try store.recordCompleteRun([PageRecord(url: "https://shop.example/a", statusCode: 200, findings: findings)], start: .test())

        let stored = try store.findings(run: run)
        #expect(stored.map { RunStore.evidenceJSON($0.evidence).map { Array($0.utf8) } } == evidences.map { RunStore.evidenceJSON($0).map { Array($0.utf8) } })
        let texts = try store.withDatabase { try $0.query("SELECT evidence FROM finding_details ORDER BY id") { $0.optionalString(0) } }
        #expect(texts.map { $0.map { Array($0.utf8) } } == evidences.map { RunStore.evidenceJSON($0).map { Array($0.utf8) } })
    }

    @Test func textWrittenByARolledBackBatchIsWrittenAgain() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        let run = try store.begin(.test())
        // The finding's text is written, then its row refused: the batch rolls back, text and all.
        try store.withDatabase {
            try $0.execute(
                """
                CREATE TRIGGER refuse BEFORE INSERT ON findings
                WHEN (SELECT rule_id FROM finding_details WHERE id = NEW.detail_id) = 'boom' BEGIN SELECT RAISE(ABORT, 'refused'); END
                """
            )
        }
        let page = PageRecord(url: "https://shop.example/a", findings: [Self.finding("boom", snippet: "<b>", signature: "x")])
        #expect(throws: SQLiteError.self) { try store.record([page], run: run) }
        try store.withDatabase { try $0.execute("DROP TRIGGER refuse") }
        try store.record([page], run: run)
        #expect(try store.findings(run: run).map(\.finding) == [page.findings[0].finding])
    }

    @Test func pruningDeletesUnusedTextAndTheStoreForgetsItsIDs() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("canopy.sqlite")
        let store = try RunStore(path: path)
        let other = try RunStore(path: path)
        func page(_ snippet: String) -> PageRecord {
            PageRecord(url: "https://shop.example/a", statusCode: 200, findings: [Self.finding("image-alt", snippet: snippet, signature: "s")])
        }
        func start(_ week: Double) -> RunStart { .test(at: Date(timeIntervalSince1970: 1_700_000_000 + week * 604_800)) }
        try store.recordCompleteRun([page("<gone>")], start: start(0))
        try other.recordCompleteRun([page("<kept>")], start: start(1))
        try store.recordCompleteRun([page("<kept>")], start: start(2))
        // This store prunes: "<gone>" only the first run had, and its id can be given out again.
        _ = try store.prune(RetentionPolicy(keepRuns: 2))
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM finding_details") == 1)
        let again = try store.recordCompleteRun([page("<gone>"), PageRecord(url: "https://shop.example/b")], start: start(3))
        #expect(try store.findings(run: again).map(\.snippet) == ["<gone>"])
        // The other store's ids went stale when this one pruned; it notices the commit.
        _ = try store.prune(RetentionPolicy(keepRuns: 1))
        let late = try other.recordCompleteRun([page("<kept>")], start: start(4))
        #expect(try other.findings(run: late).map(\.snippet) == ["<kept>"])
    }

    @Test func aVersionSixStoreKeepsEveryFindingsTextThroughTheMigration() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("v6.sqlite")
        let evidence = try #require(RunStore.evidenceJSON(["ratio": .number(3.1)]))
        typealias Row = [String?]
        let findingsRead: SQL = """
            SELECT pages.url, rule_id, impact, outcome, target, snippet, message, owner, element_signature, component_key, issue_key, evidence
            FROM findings JOIN pages ON pages.id = findings.page_id WHERE findings.run_id = ? ORDER BY findings.id
            """
        var before: [[Row]] = []
        // What Canopy with schema version 6 wrote: two analysed runs repeating most of their findings.
        do {
            let database = try SQLiteDatabase(path: path)
            try Schema.migrate(database, analyzer: RunAnalysis(), to: 6)
            for run in 1...2 {
                try database.run(
                    """
                    INSERT INTO runs (id, started_at, ended_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version, start_urls, pages_crawled)
                    VALUES (?, ?, ?, 'complete', 'c', 'default', ?, 'h', '0.1.0', 'https://shop.example/', 2)
                    """,
                    [.integer(Int64(run)), .real(1_700_000_000 + Double(run) * 604_800), .real(1_700_000_060 + Double(run) * 604_800), .text("image-alt\nlink-name")]
                )
                for (offset, name) in ["a", "b"].enumerated() {
                    let page = Int64(run * 10 + offset)
                    try database.run(
                        "INSERT INTO pages (id, run_id, url, status_code, page_type) VALUES (?, ?, ?, 200, '/*')",
                        [.integer(page), .integer(Int64(run)), .text("https://shop.example/\(name)")]
                    )
                    try database.run("INSERT INTO rule_passes (page_id, rule_id, passes) VALUES (?, 'image-alt', ?), (?, 'link-name', 4)", [
                        .integer(page), .integer(Int64(run + offset)), .integer(page),
                    ])
                    try database.run("INSERT INTO page_components (page_id, component_key, structure_hash) VALUES (?, 'footer', ?)", [
                        .integer(page), .text("shape-\(offset)"),
                    ])
                    try database.run(
                        """
                        INSERT INTO findings (id, run_id, page_id, rule_id, impact, outcome, target, snippet, message, owner, element_signature,
                                              component_key, component_hash, component_signature, issue_key, evidence)
                        VALUES (?, ?, ?, 'image-alt', 'critical', 'violation', 'img', ?, 'no alt', NULL, 'sig-img', NULL, NULL, NULL, 'k-img', ?),
                               (?, ?, ?, 'image-alt', 'critical', 'violation', 'img', ?, 'no alt', NULL, 'sig-img', NULL, NULL, NULL, 'k-img', NULL),
                               (?, ?, ?, 'link-name', 'serious', 'incomplete', 'footer a', '<a>', ?, 'Vendor', ?, 'footer', ?, 'in-footer', 'k-link', NULL)
                        """,
                        [
                            .integer(page * 10), .integer(Int64(run)), .integer(page), .text(Self.composed), .text(evidence),
                            .integer(page * 10 + 1), .integer(Int64(run)), .integer(page), .text(Self.decomposed),
                            .integer(page * 10 + 2), .integer(Int64(run)), .integer(page), .text("no name on run \(run)"), .text("sig-\(name)"),
                            .text("shape-\(offset)"),
                        ]
                    )
                }
                try database.run(
                    """
                    INSERT INTO run_issues (run_id, issue_key, rule_id, impact, outcome, owner, page_type, component_key, instances, findings, example_finding_id)
                    VALUES (?, 'k-img', 'image-alt', 'critical', 'violation', NULL, '/*', NULL, 2, 4, ?),
                           (?, 'k-link', 'link-name', 'serious', 'incomplete', 'Vendor', NULL, 'footer', 2, 2, ?)
                    """,
                    [.integer(Int64(run)), .integer(Int64(run * 100 + 1)), .integer(Int64(run)), .integer(Int64(run * 100 + 2))]
                )
                try database.run("INSERT INTO run_components (run_id, component_key, structure_hash, page_count) VALUES (?, 'footer', 'shape-0', 1)", [
                    .integer(Int64(run)),
                ])
                before.append(try database.query(findingsRead, [.integer(Int64(run))]) { row in (Int32(0)..<12).map { row.optionalString($0) } })
            }
        }

        let store = try RunStore(path: path)
        #expect(try store.schemaVersion() == RunStore.schemaVersion)
        for (index, run) in [RunID(1), RunID(2)].enumerated() {
            let after: [Row] = try store.findings(run: run).map { finding in
                [
                    finding.pageURL, finding.ruleID, finding.impact.rawValue, finding.outcome.rawValue, finding.target, finding.snippet,
                    finding.message, finding.owner, finding.elementSignature, finding.componentKey, finding.issueKey,
                    RunStore.evidenceJSON(finding.evidence),
                ]
            }
            #expect(after.map { $0.map { $0.map { Array($0.utf8) } } } == before[index].map { $0.map { $0.map { Array($0.utf8) } } })
            let instances = try store.issueInstances(run: run)
            #expect(instances.map(\.componentSignature) == [nil, nil, "in-footer", nil, nil, "in-footer"])
            #expect(instances.map(\.inSiteWideComponent) == [false, false, true, false, false, false])
            #expect(try store.passCounts(run: run, pageURL: "https://shop.example/b") == ["image-alt": index + 2, "link-name": 4])
            #expect(try store.auditedPageComponents(run: run) == ["https://shop.example/a": ["footer"], "https://shop.example/b": ["footer"]])
        }
        // Text repeated across pages and runs is there once; each issue's example is still its finding.
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM finding_details") == 6)
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM components") == 2)
        let issues = try #require(try store.trendReport().latest).openIssues
        #expect(issues.map(\.issueKey).sorted() == ["k-img", "k-link"])
        #expect(issues.first { $0.issueKey == "k-img" }?.example.snippet == Self.decomposed)
        #expect(issues.first { $0.issueKey == "k-link" }?.example.message == "no name on run 2")
        // Every migrated text has the digest a new finding is looked up by (version 10).
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM finding_details WHERE digest IS NULL") == 0)
        // The migrated store goes on: a new run is recorded and analysed against the old ones,
        // and a finding it repeats is found by that digest, not written again.
        let repeated = FindingRecord(
            Finding(ruleID: "image-alt", impact: .critical, outcome: .violation, target: "img", snippet: Self.composed, message: "no alt",
                    evidence: ["ratio": .number(3.1)]),
            identity: FindingIdentity(elementSignature: "sig-img", component: nil)
        )
        try store.recordCompleteRun(
            [PageRecord(url: "https://shop.example/a", statusCode: 200, findings: [repeated])], start: .test(at: Date(timeIntervalSince1970: 1_702_000_000))
        )
        #expect(try store.trendReport().runs.count == 3)
        #expect(try Self.rows(store, "SELECT COUNT(*) FROM finding_details") == 6)
    }

    /// Pass counts are read by bytes; what they read and what they refuse is what reading them
    /// by characters did, a combining mark after a comma included.
    @Test func passCountsReadBackAndRefuseWhatIsNotCounts() throws {
        let rules: [Int64: String] = [1: "image-alt", 3: "link-name", 12: "region"]
        let text = PassCounts.text([(3, 2), (1, 5), (12, 40)])
        #expect(text == "1:5,3:2,12:40")
        #expect(try PassCounts.counts(text, ruleIDs: rules) == ["image-alt": 5, "link-name": 2, "region": 40])
        #expect(try PassCounts.counts("", ruleIDs: rules) == [:])
        #expect(try PassCounts.counts(",1:5,,", ruleIDs: rules) == ["image-alt": 5])
        for corrupt in ["1:5,2:1", "1:5:6", "x:1", "1:", "1:5,\u{301}3:2", "1:5\u{301},3:2", "\u{661}:5"] {
            #expect(throws: StoreError.self, "\(corrupt.debugDescription)") { try PassCounts.counts(corrupt, ruleIDs: rules) }
        }
    }

    /// The split the reader replaced: arrays of pieces at commas and colons, empty ones left out,
    /// numbers read by `Int64(_:)` and `Int(_:)`.
    private static func countsBySplitting(_ text: String, ruleIDs: [Int64: String]) -> [String: Int]? {
        var counts: [String: Int] = [:]
        for pair in text.utf8.split(separator: UInt8(ascii: ",")) {
            let parts = pair.split(separator: UInt8(ascii: ":"))
            guard parts.count == 2, let number = Int64(Substring(parts[0])), let passes = Int(Substring(parts[1])), let rule = ruleIDs[number] else {
                return nil
            }
            counts[rule] = passes
        }
        return counts
    }

    /// Random texts of digits, signs, separators and a few other characters: read and refused as
    /// the split read and refused them, overflowing numbers included.
    @Test func passCountsReadAsTheSplitReadThem() {
        let rules: [Int64: String] = [0: "a", 1: "image-alt", 3: "link-name", 12: "region", -4: "minus", Int64.max: "max", Int64.min: "min"]
        let pieces = ["0", "1", "3", "12", "4", "9", ":", ":", ",", ",", "+", "-", "x", " ", "\u{301}", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "00"]
        var generator = SystemRandomNumberGenerator()
        var samples = ["", ",", ":", "1:2", "+1:+2", "-4:-0", "1::2", "::1:2::", "9223372036854775807:1", "-9223372036854775808:3", "-9223372036854775809:3"]
        for _ in 0..<4000 {
            samples.append((0..<Int.random(in: 1...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in samples {
            let read = try? PassCounts.counts(text, ruleIDs: rules)
            #expect(read == Self.countsBySplitting(text, ruleIDs: rules), "\(text.debugDescription)")
        }
    }
}
