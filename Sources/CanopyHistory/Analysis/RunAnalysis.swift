import CanopyRules
import CanopyStore
import Foundation

/// Settings of the analysis that runs when a run finishes.
public struct AnalysisOptions: Sendable {
    /// A component candidate is site-wide when it is on at least this share of the run's audited pages...
    public var componentPageShare: Double
    /// ...and on at least this many pages.
    public var componentMinimumPages: Int
    public var pageTypes: PageTypeClassifier

    public init(componentPageShare: Double = 0.5, componentMinimumPages: Int = 3, pageTypes: PageTypeClassifier = PageTypeClassifier()) {
        self.componentPageShare = componentPageShare
        self.componentMinimumPages = componentMinimumPages
        self.pageTypes = pageTypes
    }
}

/// What a run's findings mean once all its pages are in: page types, site-wide components, each
/// finding's issue key, and the per-run summaries trends read (`run_issues`, `run_totals`,
/// `run_page_types`, `run_rule_passes`, `run_changes`), so that a trend over a year of runs reads a few hundred
/// rows a run instead of aggregating every issue of every run again. Runs inside the caller's transaction; running it again replaces its output.
///
/// Issue keys:
/// - in a site-wide component: hash(rule, outcome, component key, signature inside the component)
///   — the same footer problem is one issue on every page;
/// - elsewhere: hash(rule, outcome, page type, element signature) — the same template problem on
///   500 product pages is one issue with 500 instances, and a problem on a one-off page is its own.
public struct RunAnalysis: RunAnalyzer {
    public let options: AnalysisOptions

    /// Rows are read in chunks of this many (see `Pass.inChunks`).
    public static let chunkSize = 5_000

    public init(options: AnalysisOptions = AnalysisOptions()) {
        self.options = options
    }

    public func analyze(_ run: RunID, in database: SQLiteDatabase, comparingInstances: Bool) throws {
        try Pass(database: database, options: options).analyze(run, comparingInstances: comparingInstances)
    }

    public func recordInstanceChanges(of run: RunID, in database: SQLiteDatabase) throws {
        try InstanceChanges.record(run, in: database)
    }
}

extension RunStore {
    /// Opens a store whose finished runs get Canopy's analysis of history.
    public convenience init(path: String, readOnly: Bool = false, analysis: AnalysisOptions = AnalysisOptions()) throws {
        try self.init(path: path, readOnly: readOnly, analyzer: RunAnalysis(options: analysis))
    }
}

/// One analysis of one run, in the store's transaction.
private struct Pass {
    let database: SQLiteDatabase
    let options: AnalysisOptions

    func analyze(_ run: RunID, comparingInstances: Bool) throws {
        let runValue = SQLiteValue.integer(run.rawValue)
        let tables: [SQL] = ["run_page_types", "run_components", "run_issues", "run_totals", "run_rule_passes"]
        for table in tables {
            try database.run("DELETE FROM \(table) WHERE run_id = ?", [runValue])
        }
        try carryLastAudits(run)
        try classifyPages(run)
        let siteWide = try siteWideComponents(run)
        try assignIssueKeys(run, siteWide: siteWide)
        if comparingInstances { try InstanceChanges.record(run, in: database) }
        for (rule, passes) in try RunStore.passTotals(run: run, in: database) {
            try database.run("INSERT INTO run_rule_passes (run_id, rule_id, passes) VALUES (?, ?, ?)", [runValue, .text(rule), .integer(Int64(passes))])
        }
    }

    /// Rows are read in chunks of this many, each written back before the next is read: a run of
    /// 100,000 pages is never held whole, and no table is changed under a statement reading it.
    static let chunkSize = RunAnalysis.chunkSize

    /// Keyset pagination: `chunk` handles the rows whose id is after the one it is given (0 at
    /// first), at most `chunkSize` of them, and returns the last id it handled, nil when none.
    private static func inChunks(_ chunk: (_ afterID: Int64) throws -> Int64?) rethrows {
        var lastID: Int64 = 0
        while let last = try chunk(lastID) { lastID = last }
    }

