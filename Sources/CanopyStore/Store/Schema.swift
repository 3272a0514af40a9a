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
    ]

    /// Brings the file to `targetVersion` (the current one unless a test wants an older schema).
    static func migrate(_ database: SQLiteDatabase, analyzer: (any RunAnalyzer)?, to targetVersion: Int = currentVersion) throws {
        try database.transaction {
            try database.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
            let applied = try version(of: database)
            guard applied <= currentVersion else { throw StoreError.newerSchema(found: applied, supported: currentVersion) }
            let deferred = analyzer.map { _ in DeferredAnalysis() }
            for migration in migrations where migration.version > applied && migration.version <= targetVersion {
                try migration.apply(database, deferred)
                try database.run(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.integer(Int64(migration.version)), .real(Date().timeIntervalSince1970)]
                )
            }
            if let analyzer, let deferred { try deferred.run(with: analyzer, in: database) }
        }
    }

    /// The analysis that migrations 2 and 3 ask of runs recorded before them, done once every
    /// migration is applied: the history layer's analysis reads and writes the current schema,
    /// not the one a migration leaves halfway.
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
