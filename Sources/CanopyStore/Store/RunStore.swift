import CanopyCrawl
import CanopyRules
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The history of a site's crawls in one SQLite file: runs, their pages and findings, and what
/// the analysis at the end of each run derived (page types, components, issue keys).
///
/// Every write is a transaction: a batch of pages is all in or all out, and a run counts in
/// trends only once `finish` has marked it complete, so a crash mid-crawl leaves earlier runs as
/// they were and the crawl's own run `running` until someone marks it interrupted
/// (`interruptAbandonedRuns()` does it for runs whose process is gone).
///
/// One store is one connection, safe to share between tasks (calls are serialized). Several
/// stores may open the same file at once, in one process or several: a report can read while a
/// crawl writes.
public final class RunStore: @unchecked Sendable {
    public let path: String
    private let analyzer: (any RunAnalyzer)?
    // Guards `database`, which SQLite requires be used by one thread at a time.
    private let lock = NSLock()
    private let database: SQLiteDatabase
    // Ids of the text this store has written or looked up, used under `lock`.
    private let storedOnce = StoredOnce()

    /// Opens the store at `path`, creating it and its folder if needed, and migrates it to the current schema.
    /// - Parameters:
    ///   - readOnly: for reports: no migration, no writes (fails if the file needs migrating).
    ///   - analyzer: what `finish` and migrations of older files derive from a run's findings
    ///     (CanopyHistory's `RunAnalysis`); nil for a store that only reads or records pages.
    public init(path: String, readOnly: Bool = false, analyzer: (any RunAnalyzer)?) throws {
        self.path = path
        self.analyzer = analyzer
        if !readOnly {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        database = try SQLiteDatabase(path: path, readOnly: readOnly)
        if readOnly {
            let found = try Schema.version(of: database)
            guard found == Schema.currentVersion else {
                throw found > Schema.currentVersion
                    ? StoreError.newerSchema(found: found, supported: Schema.currentVersion)
                    : StoreError.needsMigration(found: found, required: Schema.currentVersion)
            }
        } else {
            if try Schema.migrate(database, analyzer: analyzer) {
                // Best effort: a reader holding the file open can make VACUUM fail, and the store
                // works as well unvacuumed, only larger until `canopy store prune` compacts it.
                try? compact()
            }
        }
    }

    /// Gives the file's free pages back to the file system (VACUUM) and empties the log.
    public func compact() throws {
        try withDatabase { database in
            try database.execute("VACUUM")
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// The schema version this Canopy writes.
    public static var schemaVersion: Int { Schema.currentVersion }

    /// The schema version of the open file.
    public func schemaVersion() throws -> Int { try withDatabase { try Schema.version(of: $0) } }

    /// Runs `body` with the store's connection, serialized with every other call: for the
    /// history layer's queries, which read the store with its own SQL (bound parameters only:
    /// `SQL` is made from literals).
    public func withDatabase<Value>(_ body: (SQLiteDatabase) throws -> Value) throws -> Value {
        try lock.withLock { try body(database) }
    }

    // MARK: Writing a run

    /// Records the start of a run, `running` until finished or interrupted.
    public func begin(_ start: RunStart) throws -> RunID {
        try begin(start, processID: Int64(getpid()))
    }

    func begin(_ start: RunStart, processID: Int64) throws -> RunID {
        try withDatabase { database in
            try database.transaction {
                try database.run(
                    """
                    INSERT INTO runs (started_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version,
                                      start_urls, pages_planned, process_id, host_name)
                    VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .real(start.startedAt.timeIntervalSince1970), .text(start.configHash), .text(start.ruleSetName),
                        .text(Lines.join(start.ruleIDs)), .text(start.ruleSetHash), .text(start.canopyVersion),
                        .text(Lines.join(start.startURLs)), .integer(Int64(start.pagesPlanned)), .integer(processID),
                        .text(ProcessInfo.processInfo.hostName),
                    ]
                )
                return RunID(database.lastInsertRowID)
            }
        }
    }

    /// Adds pages and their findings to a running run, all in one transaction. A page already
    /// recorded for the run (a resumed crawl fetching it again) is replaced.
    public func record(_ pages: [PageRecord], run: RunID) throws {
        try withDatabase { database in
            do {
                try database.transaction {
                    try Self.requireRunning(run, in: database)
                    try storedOnce.checkForOtherWriters(in: database)
                    for page in pages { try insert(page, run: run, into: database) }
                }
            } catch {
                // Text written in the rolled-back transaction is gone, and its ids with it.
                storedOnce.forgetAll()
                throw error
            }
        }
    }

    private func insert(_ page: PageRecord, run: RunID, into database: SQLiteDatabase) throws {
        let runValue = SQLiteValue.integer(run.rawValue)
        try database.run("DELETE FROM pages WHERE run_id = ? AND url = ?", [runValue, .text(page.url)])
        let passCounts = try storedOnce.passCountsID(page.passCounts.filter { $0.value > 0 }, in: database)
        try database.run(
            """
            INSERT INTO pages (run_id, url, final_url, status_code, redirect_chain, content_type, bytes, depth, title, fetch_ms, audit_ms, error,
                               unchanged_since, pass_counts_id, not_audited, not_audited_details, frames_audited, frames_skipped)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                runValue, .text(page.url), SQLiteValue(page.finalURL), SQLiteValue(page.statusCode), .text(Lines.join(page.redirectChain)),
                SQLiteValue(page.contentType), SQLiteValue(page.bytes), .integer(Int64(page.depth)), SQLiteValue(page.title),
                SQLiteValue(page.fetchMilliseconds), SQLiteValue(page.auditMilliseconds), SQLiteValue(page.error),
                page.unchangedSince.map { .integer($0.rawValue) } ?? .null, passCounts.map { .integer($0) } ?? .null,
                SQLiteValue(page.notAudited?.reason), page.notAudited.map { .text(Lines.join($0.details)) } ?? .null,
                .integer(Int64(page.framesAudited)), .integer(Int64(page.framesSkipped)),
            ]
        )
        let pageValue = SQLiteValue.integer(database.lastInsertRowID)
        if let revision = page.revision {
            try database.run(
                """
                INSERT INTO page_revisions (page_id, etag, last_modified, content_digest, stylesheets, stylesheet_digest, links, canonical_url, unchanged)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    pageValue, SQLiteValue(revision.etag), SQLiteValue(revision.lastModified), SQLiteValue(revision.contentDigest),
                    .text(Lines.join(revision.stylesheetURLs)), SQLiteValue(revision.stylesheetDigest), .text(Lines.join(revision.links)),
                    SQLiteValue(revision.canonicalURL), SQLiteValue(revision.unchanged),
                ]
            )
        }
        for finding in page.findings {
            let detail = try storedOnce.detailID(of: finding, in: database)
            try database.run("INSERT INTO findings (run_id, page_id, detail_id) VALUES (?, ?, ?)", [runValue, pageValue, .integer(detail)])
        }
        // The first candidate of each key, as before: a second one of the same name is `key (2)`.
        var componentKeys: Set<ExactText> = []
        for component in page.components where componentKeys.insert(ExactText(component.key)).inserted {
            let id = try storedOnce.componentID(component, in: database)
            try database.run("INSERT INTO page_components (page_id, component_id) VALUES (?, ?)", [pageValue, .integer(id)])
        }
        // In the page's own transaction: a page on record always has its links on record.
        if !page.discoveredLinks.isEmpty {
            try database.run("INSERT INTO page_links (page_id, urls) VALUES (?, ?)", [pageValue, .text(Lines.join(page.discoveredLinks))])
        }
    }

    /// Marks a run complete with its coverage, after the analysis that gives its findings their
    /// issue keys; all in one transaction, so a run is either complete and analysed or not complete.
    public func finish(_ run: RunID, coverage: RunCoverage, endedAt: Date = Date()) throws {
        try withDatabase { database in
            try database.transaction {
                try Self.requireRunning(run, in: database)
                guard let analyzer else { throw StoreError.analysisUnavailable }
                try analyzer.analyze(run, in: database, comparingInstances: true)
                // A complete run is never resumed, so the links kept for that are dropped.
                try database.run(
                    "DELETE FROM page_links WHERE page_id IN (SELECT id FROM pages WHERE run_id = ?)", [.integer(run.rawValue)]
                )
                // The next incremental crawl compares with this run only.
                try database.run(
                    """
                    DELETE FROM page_revisions WHERE page_id IN
                        (SELECT pages.id FROM pages JOIN runs ON runs.id = pages.run_id WHERE runs.status = 'complete' AND runs.id <> ?)
                    """,
                    [.integer(run.rawValue)]
                )
                try database.run(
                    """
                    UPDATE runs SET status = 'complete', ended_at = ?, pages_planned = ?, pages_crawled = ?, pages_failed = ?,
                                    pages_skipped_scope = ?, pages_skipped_robots = ?
                    WHERE id = ?
                    """,
                    [
                        .real(endedAt.timeIntervalSince1970), .integer(Int64(coverage.planned)), .integer(Int64(coverage.crawled)),
                        .integer(Int64(coverage.failed)), .integer(Int64(coverage.skippedByScope)),
                        .integer(Int64(coverage.skippedByRobots)), .integer(run.rawValue),
                    ]
                )
                try Self.recordPageCoverage(of: run, in: database)
                if let sheets = coverage.stylesheets {
                    for (name, count) in [("loaded", sheets.loaded), ("failed", sheets.failed), ("missing", sheets.missing)] {
                        try Self.insertCoverage(run, measure: "stylesheets", name: name, count: count, in: database)
                    }
                }
            }
        }
    }

    /// Counts a run's pages by why they were not audited and by the kind of their error, and
    /// adds up their frames, into `run_coverage` (replacing what it held of them): from the
    /// pages themselves, so a resumed run counts the pages recorded before its interruption.
    static func recordPageCoverage(of run: RunID, in database: SQLiteDatabase) throws {
        let runValue = SQLiteValue.integer(run.rawValue)
        try database.run("DELETE FROM run_coverage WHERE run_id = ? AND measure IN ('not-audited', 'error', 'frames')", [runValue])
        let reasons = try database.query(
            "SELECT not_audited, COUNT(*) FROM pages WHERE run_id = ? AND error IS NULL AND not_audited IS NOT NULL GROUP BY not_audited",
            [runValue]
        ) { ($0.string(0), $0.int(1)) }
        for (reason, count) in reasons { try insertCoverage(run, measure: "not-audited", name: reason, count: count, in: database) }
        var errors: [String: Int] = [:]
        try database.forEachRow("SELECT error, status_code FROM pages WHERE run_id = ? AND error IS NOT NULL", [runValue]) { row in
            errors[CrawlErrorKind.of(error: row.string(0), statusCode: row.optionalInt(1)), default: 0] += 1
        }
        for (kind, count) in errors { try insertCoverage(run, measure: "error", name: kind, count: count, in: database) }
        let frames = try database.queryFirst(
            "SELECT COALESCE(SUM(frames_audited), 0), COALESCE(SUM(frames_skipped), 0) FROM pages WHERE run_id = ?", [runValue]
        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        try insertCoverage(run, measure: "frames", name: "audited", count: frames.0, in: database)
        try insertCoverage(run, measure: "frames", name: "skipped", count: frames.1, in: database)
    }

    private static func insertCoverage(_ run: RunID, measure: String, name: String, count: Int, in database: SQLiteDatabase) throws {
        try database.run(
            "INSERT OR REPLACE INTO run_coverage (run_id, measure, name, count) VALUES (?, ?, ?, ?)",
            [.integer(run.rawValue), .text(measure), .text(name), .integer(Int64(count))]
        )
    }

    /// The coverage counts `run_coverage` holds, by run, added to each run's `coverage`.
    public static func addingCoverageDetails(to runs: [StoredRun], in database: SQLiteDatabase) throws -> [StoredRun] {
        guard let first = runs.first?.id else { return runs }
        var details: [RunID: [(String, String, Int)]] = [:]
        try database.forEachRow(
            "SELECT run_id, measure, name, count FROM run_coverage WHERE run_id >= ?", [.integer(first.rawValue)]
        ) { row in
            details[RunID(row.int64(0)), default: []].append((row.string(1), row.string(2), row.int(3)))
        }
        return runs.map { run in
            guard let rows = details[run.id] else { return run }
            var run = run
            var sheets: [String: Int] = [:]
            for (measure, name, count) in rows {
                switch measure {
                case "not-audited": run.coverage.notAudited[name] = count
                case "error": run.coverage.errors[name] = count
                case "frames" where name == "audited": run.coverage.framesAudited = count
                case "frames" where name == "skipped": run.coverage.framesSkipped = count
                case "stylesheets": sheets[name] = count
                default: break
                }
            }
            if !sheets.isEmpty {
                run.coverage.stylesheets = StyleSheetCoverage(loaded: sheets["loaded"] ?? 0, failed: sheets["failed"] ?? 0, missing: sheets["missing"] ?? 0)
            }
            return run
        }
    }

    /// Marks a running run interrupted: it keeps its pages (for resuming) but never counts in trends.
    public func markInterrupted(_ run: RunID, at date: Date = Date()) throws {
        try withDatabase { database in
            try database.transaction {
                try Self.requireRunning(run, in: database)
                try database.run(
                    "UPDATE runs SET status = 'interrupted', ended_at = ? WHERE id = ?",
                    [.real(date.timeIntervalSince1970), .integer(run.rawValue)]
                )
            }
        }
    }

    /// Marks interrupted every running run started on this machine by a process that no longer
    /// exists (a crawl that crashed or was killed). Returns the runs it marked.
    public func interruptAbandonedRuns(at date: Date = Date()) throws -> [RunID] {
        let hostName = ProcessInfo.processInfo.hostName
        return try withDatabase { database in
            try database.transaction {
                let running = try database.query("SELECT id, process_id, host_name FROM runs WHERE status = 'running'") {
                    (RunID($0.int64(0)), $0.optionalInt(1), $0.optionalString(2))
                }
                var marked: [RunID] = []
                for (run, processID, runHost) in running where runHost == hostName {
                    guard let processID, !Self.processExists(processID) else { continue }
                    try database.run(
                        "UPDATE runs SET status = 'interrupted', ended_at = ? WHERE id = ?",
                        [.real(date.timeIntervalSince1970), .integer(run.rawValue)]
                    )
                    marked.append(run)
                }
                return marked
            }
        }
    }

    private static func processExists(_ processID: Int) -> Bool {
        guard processID > 0, processID <= Int(Int32.max) else { return false }
        // Signal 0 checks existence without signalling; EPERM means it exists under another user.
        return kill(pid_t(processID), 0) == 0 || errno == EPERM
    }

    /// Makes an interrupted run running again in this process, to add the pages it still lacks
    /// (`recordedPages(run:)` tells which it has). A running run is refused: its crawl is alive
    /// (`interruptAbandonedRuns()` has marked the dead ones), and two crawls must not share a run.
    public func resume(_ run: RunID) throws {
        try withDatabase { database in
            try database.transaction {
                guard let status = try Self.status(of: run, in: database) else { throw StoreError.unknownRun(run) }
                guard status == .interrupted else { throw StoreError.runNotInterrupted(run, status) }
                try database.run(
                    "UPDATE runs SET status = 'running', ended_at = NULL, process_id = ?, host_name = ? WHERE id = ?",
                    [.integer(Int64(getpid())), .text(ProcessInfo.processInfo.hostName), .integer(run.rawValue)]
                )
            }
        }
    }

    private static func status(of run: RunID, in database: SQLiteDatabase) throws -> RunStatus? {
        try database.queryFirst("SELECT status FROM runs WHERE id = ?", [.integer(run.rawValue)]) { RunStatus(rawValue: $0.string(0)) } ?? nil
    }

    private static func requireRunning(_ run: RunID, in database: SQLiteDatabase) throws {
        guard let status = try status(of: run, in: database) else { throw StoreError.unknownRun(run) }
        guard status == .running else { throw StoreError.runNotRunning(run, status) }
    }

    // MARK: Reading

    /// The URLs recorded so far for a run, to resume it without fetching them again.
    public func recordedURLs(run: RunID) throws -> Set<String> {
        try withDatabase { database in
            Set(try database.query("SELECT url FROM pages WHERE run_id = ?", [.integer(run.rawValue)]) { $0.string(0) })
        }
    }

    /// The pages recorded so far for a run, with what a resumed crawl needs of each, in recording order.
    public func recordedPages(run: RunID) throws -> [RecordedPage] {
        try withDatabase { database in try database.transaction(immediate: false) {
            let runValue = SQLiteValue.integer(run.rawValue)
            var counts: [Int64: (violations: Int, incomplete: Int)] = [:]
            try database.forEachRow(
                """
                SELECT findings.page_id, detail.outcome, COUNT(*) FROM findings \(Self.findingText)
                WHERE findings.run_id = ? GROUP BY findings.page_id, detail.outcome
                """,
                [runValue]
            ) { row in
                let outcome = try Self.decode(FindingOutcome.self, row.string(1))
                switch outcome {
                case .violation: counts[row.int64(0), default: (0, 0)].violations = row.int(2)
                case .incomplete: counts[row.int64(0), default: (0, 0)].incomplete = row.int(2)
                }
            }
            // audit_ms is set exactly for the pages that were parsed and audited.
            return try database.query(
                """
                SELECT pages.id, pages.url, pages.depth, pages.status_code, pages.redirect_chain, pages.bytes, pages.error,
                       pages.audit_ms IS NOT NULL, page_links.urls, pages.not_audited IS ?
                FROM pages LEFT JOIN page_links ON page_links.page_id = pages.id
                WHERE pages.run_id = ? ORDER BY pages.id
                """,
                [.text(NotAudited.clientRendered), runValue]
            ) { row in
                let found = counts[row.int64(0)]
                let page = FinishedPage(
                    url: row.string(1), depth: row.int(2), statusCode: row.optionalInt(3), redirectChain: Lines.split(row.string(4)),
                    bytes: row.optionalInt(5), error: row.optionalString(6), processed: row.int(7) != 0,
                    discoveredLinks: row.optionalString(8).map(Lines.split) ?? []
                )
                return RecordedPage(page, violations: found?.violations ?? 0, incomplete: found?.incomplete ?? 0, clientRendered: row.int(9) != 0)
            }
        } }
    }

    /// The latest complete run: what an incremental crawl compares with.
    public func latestCompleteRun() throws -> StoredRun? {
        try withDatabase { database in
            try database.queryFirst("SELECT \(Self.runColumns) FROM runs WHERE status = 'complete' ORDER BY id DESC LIMIT 1", row: Self.storedRun)
        }
    }

    /// The audited pages of a run that an incremental crawl can carry over, by URL: answered
    /// 2xx at their own URL (no redirect) and on record with their revision.
    public func baselinePages(run: RunID) throws -> [String: BaselinePage] {
        try withDatabase { database in
            var pages: [String: BaselinePage] = [:]
            try database.forEachRow(
                """
                SELECT pages.id, pages.url, pages.status_code, pages.content_type, pages.bytes, pages.unchanged_since,
                       page_revisions.etag, page_revisions.last_modified, page_revisions.content_digest, page_revisions.stylesheets,
                       page_revisions.stylesheet_digest, page_revisions.canonical_url
                FROM pages JOIN page_revisions ON page_revisions.page_id = pages.id
                WHERE pages.run_id = ? AND pages.audit_ms IS NOT NULL AND pages.error IS NULL AND pages.redirect_chain = ''
                  AND pages.status_code BETWEEN 200 AND 299
                """,
                [.integer(run.rawValue)]
            ) { row in
                let revision = PageRevision(
                    etag: row.optionalString(6), lastModified: row.optionalString(7), contentDigest: row.optionalString(8),
                    stylesheetURLs: Lines.split(row.string(9)), stylesheetDigest: row.optionalString(10), canonicalURL: row.optionalString(11)
                )
                pages[row.string(1)] = BaselinePage(
                    pageID: row.int64(0), statusCode: row.int(2), contentType: row.optionalString(3), bytes: row.optionalInt(4),
                    revision: revision, auditedIn: row.optionalInt(5).map { RunID(Int64($0)) } ?? run
                )
            }
            return pages
        }
    }

    /// What the audit of a recorded page found, to record it again for a run where the page is unchanged.
    public func carriedAudit(page pageID: Int64) throws -> CarriedAudit {
        try withDatabase { database in try database.transaction(immediate: false) {
            let page = SQLiteValue.integer(pageID)
            guard let (run, title, passCounts, links) = try database.queryFirst(
                """
                SELECT pages.run_id, pages.title, (SELECT counts FROM pass_counts WHERE pass_counts.id = pages.pass_counts_id),
                       page_revisions.links
                FROM pages LEFT JOIN page_revisions ON page_revisions.page_id = pages.id WHERE pages.id = ?
                """,
                [page],
                row: { ($0.int64(0), $0.optionalString(1), $0.optionalString(2), $0.optionalString(3).map(Lines.split) ?? []) }
            ) else { throw StoreError.corruptValue(column: "pages.id", value: String(pageID)) }
            let findings = try database.query(
                """
                SELECT \(Self.findingColumns), detail.owner, detail.element_signature, detail.component_key, detail.component_hash,
                       detail.component_signature, detail.evidence
                FROM findings \(Self.findingText) WHERE findings.run_id = ? AND findings.page_id = ? ORDER BY findings.id
                """,
                [.integer(run), page]
            ) { row in
                let component: ComponentPlacement? = switch (row.optionalString(8), row.optionalString(9), row.optionalString(10)) {
                case (let key?, let hash?, let signature?): ComponentPlacement(candidate: ComponentCandidate(key: key, structureHash: hash), elementSignature: signature)
                default: nil
                }
                return FindingRecord(
                    try Self.finding(row, from: 0, evidence: 11), owner: row.optionalString(6),
                    identity: FindingIdentity(elementSignature: row.string(7), component: component)
                )
            }
            let passes = try passCounts.map { try PassCounts.counts($0, ruleIDs: PassCounts.ruleIDs(in: database)) } ?? [:]
            let components = try database.query(
                """
                SELECT components.component_key, components.structure_hash
                FROM page_components JOIN components ON components.id = page_components.component_id
                WHERE page_components.page_id = ? ORDER BY components.component_key
                """,
                [page]
            ) { ComponentCandidate(key: $0.string(0), structureHash: $0.string(1)) }
            return CarriedAudit(title: title, findings: findings, passCounts: passes, components: components, links: links)
        } }
    }

    /// All runs, oldest first.
    public func runs() throws -> [StoredRun] {
        try withDatabase { try Self.runs(in: $0, where: nil) }
    }

    public func run(_ id: RunID) throws -> StoredRun? {
        try withDatabase { try Self.runs(in: $0, where: id).first }
    }

    // Row decoding shared with the history layer's own queries of these tables.

    /// The columns `storedRun(_:)` reads, in its order.
    public static let runColumns: SQL = """
        id, started_at, ended_at, status, config_hash, rule_set_name, rule_ids, rule_set_hash, canopy_version, start_urls,
        pages_planned, pages_crawled, pages_failed, pages_skipped_scope, pages_skipped_robots
        """

    static func runs(in database: SQLiteDatabase, where id: RunID?) throws -> [StoredRun] {
        let filter: SQL = id == nil ? "" : "WHERE id = ?"
        let runs = try database.query("SELECT \(runColumns) FROM runs \(filter) ORDER BY id", id.map { [.integer($0.rawValue)] } ?? []) { row in
            try storedRun(row)
        }
        return try addingCoverageDetails(to: runs, in: database)
    }

    public static func storedRun(_ row: SQLiteRow) throws -> StoredRun {
        StoredRun(
            id: RunID(row.int64(0)), startedAt: Date(timeIntervalSince1970: row.double(1)),
            endedAt: row.optionalDouble(2).map(Date.init(timeIntervalSince1970:)),
            status: try decode(RunStatus.self, row.string(3)), configHash: row.string(4), ruleSetName: row.string(5),
            ruleIDs: Lines.split(row.string(6)), ruleSetHash: row.string(7), canopyVersion: row.string(8),
            startURLs: Lines.split(row.string(9)),
            coverage: RunCoverage(
                planned: row.int(10), crawled: row.int(11), failed: row.int(12), skippedByScope: row.int(13), skippedByRobots: row.int(14)
            )
        )
    }

    /// The pages of a run in the order they were recorded.
    public func pages(run: RunID) throws -> [StoredPage] {
        try withDatabase { database in
            try database.query(
                "SELECT \(Self.pageColumns) FROM pages WHERE run_id = ? ORDER BY id", [.integer(run.rawValue)], row: Self.storedPage
            )
        }
    }

    static let pageColumns: SQL = """
        url, final_url, status_code, redirect_chain, content_type, bytes, depth, title, page_type, fetch_ms, audit_ms, error, id,
        not_audited, not_audited_details
        """

    public static func storedPage(_ row: SQLiteRow) -> StoredPage {
        StoredPage(
            url: row.string(0), finalURL: row.optionalString(1), statusCode: row.optionalInt(2), redirectChain: Lines.split(row.string(3)),
            contentType: row.optionalString(4), bytes: row.optionalInt(5), depth: row.int(6), title: row.optionalString(7),
            pageType: row.optionalString(8), fetchMilliseconds: row.optionalDouble(9), auditMilliseconds: row.optionalDouble(10),
            error: row.optionalString(11),
            notAudited: row.optionalString(13).map { NotAudited(reason: $0, details: Lines.split(row.optionalString(14) ?? "")) }
        )
    }

    /// Each page of a run with its findings and pass counts by rule, in recording order, handed
    /// to `body` one at a time: a report on a run of 100,000 pages holds one page, never all of them.
    /// Reads one snapshot of the store (one read transaction), however long `body` takes.
    public func forEachPageResult(run: RunID, _ body: (StoredPage, [StoredFinding], [String: Int]) throws -> Void) throws {
        try withDatabase { database in try database.transaction(immediate: false) {
            let runValue = SQLiteValue.integer(run.rawValue)
            let ruleIDs = try PassCounts.ruleIDs(in: database)
            var evidenceReader = EvidenceReader()
            try database.forEachRow(
                """
                SELECT \(Self.pageColumns), (SELECT counts FROM pass_counts WHERE pass_counts.id = pages.pass_counts_id)
                FROM pages WHERE run_id = ? ORDER BY id
                """,
                [runValue]
            ) { row in
                let page = Self.storedPage(row)
                let pageID = SQLiteValue.integer(row.int64(12))
                let passes = try row.optionalString(15).map { try PassCounts.counts($0, ruleIDs: ruleIDs) } ?? [:]
                let findings = try database.query(
                    """
                    SELECT \(Self.findingColumns), detail.owner, detail.element_signature, detail.component_key, issue.issue_key, detail.evidence
                    FROM findings \(Self.findingText) WHERE findings.run_id = ? AND findings.page_id = ? ORDER BY findings.id
                    """,
                    [runValue, pageID]
                ) { row in
                    StoredFinding(
                        pageURL: page.url,
                        finding: try Self.finding(row, from: 0, evidence: 10, decodingEvidence: { try evidenceReader.evidence(fromJSON: $0) }),
                        owner: row.optionalString(6), elementSignature: row.string(7),
                        componentKey: row.optionalString(8), issueKey: row.optionalString(9)
                    )
                }
                try body(page, findings, passes)
            }
        } }
    }

    /// The findings of a run (of one of its pages when `pageURL` is given), in recording order.
    public func findings(run: RunID, pageURL: String? = nil) throws -> [StoredFinding] {
        try withDatabase { database in
            let findingsOfRun: SQL = """
                SELECT pages.url, \(Self.findingColumns),
                       detail.owner, detail.element_signature, detail.component_key, issue.issue_key, detail.evidence
                FROM findings JOIN pages ON pages.id = findings.page_id \(Self.findingText)
                WHERE findings.run_id = ?
                """
            var parameters: [SQLiteValue] = [.integer(run.rawValue)]
            var pageFilter: SQL = ""
            if let pageURL {
                pageFilter = "AND pages.url = ?"
                parameters.append(.text(pageURL))
            }
            var evidenceReader = EvidenceReader()
            return try database.query("\(findingsOfRun) \(pageFilter) ORDER BY findings.id", parameters) { row in
                StoredFinding(
                    pageURL: row.string(0),
                    finding: try Self.finding(row, from: 1, evidence: 11, decodingEvidence: { try evidenceReader.evidence(fromJSON: $0) }),
                    owner: row.optionalString(7), elementSignature: row.string(8),
                    componentKey: row.optionalString(9), issueKey: row.optionalString(10)
                )
            }
        }
    }

    /// Pass counts of one page by rule.
    public func passCounts(run: RunID, pageURL: String) throws -> [String: Int] {
        try withDatabase { database in
            let counts = try database.queryFirst(
                """
                SELECT pass_counts.counts FROM pages JOIN pass_counts ON pass_counts.id = pages.pass_counts_id
                WHERE pages.run_id = ? AND pages.url = ?
                """,
                [.integer(run.rawValue), .text(pageURL)]
            ) { $0.string(0) }
            return try counts.map { try PassCounts.counts($0, ruleIDs: PassCounts.ruleIDs(in: database)) } ?? [:]
        }
    }

    /// The components found site-wide in a complete run: each shape (structure hash) of each
    /// site-wide key, with the number of pages holding it.
    public func siteWideComponents(run: RunID) throws -> [(candidate: ComponentCandidate, pageCount: Int)] {
        try withDatabase { database in
            try database.query(
                "SELECT component_key, structure_hash, page_count FROM run_components WHERE run_id = ? ORDER BY component_key, structure_hash",
                [.integer(run.rawValue)]
            ) { (ComponentCandidate(key: $0.string(0), structureHash: $0.string(1)), $0.int(2)) }
        }
    }

    /// Joined to `findings`, gives each its text (the columns of `finding_details AS detail`) and
    /// its issue key (`issue.issue_key`, NULL until its run is analysed).
    public static let findingText: SQL = """
        JOIN finding_details AS detail ON detail.id = findings.detail_id LEFT JOIN issue_keys AS issue ON issue.id = findings.issue_id
        """

    /// The six columns `finding(_:from:evidence:)` reads, from `findingText`.
    public static let findingColumns: SQL = "detail.rule_id, detail.impact, detail.outcome, detail.target, detail.snippet, detail.message"

    /// Pass counts by rule of a run's pages added up, for the analysis's `run_rule_passes`.
    public static func passTotals(run: RunID, in database: SQLiteDatabase) throws -> [String: Int] {
        let ruleIDs = try PassCounts.ruleIDs(in: database)
        var totals: [String: Int] = [:]
        // Pages in recording order (no sort: grouping by counts made SQLite sort every page of
        // the run, 8 MB at 40,000 pages); counts that pages share are parsed once while they
        // stay in a bounded cache.
        var parsed: [Int64: [(rule: String, passes: Int)]] = [:]
        try database.forEachRow(
            """
            SELECT pass_counts.id, pass_counts.counts FROM pages JOIN pass_counts ON pass_counts.id = pages.pass_counts_id
            WHERE pages.run_id = ?
            """,
            [.integer(run.rawValue)]
        ) { row in
            let id = row.int64(0)
            let counts: [(rule: String, passes: Int)]
            if let known = parsed[id] {
                counts = known
            } else {
                counts = try PassCounts.counts(row.string(1), ruleIDs: ruleIDs).map { ($0.key, $0.value) }
                if parsed.count >= 4_096 { parsed.removeAll(keepingCapacity: true) }
                parsed[id] = counts
            }
            for (rule, passes) in counts { totals[rule, default: 0] += passes }
        }
        return totals
    }

    /// The id of an issue key in `issue_keys`, written if missing: the analysis gives findings
    /// and `run_issues` their issue keys by id.
    public static func issueKeyID(_ issueKey: String, in database: SQLiteDatabase) throws -> Int64 {
        try StoredOnce.storedID(
            of: [.text(issueKey)], select: "SELECT id FROM issue_keys WHERE issue_key = ?", insert: "INSERT INTO issue_keys (issue_key) VALUES (?)",
            in: database
        )
    }

    /// Deletes the text stored once that no row uses any more: what only the runs a prune
    /// deleted had.
    public func deleteUnusedValues() throws {
        try withDatabase { database in
            try database.transaction {
                try database.execute(
                    """
                    DELETE FROM finding_details WHERE id NOT IN (SELECT detail_id FROM findings);
                    DELETE FROM issue_keys WHERE id NOT IN (SELECT issue_id FROM findings WHERE issue_id IS NOT NULL)
                                             AND id NOT IN (SELECT issue_id FROM run_issues);
                    DELETE FROM components WHERE id NOT IN (SELECT component_id FROM page_components);
                    DELETE FROM pass_counts WHERE id NOT IN (SELECT pass_counts_id FROM pages WHERE pass_counts_id IS NOT NULL);
                    """
                )
                // Their ids may be given out again, to other text.
                storedOnce.forgetAll()
            }
        }
    }

    /// A finding from six columns (rule id, impact, outcome, target, snippet, message) starting at
    /// `column`, and its evidence from the column `evidence` when the query selects it.
    public static func finding(_ row: SQLiteRow, from column: Int32, evidence: Int32? = nil) throws -> Finding {
        try finding(row, from: column, evidence: evidence, decodingEvidence: Self.evidence(fromJSON:))
    }

    /// `finding(_:from:evidence:)` with the evidence text read by `decodingEvidence`: an
    /// `EvidenceReader` where many findings are read.
    public static func finding(
        _ row: SQLiteRow, from column: Int32, evidence: Int32?, decodingEvidence: (String) throws -> [String: EvidenceValue]
    ) throws -> Finding {
        Finding(
            ruleID: row.string(column), impact: try decode(Impact.self, row.string(column + 1)),
            outcome: try decode(FindingOutcome.self, row.string(column + 2)), target: row.string(column + 3),
            snippet: row.string(column + 4), message: row.string(column + 5),
            evidence: try evidence.flatMap { row.optionalString($0) }.map(decodingEvidence) ?? [:]
        )
    }

    /// Evidence as stored: a JSON object with sorted keys, nil when there is none.
    static func evidenceJSON(_ evidence: [String: EvidenceValue]) -> String? {
        guard !evidence.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(evidence)).map { String(decoding: $0, as: UTF8.self) }
    }

    public static func evidence(fromJSON text: String) throws -> [String: EvidenceValue] {
        if let plain = plainEvidence(text) { return plain }
        do {
            return try JSONDecoder().decode([String: EvidenceValue].self, from: Data(text.utf8))
        } catch {
            throw StoreError.corruptValue(column: "findings.evidence", value: String(text.prefix(80)))
        }
    }

    /// Reads stored evidence texts, each distinct one decoded once: a run's findings share a handful
    /// (10 among 56,000 on java.base), and decoding each was a tenth of the open-issue pass of the
    /// reports (callgrind). Texts are told apart by their bytes, as they are stored.
    public struct EvidenceReader {
        private var decoded: [ExactText: [String: EvidenceValue]] = [:]

        public init() {}

        public mutating func evidence(fromJSON text: String) throws -> [String: EvidenceValue] {
            let key = ExactText(text)
            if let known = decoded[key] { return known }
            let evidence = try RunStore.evidence(fromJSON: text)
            // A site whose every finding measures something else must not fill memory with them.
            if decoded.count >= StoredOnce.limit { decoded.removeAll(keepingCapacity: true) }
            decoded[key] = evidence
            return evidence
        }
    }

    /// Evidence as `evidenceJSON` writes it when nothing in it needs escaping (nearly always:
    /// colours, ratios, sizes), read without JSONDecoder, which took a tenth of a report's time
    /// (perf, java.base); nil for anything else, which JSONDecoder then reads.
    static func plainEvidence(_ text: String) -> [String: EvidenceValue]? {
        var utf8 = Substring(text).utf8
        guard utf8.first == UInt8(ascii: "{"), utf8.last == UInt8(ascii: "}"), !utf8.contains(UInt8(ascii: "\\")) else { return nil }
        utf8 = utf8.dropFirst().dropLast()
        var evidence: [String: EvidenceValue] = [:]
        func quoted(_ rest: inout Substring.UTF8View) -> String? {
            guard rest.first == UInt8(ascii: "\""), let end = rest.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            let value = String(Substring(rest[rest.index(after: rest.startIndex)..<end]))
            rest = rest[rest.index(after: end)...]
            return value
        }
        while !utf8.isEmpty {
            guard let key = quoted(&utf8), utf8.first == UInt8(ascii: ":") else { return nil }
            utf8 = utf8.dropFirst()
            if utf8.first == UInt8(ascii: "\"") {
                guard let value = quoted(&utf8) else { return nil }
                evidence[key] = .text(value)
            } else {
                let end = utf8.firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
                guard let number = Double(String(Substring(utf8[..<end]))), number.isFinite else { return nil }
                evidence[key] = .number(number)
                utf8 = utf8[end...]
            }
            if utf8.first == UInt8(ascii: ",") {
                utf8 = utf8.dropFirst()
                guard !utf8.isEmpty else { return nil }
            } else if !utf8.isEmpty {
                return nil
            }
        }
        return evidence
    }

    /// A stored enumeration value, or `StoreError.corruptValue` naming it.
    public static func decode<Value: RawRepresentable>(_ type: Value.Type, _ raw: String) throws -> Value where Value.RawValue == String {
        guard let value = Value(rawValue: raw) else { throw StoreError.corruptValue(column: String(describing: type), value: raw) }
        return value
    }
}

/// Lists stored one item a line: URLs and rule ids never contain a line break, and a line-joined
/// list is cheaper to write and read than JSON for the hundreds of thousands of pages of a history.
enum Lines {
    static func join(_ items: [String]) -> String { items.joined(separator: "\n") }
    static func split(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}