    /// A client-rendered page was not audited, so nothing is known of its issues now: it keeps
    /// the findings it had in the previous complete run, so that they count neither as fixed nor,
    /// when it is audited again, as new. (A page that failed keeps nothing: its issues count as
    /// fixed, and the report says so next to the failures.)
    private func carryLastAudits(_ run: RunID) throws {
        let runValue = SQLiteValue.integer(run.rawValue)
        let previous = try database.queryFirst("SELECT MAX(id) FROM runs WHERE status = 'complete' AND id < ?", [runValue]) { $0.optionalInt(0) }
        guard let previous = previous.flatMap({ $0 }) else { return }
        // Guarded by NOT EXISTS, so analysing the run again adds nothing twice.
        try database.run(
            """
            INSERT INTO findings (run_id, page_id, detail_id)
            SELECT now.run_id, now.id, findings.detail_id
            FROM pages AS now
            JOIN pages AS before ON before.run_id = ? AND before.url = now.url
            JOIN findings ON findings.run_id = before.run_id AND findings.page_id = before.id
            WHERE now.run_id = ? AND now.not_audited = ?
              AND NOT EXISTS (SELECT 1 FROM findings AS own WHERE own.run_id = now.run_id AND own.page_id = now.id)
            ORDER BY findings.id
            """,
            [.integer(Int64(previous)), runValue, .text(NotAudited.clientRendered)]
        )
    }

    private func classifyPages(_ run: RunID) throws {
        let runValue = SQLiteValue.integer(run.rawValue)
        let previousTypes = try database.query(
            """
            SELECT page_type FROM run_page_types
            WHERE run_id = (SELECT MAX(id) FROM runs WHERE status = 'complete' AND id < ?)
            """,
            [runValue]
        ) { $0.string(0) }
        // Two passes over the URLs: one to learn the templates, one to name each page's.
        var learning = options.pageTypes.learning()
        try database.forEachRow("SELECT url FROM pages WHERE run_id = ?", [runValue]) { learning.add($0.string(0)) }
        let classification = learning.classification(stickyPrefixes: PageTypeClassifier.collapsedPrefixes(of: previousTypes))
        var counts: [String: Int] = [:]
        try Self.inChunks { lastID in
            // `+run_id`: walk the table in id order rather than sort the run's pages for every chunk.
            let pages = try database.query(
                "SELECT id, url FROM pages WHERE +run_id = ? AND id > ? ORDER BY id LIMIT ?",
                [runValue, .integer(lastID), .integer(Int64(Self.chunkSize))]
            ) { ($0.int64(0), $0.string(1)) }
            for (id, url) in pages {
                let type = classification.pageType(of: url)
                counts[type, default: 0] += 1
                try database.run("UPDATE pages SET page_type = ? WHERE id = ?", [.text(type), .integer(id)])
            }
            return pages.last?.0
        }
        for (type, count) in counts {
            try database.run(
                "INSERT INTO run_page_types (run_id, page_type, page_count) VALUES (?, ?, ?)",
                [runValue, .text(type), .integer(Int64(count))]
            )
        }
    }

    /// The component keys found on enough of the run's audited pages, whatever the shape of the
    /// subtree on each: a notice or a ribbon added to the header of some pages changes their
    /// header's structure hash, and must not turn its issues on those pages into other issues.
    /// Every shape of a site-wide key is kept in `run_components`, with its own page count.
    private func siteWideComponents(_ run: RunID) throws -> Set<String> {
        let audited = try database.queryFirst(
            "SELECT COUNT(*) FROM pages WHERE run_id = ? AND error IS NULL AND not_audited IS NULL", [.integer(run.rawValue)]
        ) { $0.int(0) } ?? 0
        let needed = max(options.componentMinimumPages, Int((Double(audited) * options.componentPageShare).rounded(.up)))
        let shapes = try database.query(
            """
            SELECT components.component_key, components.structure_hash, COUNT(*)
            FROM page_components JOIN pages ON pages.id = page_components.page_id JOIN components ON components.id = page_components.component_id
            WHERE pages.run_id = ? GROUP BY 1, 2
            """,
            [.integer(run.rawValue)]
        ) { (key: $0.string(0), structureHash: $0.string(1), pages: $0.int(2)) }
        // A page holds at most one candidate of a key (a second one is `key (2)`), so the shapes' counts add up.
        var pagesByKey: [String: Int] = [:]
        for shape in shapes { pagesByKey[shape.key, default: 0] += shape.pages }
        let siteWide = Set(pagesByKey.filter { $0.value >= needed }.keys)
        for shape in shapes where siteWide.contains(shape.key) {
            try database.run(
                "INSERT INTO run_components (run_id, component_key, structure_hash, page_count) VALUES (?, ?, ?, ?)",
                [.integer(run.rawValue), .text(shape.key), .text(shape.structureHash), .integer(Int64(shape.pages))]
            )
        }
        return siteWide
    }

