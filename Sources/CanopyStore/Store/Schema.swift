import Foundation

/// The store's schema as an ordered list of migrations. A file records which migrations it has in
/// `schema_migrations`; opening it applies the missing ones in order, in one transaction, so a
/// file is always at one version or the next, never in between.
///
/// Never edit a released migration: add the next one.
enum Schema {
    struct Migration: Sendable {
        let version: Int
        let summary: String
        /// It rewrites tables into much less space: the store is vacuumed once it is done, so the
        /// file shrinks rather than keep the freed pages.
        var shrinksFile = false
        let apply: @Sendable (SQLiteDatabase, (any RunAnalyzer)?) throws -> Void
    }

    static var currentVersion: Int { migrations.last?.version ?? 0 }

    static let migrations: [Migration] = [
        Migration(version: 1, summary: "runs, pages, findings, pass counts, component candidates") { database, _ in
            try database.execute(
                """
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    started_at REAL NOT NULL,
                    ended_at REAL,
                    status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted')),
                    config_hash TEXT NOT NULL,
                    rule_set_name TEXT NOT NULL,
                    rule_ids TEXT NOT NULL,
                    rule_set_hash TEXT NOT NULL,
                    canopy_version TEXT NOT NULL,
                    start_urls TEXT NOT NULL,
                    pages_planned INTEGER NOT NULL DEFAULT 0,
                    pages_crawled INTEGER NOT NULL DEFAULT 0,
                    pages_failed INTEGER NOT NULL DEFAULT 0,
                    pages_skipped_scope INTEGER NOT NULL DEFAULT 0,
                    pages_skipped_robots INTEGER NOT NULL DEFAULT 0,
                    process_id INTEGER,
                    host_name TEXT
                );
                CREATE TABLE pages (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    url TEXT NOT NULL,
                    final_url TEXT,
                    status_code INTEGER,
                    redirect_chain TEXT NOT NULL DEFAULT '',
                    content_type TEXT,
                    bytes INTEGER,
                    depth INTEGER NOT NULL DEFAULT 0,
                    title TEXT,
                    fetch_ms REAL,
                    audit_ms REAL,
                    error TEXT,
                    UNIQUE (run_id, url)
                );
                CREATE TABLE findings (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL,
                    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
                    rule_id TEXT NOT NULL,
                    impact TEXT NOT NULL,
                    outcome TEXT NOT NULL CHECK (outcome IN ('violation', 'incomplete')),
                    target TEXT NOT NULL,
                    snippet TEXT NOT NULL,
                    message TEXT NOT NULL,
                    owner TEXT,
                    element_signature TEXT NOT NULL,
                    component_key TEXT,
                    component_hash TEXT,
                    component_signature TEXT
                );
                CREATE INDEX findings_by_page ON findings (page_id);
                CREATE INDEX findings_by_run ON findings (run_id);
                CREATE TABLE rule_passes (
                    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
                    rule_id TEXT NOT NULL,
                    passes INTEGER NOT NULL,
                    PRIMARY KEY (page_id, rule_id)
                ) WITHOUT ROWID;
                CREATE TABLE page_components (
                    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
                    component_key TEXT NOT NULL,
                    structure_hash TEXT NOT NULL,
                    PRIMARY KEY (page_id, component_key)
                ) WITHOUT ROWID;
                """
            )
        },
        Migration(version: 2, summary: "page types, site-wide components, issue keys, per-run summaries") { database, analyzer in
            try database.execute(
                """
                ALTER TABLE pages ADD COLUMN page_type TEXT;
                ALTER TABLE findings ADD COLUMN issue_key TEXT;
                CREATE TABLE run_page_types (
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    page_type TEXT NOT NULL,
                    page_count INTEGER NOT NULL,
                    PRIMARY KEY (run_id, page_type)
                ) WITHOUT ROWID;
                CREATE TABLE run_components (
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    component_key TEXT NOT NULL,
                    structure_hash TEXT NOT NULL,
                    page_count INTEGER NOT NULL,
                    PRIMARY KEY (run_id, component_key, structure_hash)
                ) WITHOUT ROWID;
                CREATE TABLE run_issues (
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    issue_key TEXT NOT NULL,
                    rule_id TEXT NOT NULL,
                    impact TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    owner TEXT,
                    page_type TEXT,
                    component_key TEXT,
                    instances INTEGER NOT NULL,
                    findings INTEGER NOT NULL,
                    example_finding_id INTEGER NOT NULL,
                    PRIMARY KEY (run_id, issue_key)
                ) WITHOUT ROWID;
                CREATE INDEX run_issues_by_key ON run_issues (issue_key, run_id);
                CREATE TABLE run_totals (
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    dimension TEXT NOT NULL,
                    name TEXT NOT NULL,
                    issues INTEGER NOT NULL,
                    instances INTEGER NOT NULL,
                    findings INTEGER NOT NULL,
                    PRIMARY KEY (run_id, dimension, name)
                ) WITHOUT ROWID;
                CREATE TABLE run_rule_passes (
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    rule_id TEXT NOT NULL,
                    passes INTEGER NOT NULL,
                    PRIMARY KEY (run_id, rule_id)
                ) WITHOUT ROWID;
                CREATE INDEX runs_by_status ON runs (status, id);
                """
            )
            // Runs completed by a version without analysis get it now, oldest first, so each
            // sees its predecessor's page types as later runs will.
            let complete = try database.query("SELECT id FROM runs WHERE status = 'complete' ORDER BY id") { RunID($0.int64(0)) }
            for run in complete { try requireAnalyzer(analyzer).analyze(run, in: database, comparingInstances: false) }
        },
        Migration(version: 3, summary: "instances new, fixed and persisting against the previous complete run") { database, analyzer in
            try database.execute(
                """
                CREATE TABLE run_changes (
                    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
                    previous_run_id INTEGER NOT NULL,
                    new_instances INTEGER NOT NULL,
                    fixed_instances INTEGER NOT NULL,
                    persisting_instances INTEGER NOT NULL
                );
                """
            )
            // Complete runs of older versions get theirs now; only the new table is written.
            let complete = try database.query("SELECT id FROM runs WHERE status = 'complete' ORDER BY id") { RunID($0.int64(0)) }
            for run in complete { try requireAnalyzer(analyzer).recordInstanceChanges(of: run, in: database) }
        },
        Migration(version: 4, summary: "links that rebuild the frontier of an unfinished run") { database, _ in
            // One row a page, only while its run can still be resumed: `finish` deletes them.
            try database.execute(
                """
                CREATE TABLE page_links (
                    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
                    urls TEXT NOT NULL
                );
                """
            )
        },
        Migration(version: 5, summary: "what a rule measured for a finding (contrast ratio, colours), as JSON") { database, _ in
            // NULL for findings recorded before, and for the many rules that measure nothing.
            try database.execute("ALTER TABLE findings ADD COLUMN evidence TEXT")
        },
        Migration(version: 6, summary: "where open issues began, for runs that pruning deleted") { database, _ in
            // Written by `canopy store prune` for issues still seen in the runs it keeps, so an
            // issue's age outlives the runs that first recorded it.
            try database.execute(
                """
                CREATE TABLE issue_origins (
                    issue_key TEXT PRIMARY KEY,
                    first_seen_run_id INTEGER NOT NULL,
                    first_seen_at REAL NOT NULL,
                    streak_run_id INTEGER,
                    streak_started_at REAL
                ) WITHOUT ROWID;
                """
            )
        },
        Migration(version: 7, summary: "what an incremental crawl compares pages with; pages carried over unchanged") { database, _ in
            // `unchanged_since`: the run whose audit an unchanged page carries (NULL: audited in
            // its own run). `page_revisions` is kept only for the latest complete run and for
            // runs not yet complete: `finish` drops the older ones.
            try database.execute(
                """
                ALTER TABLE pages ADD COLUMN unchanged_since INTEGER;
                CREATE TABLE page_revisions (
                    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
                    etag TEXT,
                    last_modified TEXT,
                    content_digest TEXT,
                    stylesheets TEXT NOT NULL DEFAULT '',
                    stylesheet_digest TEXT,
                    links TEXT NOT NULL DEFAULT '',
                    canonical_url TEXT,
                    unchanged TEXT
                );
                """
            )
        },
        Migration(version: 8, summary: "finding text, issue keys, components and pass counts stored once and referenced by id", shrinksFile: true) {
            database, _ in
            try compactFindings(database)
            try compactPageComponents(database)
            try compactPassCounts(database)
        },
        Migration(version: 9, summary: "coverage: why fetched pages were not audited, frames per page, each run's coverage by reason") { database, _ in
            // `not_audited`: the reason a page fetched without error was not audited
            // (`NotAudited.reason`), NULL for an audited or failed page. `run_coverage` holds a
            // run's counts by measure (`not-audited`, `error`, `frames`, `stylesheets`) and name.
            try database.execute(
                """
                ALTER TABLE pages ADD COLUMN not_audited TEXT;
                ALTER TABLE pages ADD COLUMN not_audited_details TEXT;
                ALTER TABLE pages ADD COLUMN frames_audited INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE pages ADD COLUMN frames_skipped INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE run_coverage (
                    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                    measure TEXT NOT NULL,
                    name TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (run_id, measure, name)
                ) WITHOUT ROWID;
                """
            )
            // Earlier versions recorded no reason: a page fetched without error, with no audit
            // time, no pass and no finding (an audited page always has one: document-title
            // applies to every document) was a redirect (it has a chain) or not HTML.
            // Client-rendered pages did not exist: they were audited as their shells.
            try database.execute(
                """
                UPDATE pages SET not_audited = CASE WHEN redirect_chain <> '' THEN 'redirect' ELSE 'not HTML' END
                WHERE error IS NULL AND audit_ms IS NULL AND pass_counts_id IS NULL
                  AND NOT EXISTS (SELECT 1 FROM findings WHERE findings.run_id = pages.run_id AND findings.page_id = pages.id);
                """
            )
            let runs = try database.query("SELECT id FROM runs WHERE status = 'complete' ORDER BY id") { RunID($0.int64(0)) }
            for run in runs { try RunStore.recordPageCoverage(of: run, in: database) }
        },
        Migration(version: 10, summary: "finding text found by a digest of all its columns; a run's pages in recording order") { database, _ in
            try indexFindingDetailsByDigest(database)
            // Reports read a run's pages in recording order (`RunStore.forEachPageResult`). Without
            // this index SQLite sorted them all first, in memory that grew with the run (8 MB at
            // 40,000 pages); with it they come in order.
            try database.execute("CREATE INDEX pages_by_run ON pages (run_id)")
        },
    ]