    /// A text the run's issues share (a rule, an outcome, an impact, a page type, a component, an
    /// owner): its place in the analysis's `TextTable`.
    private struct TextID: Equatable {
        let index: UInt32
    }

    /// One copy of each distinct text read, which issues refer to by a four-byte `TextID` instead
    /// of holding a 16-byte string each.
    private struct TextTable {
        private var texts: [String] = []
        private var ids: [String: TextID] = [:]

        mutating func id(of text: String) -> TextID {
            if let id = ids[text] { return id }
            let id = TextID(index: UInt32(texts.count))
            texts.append(text)
            ids[text] = id
            return id
        }

        subscript(_ id: TextID) -> String { texts[Int(id.index)] }
    }

    /// One issue of the run as its findings are added up.
    private struct IssueSummary {
        let key: UInt64
        /// Its row in `issue_keys`, looked up when its first finding is written.
        var issueID: Int64?
        /// Pages with an instance: a page's findings are recorded together, so they are
        /// consecutive in id order and a new page shows as a change of `lastPage`.
        var pages: Int
        var lastPage: Int64
        var findings: Int
        /// The first finding on the issue's first page by URL, and that page's place in URL
        /// order: the same example every week whatever order the pages were fetched in.
        var exampleFindingID: Int64
        var examplePageRank: Int32
        let ruleID: TextID
        let outcome: TextID
        var impact: TextID
        var owner: TextID?
        /// The place in URL order of the page the owner was read from (`Int32.max`: none yet).
        var ownerPageRank: Int32
        let pageType: TextID?
        let componentKey: TextID?
        var impactRank: UInt8
    }

    /// The run's issues in the order first met, and where each is by its key. A run of the whole
    /// javadoc site has about 117,000 issues: held as a dictionary of summaries of strings (136
    /// bytes each, in a table of 262,144 places, and its previous table while it grew), they were
    /// the 30 MB by which the end of the run rose above the crawl's peak.
    private struct IssueTable {
        private(set) var summaries: [IssueSummary] = []
        private var indexByKey: [UInt64: Int32] = [:]

        /// Adds a finding to the issue `key`, or starts the issue with it; returns where the issue is.
        mutating func add(key: UInt64, starting start: () -> IssueSummary, adding update: (inout IssueSummary) -> Void) -> Int32 {
            if let index = indexByKey[key] {
                update(&summaries[Int(index)])
                return index
            }
            let index = Int32(summaries.count)
            summaries.append(start())
            indexByKey[key] = index
            return index
        }

        subscript(_ index: Int32) -> IssueSummary {
            get { summaries[Int(index)] }
            set { summaries[Int(index)] = newValue }
        }
    }

    /// An impact's rank, from its text's bytes: its place among the impacts from least to most
    /// severe (minor 0 … critical 3), and 0 for any other text.
    private static func impactRank(ofUTF8 text: UnsafeBufferPointer<UInt8>) -> UInt8 {
        for (rank, impact) in impactsBySeverity.enumerated() where text.elementsEqual(impact.rawValue.utf8) { return UInt8(rank) }
        return 0
    }

    private static let impactsBySeverity = Impact.allCases.sorted()

    /// Each page of the run by id, its place when the run's pages are sorted by URL.
    private struct PageRanks {
        private let firstID: Int64
        private var ranks: [Int32] = []

        init(_ run: RunID, in database: SQLiteDatabase) throws {
            // The (run_id, url) index lists them in URL order: no sort.
            let ids = try database.query("SELECT id FROM pages WHERE run_id = ? ORDER BY url", [.integer(run.rawValue)]) { $0.int64(0) }
            firstID = ids.min() ?? 0
            ranks = Array(repeating: Int32.max, count: Int((ids.max() ?? firstID) - firstID + 1))
            for (rank, id) in ids.enumerated() { ranks[Int(id - firstID)] = Int32(rank) }
        }

        subscript(_ pageID: Int64) -> Int32 {
            let index = Int(pageID - firstID)
            return ranks.indices.contains(index) ? ranks[index] : Int32.max
        }
    }

    private func assignIssueKeys(_ run: RunID, siteWide: Set<String>) throws {
        struct Keyed { let findingID: Int64; let issue: Int32 }
        // An issue's example and owner are the ones on its first page by URL, not by the order
        // the pages happened to be fetched and recorded in, which changes from run to run.
        let pageRanks = try PageRanks(run, in: database)
        // By the key's hash, written out as hex only when stored; texts that repeat (rule,
        // outcome, impact, page type, component, owner) are numbers into one table of them.
        var issues = IssueTable()
        var texts = TextTable()
        let runValue = SQLiteValue.integer(run.rawValue)
        // The run's findings are one stretch of ids, give or take another run's recorded meanwhile:
        // each chunk walks the table in id order from where the last one ended (`+run_id`) rather
        // than collect and sort all of the run's findings again.
        let range = try database.queryFirst("SELECT MIN(id), MAX(id) FROM findings WHERE run_id = ?", [runValue]) { ($0.optionalInt(0), $0.optionalInt(1)) }
        guard let firstOfRun = range?.0, let lastOfRun = range?.1 else { return }
        try Self.inChunks { lastID in
            var keyed: [Keyed] = []
            try database.forEachRow(
                """
                SELECT findings.id, findings.page_id, detail.rule_id, detail.outcome, detail.impact, detail.owner,
                       detail.element_signature, detail.component_key, detail.component_signature,
                       pages.page_type
                FROM findings JOIN finding_details AS detail ON detail.id = findings.detail_id JOIN pages ON pages.id = findings.page_id
                WHERE +findings.run_id = ? AND findings.id > ? AND findings.id <= ? ORDER BY findings.id LIMIT ?
                """,
                [runValue, .integer(max(lastID, Int64(firstOfRun) - 1)), .integer(Int64(lastOfRun)), .integer(Int64(Self.chunkSize))]
            ) { row in
                let findingID = row.int64(0), pageID = row.int64(1)
                let component = siteWide.isEmpty ? nil : row.optionalString(7).flatMap { siteWide.contains($0) ? $0 : nil }
                // The key hashed from the row's bytes, as `StableHasher.value(of:)` hashes the texts,
                // without a string of each column and an array of them (0.88x the instructions of
                // this closure on 300 javadoc pages, where three findings in five start an issue).
                var hasher = StableHasher()
                let combineColumn = { (column: Int32) in
                    row.withUTF8(column) { hasher.combine(piece: $0) }
                    hasher.endField()
                }
                if let component {
                    hasher.combine("component")
                    combineColumn(2)
                    combineColumn(3)
                    hasher.combine(component)
                    combineColumn(8)
                } else {
                    hasher.combine("page")
                    combineColumn(2)
                    combineColumn(3)
                    combineColumn(9)
                    combineColumn(6)
                }
                let issueKey = hasher.value
                let rank = row.withUTF8(4) { Self.impactRank(ofUTF8: $0) }
                // Texts are read and looked up in the text table only when the issue takes them.
                let owner = { row.optionalString(5).map { texts.id(of: $0) } }
                let pageRank = pageRanks[pageID]
                let issue = issues.add(key: issueKey) {
                    let owner = owner()
                    return IssueSummary(
                        key: issueKey, issueID: nil, pages: 1, lastPage: pageID, findings: 1,
                        exampleFindingID: findingID, examplePageRank: pageRank,
                        ruleID: texts.id(of: row.string(2)), outcome: texts.id(of: row.string(3)), impact: texts.id(of: row.string(4)),
                        owner: owner, ownerPageRank: owner == nil ? Int32.max : pageRank,
                        pageType: component == nil ? texts.id(of: row.string(9)) : nil,
                        componentKey: component.map { texts.id(of: $0) },
                        impactRank: rank
                    )
                } adding: { summary in
                    if summary.lastPage != pageID { (summary.pages, summary.lastPage) = (summary.pages + 1, pageID) }
                    summary.findings += 1
                    if rank > summary.impactRank { (summary.impactRank, summary.impact) = (rank, texts.id(of: row.string(4))) }
                    // A page's findings come in id order, so its first one is met first: a later
                    // page takes the example (or the owner) only if it comes earlier by URL.
                    if pageRank < summary.examplePageRank { (summary.exampleFindingID, summary.examplePageRank) = (findingID, pageRank) }
                    if pageRank < summary.ownerPageRank, let owner = owner() { (summary.owner, summary.ownerPageRank) = (owner, pageRank) }
                }
                keyed.append(Keyed(findingID: findingID, issue: issue))
            }
            for finding in keyed {
                let issueID = try issues[finding.issue].issueID ?? RunStore.issueKeyID(StableHasher.hex(issues[finding.issue].key), in: database)
                issues[finding.issue].issueID = issueID
                try database.run("UPDATE findings SET issue_id = ? WHERE id = ?", [.integer(issueID), .integer(finding.findingID)])
            }
            return keyed.last?.findingID
        }
        try insertIssues(run, issues: issues.summaries, texts: texts)
    }