    // Migration 10. Recording a finding not seen before looked for its text among the rows of
    // the same element signature, which many findings share; a digest of every column finds it
    // among one row (`StoredOnce.detailID`).
    private static func indexFindingDetailsByDigest(_ database: SQLiteDatabase) throws {
        try database.execute("ALTER TABLE finding_details ADD COLUMN digest INTEGER")
        var digests: [(id: Int64, digest: SQLiteValue)] = []
        try database.forEachRow("SELECT id, \(FindingDetail.columns) FROM finding_details") { row in
            digests.append((row.int64(0), FindingDetail(row, from: 1).digest.stored))
        }
        for (id, digest) in digests { try database.run("UPDATE finding_details SET digest = ? WHERE id = ?", [digest, .integer(id)]) }
        try database.execute(
            """
            CREATE INDEX finding_details_by_digest ON finding_details (digest);
            DROP INDEX finding_details_by_element;
            """
        )
    }

    // Migration 8. A year of weekly runs stored each finding's text again every week (4.8 kB a
    // page a run); these keep every distinct value once (`StoredOnce.swift` says what is where).
    // Row ids of `findings` stay as they were: `run_issues.example_finding_id` points at them.

    private static func compactFindings(_ database: SQLiteDatabase) throws {
        try database.execute(
            """
            CREATE TABLE finding_details (
                id INTEGER PRIMARY KEY,
                rule_id TEXT NOT NULL,
                impact TEXT NOT NULL,
                outcome TEXT NOT NULL,
                target TEXT NOT NULL,
                snippet TEXT NOT NULL,
                message TEXT NOT NULL,
                owner TEXT,
                element_signature TEXT NOT NULL,
                component_key TEXT,
                component_hash TEXT,
                component_signature TEXT,
                evidence TEXT
            );
            INSERT INTO finding_details (\(FindingDetail.columns))
            SELECT \(FindingDetail.columns) FROM findings GROUP BY \(FindingDetail.columns) ORDER BY MIN(id);
            CREATE INDEX finding_details_by_element ON finding_details (element_signature);
            CREATE TABLE issue_keys (
                id INTEGER PRIMARY KEY,
                issue_key TEXT NOT NULL UNIQUE
            );
            INSERT INTO issue_keys (issue_key) SELECT issue_key FROM findings WHERE issue_key IS NOT NULL GROUP BY issue_key ORDER BY MIN(id);
            INSERT OR IGNORE INTO issue_keys (issue_key) SELECT issue_key FROM run_issues ORDER BY run_id, issue_key;
            CREATE TABLE compact_findings (
                id INTEGER PRIMARY KEY,
                run_id INTEGER NOT NULL,
                page_id INTEGER NOT NULL,
                detail_id INTEGER NOT NULL,
                issue_id INTEGER
            );
            INSERT INTO compact_findings (id, run_id, page_id, detail_id, issue_id)
            SELECT findings.id, findings.run_id, findings.page_id, detail.id, issue.id
            FROM findings
            JOIN finding_details AS detail
              ON detail.element_signature = findings.element_signature AND detail.rule_id = findings.rule_id
             AND detail.impact = findings.impact AND detail.outcome = findings.outcome AND detail.target = findings.target
             AND detail.snippet = findings.snippet AND detail.message = findings.message AND detail.owner IS findings.owner
             AND detail.component_key IS findings.component_key AND detail.component_hash IS findings.component_hash
             AND detail.component_signature IS findings.component_signature AND detail.evidence IS findings.evidence
            LEFT JOIN issue_keys AS issue ON issue.issue_key = findings.issue_key
            ORDER BY findings.id;
            """
        )
        let counts = try database.queryFirst("SELECT (SELECT COUNT(*) FROM findings), (SELECT COUNT(*) FROM compact_findings)") { ($0.int(0), $0.int(1)) }
        if let counts, counts.0 != counts.1 {
            throw StoreError.corruptValue(column: "findings", value: "\(counts.1) of \(counts.0) findings matched their text")
        }
        // One index serves both ways in: a run's findings, and a page's (its run and id). A
        // trigger, not a foreign key, deletes a page's findings: a foreign key would look them up
        // by page id alone, which no index has.
        try database.execute(
            """
            DROP TABLE findings;
            ALTER TABLE compact_findings RENAME TO findings;
            CREATE INDEX findings_by_page ON findings (run_id, page_id);
            CREATE TRIGGER findings_of_deleted_pages AFTER DELETE ON pages BEGIN
                DELETE FROM findings WHERE run_id = OLD.run_id AND page_id = OLD.id;
            END;
            CREATE TABLE compact_run_issues (
                run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                issue_id INTEGER NOT NULL,
                rule_id TEXT NOT NULL,
                impact TEXT NOT NULL,
                outcome TEXT NOT NULL,
                owner TEXT,
                page_type TEXT,
                component_key TEXT,
                instances INTEGER NOT NULL,
                findings INTEGER NOT NULL,
                example_finding_id INTEGER NOT NULL,
                PRIMARY KEY (run_id, issue_id)
            ) WITHOUT ROWID;
            INSERT INTO compact_run_issues
            SELECT run_issues.run_id, issue.id, rule_id, impact, outcome, owner, page_type, component_key, instances, findings, example_finding_id
            FROM run_issues JOIN issue_keys AS issue ON issue.issue_key = run_issues.issue_key;
            DROP TABLE run_issues;
            ALTER TABLE compact_run_issues RENAME TO run_issues;
            CREATE INDEX run_issues_by_key ON run_issues (issue_id, run_id);
            """
        )
    }