    private func insertIssues(_ run: RunID, issues: [IssueSummary], texts: TextTable) throws {
        try insertTotals(run, issues: issues, texts: texts)
        for issue in issues {
            try database.run(
                """
                INSERT INTO run_issues (run_id, issue_id, rule_id, impact, outcome, owner, page_type, component_key, instances, findings, example_finding_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(run.rawValue), .integer(issue.issueID ?? RunStore.issueKeyID(StableHasher.hex(issue.key), in: database)),
                    .text(texts[issue.ruleID]), .text(texts[issue.impact]), .text(texts[issue.outcome]),
                    SQLiteValue(issue.owner.map { texts[$0] }), SQLiteValue(issue.pageType.map { texts[$0] }),
                    SQLiteValue(issue.componentKey.map { texts[$0] }),
                    .integer(Int64(issue.pages)), .integer(Int64(issue.findings)), .integer(issue.exampleFindingID),
                ]
            )
        }
    }

    /// Issues, instances and findings per run by one dimension: `outcome` over all issues; for
    /// violations, `impact`, `rule`, `owner` ("" for first party), `page_type` (outside
    /// components) and `component`.
    private func insertTotals(_ run: RunID, issues: [IssueSummary], texts: TextTable) throws {
        struct Group: Hashable { let dimension: String; let name: String }
        var totals: [Group: (issues: Int, instances: Int, findings: Int)] = [:]
        func add(_ dimension: String, _ name: String, _ issue: IssueSummary) {
            let current = totals[Group(dimension: dimension, name: name)] ?? (0, 0, 0)
            totals[Group(dimension: dimension, name: name)] = (current.issues + 1, current.instances + issue.pages, current.findings + issue.findings)
        }
        for issue in issues {
            let outcome = texts[issue.outcome]
            add("outcome", outcome, issue)
            guard outcome == FindingOutcome.violation.rawValue else { continue }
            add("impact", texts[issue.impact], issue)
            add("rule", texts[issue.ruleID], issue)
            add("owner", issue.owner.map { texts[$0] } ?? "", issue)
            if let component = issue.componentKey { add("component", texts[component], issue) } else { add("page_type", issue.pageType.map { texts[$0] } ?? "", issue) }
        }
        for (group, total) in totals {
            try database.run(
                "INSERT INTO run_totals (run_id, dimension, name, issues, instances, findings) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .integer(run.rawValue), .text(group.dimension), .text(group.name), .integer(Int64(total.issues)),
                    .integer(Int64(total.instances)), .integer(Int64(total.findings)),
                ]
            )
        }
    }
}