    private static func compactPageComponents(_ database: SQLiteDatabase) throws {
        try database.execute(
            """
            CREATE TABLE components (
                id INTEGER PRIMARY KEY,
                component_key TEXT NOT NULL,
                structure_hash TEXT NOT NULL,
                UNIQUE (component_key, structure_hash)
            );
            INSERT INTO components (component_key, structure_hash)
            SELECT DISTINCT component_key, structure_hash FROM page_components ORDER BY component_key, structure_hash;
            CREATE TABLE compact_page_components (
                page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
                component_id INTEGER NOT NULL,
                PRIMARY KEY (page_id, component_id)
            ) WITHOUT ROWID;
            INSERT INTO compact_page_components (page_id, component_id)
            SELECT page_components.page_id, components.id
            FROM page_components JOIN components USING (component_key, structure_hash);
            DROP TABLE page_components;
            ALTER TABLE compact_page_components RENAME TO page_components;
            """
        )
    }

    /// A page's pass counts become one value of `pass_counts` (`PassCounts` gives its form),
    /// written by the same code as a crawl's, so the same counts are the same text.
    private static func compactPassCounts(_ database: SQLiteDatabase) throws {
        try database.execute(
            """
            CREATE TABLE rules (
                id INTEGER PRIMARY KEY,
                rule_id TEXT NOT NULL UNIQUE
            );
            CREATE TABLE pass_counts (
                id INTEGER PRIMARY KEY,
                counts TEXT NOT NULL UNIQUE
            );
            ALTER TABLE pages ADD COLUMN pass_counts_id INTEGER;
            """
        )
        let storedOnce = StoredOnce()
        var page: Int64?
        var counts: [String: Int] = [:]
        func writePage() throws {
            guard let page, let id = try storedOnce.passCountsID(counts, in: database) else { return }
            try database.run("UPDATE pages SET pass_counts_id = ? WHERE id = ?", [.integer(id), .integer(page)])
        }
        try database.forEachRow("SELECT page_id, rule_id, passes FROM rule_passes ORDER BY page_id, rule_id") { row in
            if row.int64(0) != page {
                try writePage()
                (page, counts) = (row.int64(0), [:])
            }
            counts[row.string(1)] = row.int(2)
        }
        try writePage()
        try database.execute("DROP TABLE rule_passes")
    }

    /// Brings the file to `targetVersion` (the current one unless a test wants an older schema).
    /// Returns true when a migration applied left the file worth vacuuming (`shrinksFile`).
    @discardableResult
    static func migrate(_ database: SQLiteDatabase, analyzer: (any RunAnalyzer)?, to targetVersion: Int = currentVersion) throws -> Bool {
        try database.transaction {
            try database.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
            let applied = try version(of: database)
            guard applied <= currentVersion else { throw StoreError.newerSchema(found: applied, supported: currentVersion) }
            var shrunk = false
            let deferred = analyzer.map { _ in DeferredAnalysis() }
            for migration in migrations where migration.version > applied && migration.version <= targetVersion {
                try migration.apply(database, deferred)
                shrunk = shrunk || (migration.shrinksFile && applied > 0)
                try database.run(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.integer(Int64(migration.version)), .real(Date().timeIntervalSince1970)]
                )
            }
            if let analyzer, let deferred { try deferred.run(with: analyzer, in: database) }
            return shrunk
        }
    }

    /// The analysis that migrations 2 and 3 ask of runs recorded before them, done once every
    /// migration is applied: the history layer's analysis reads and writes the current schema,
    /// not the one a migration leaves halfway (findings' text moved in version 7).
    private final class DeferredAnalysis: RunAnalyzer, @unchecked Sendable {
        private var work: [(any RunAnalyzer, SQLiteDatabase) throws -> Void] = []

        func analyze(_ run: RunID, in database: SQLiteDatabase, comparingInstances: Bool) throws {
            work.append { try $0.analyze(run, in: $1, comparingInstances: comparingInstances) }
        }

        func recordInstanceChanges(of run: RunID, in database: SQLiteDatabase) throws {
            work.append { try $0.recordInstanceChanges(of: run, in: $1) }
        }

        /// In the order the migrations asked.
        func run(with analyzer: any RunAnalyzer, in database: SQLiteDatabase) throws {
            for step in work { try step(analyzer, database) }
        }
    }

    /// Migrations that derive data for runs recorded before them need the history layer's analysis.
    private static func requireAnalyzer(_ analyzer: (any RunAnalyzer)?) throws -> any RunAnalyzer {
        guard let analyzer else { throw StoreError.analysisUnavailable }
        return analyzer
    }

    static func version(of database: SQLiteDatabase) throws -> Int {
        let exists = try database.queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") { _ in true } ?? false
        guard exists else { return 0 }
        return try database.queryFirst("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") { $0.int(0) } ?? 0
    }
}

/// Why the store refused an operation.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The file was written by a newer Canopy, with migrations this one does not know.
    case newerSchema(found: Int, supported: Int)
    /// A run can be finished, or an old store migrated, only with the analysis of history at hand.
    case analysisUnavailable
    /// A read-only store whose file still needs migrations (open it once for writing).
    case needsMigration(found: Int, required: Int)
    case unknownRun(RunID)
    /// Pages can only be added to, and only a running run can be finished or interrupted.
    case runNotRunning(RunID, RunStatus)
    /// Only an interrupted run can be resumed: a running one belongs to a live crawl.
    case runNotInterrupted(RunID, RunStatus)
    /// A stored value this Canopy cannot read (e.g. an unknown status), naming what it should have been.
    case corruptValue(column: String, value: String)

    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            "the store has schema version \(found), newer than this Canopy supports (\(supported)); use a newer Canopy"
        case .needsMigration(let found, let required):
            "the store has schema version \(found) and needs \(required); open it once for writing to migrate it"
        case .analysisUnavailable: "the run store was opened without the analysis of history, which finishing a run or migrating old runs needs"
        case .unknownRun(let run): "no run \(run) in the store"
        case .runNotRunning(let run, let status): "run \(run) is \(status.rawValue), not running"
        case .runNotInterrupted(let run, let status): "run \(run) is \(status.rawValue), not interrupted"
        case .corruptValue(let column, let value): "the store holds \"\(value)\" where a \(column) was expected"
        }
    }
}

/// What a complete run's findings mean: page types, site-wide components, issue keys, and the
/// per-run summaries trends read. The store keeps these in its tables and computes nothing of
/// them itself: the history layer (CanopyHistory's `RunAnalysis`) does, inside the store's
/// transaction, so a run is either complete and analysed or not complete.
public protocol RunAnalyzer: Sendable {
    /// Derives and writes the analysis of a run whose pages are all in.
    /// - Parameter comparingInstances: false only when migration 2 backfills runs before
    ///   `run_changes` exists (migration 3 fills it in).
    func analyze(_ run: RunID, in database: SQLiteDatabase, comparingInstances: Bool) throws
    /// Writes a complete run's new, fixed and persisting instances against the previous complete run.
    func recordInstanceChanges(of run: RunID, in database: SQLiteDatabase) throws
}
