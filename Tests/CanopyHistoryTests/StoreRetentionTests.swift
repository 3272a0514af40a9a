@testable import CanopyHistory
import CanopyHistoryTestSupport
@testable import CanopyStore
import Foundation
import Testing

/// A history that outlives its machine: export and import, damaged files, the single writer, and
/// pruning that keeps issue ages true.
struct StoreRetentionTests {
    static let week: TimeInterval = 7 * 86_400
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// One page per issue signature: each week lists the signatures failing that week.
    static func page(_ signature: String) -> PageRecord {
        PageRecord(
            url: "https://shop.example/\(signature)", statusCode: 200, contentType: "text/html", bytes: 100, depth: 1,
            title: signature, findings: [madeUpFinding("image-alt", signature: signature)], passCounts: ["image-alt": 1]
        )
    }

    /// "always" fails every week; "comeback" fails in weeks 0–1, is fixed in week 2, and is back
    /// from week 3; "fixed" fails in weeks 0–1 only; "late" appears in week 4.
    static let weeks: [[String]] = [
        ["always", "comeback", "fixed"], ["always", "comeback", "fixed"], ["always"], ["always", "comeback"],
        ["always", "comeback", "late"], ["always", "comeback", "late"],
    ]

    static func recordHistory(in store: RunStore) throws {
        for (index, failing) in weeks.enumerated() {
            let signatures = Set(weeks.flatMap { $0 })
            // Every page every week, so a fixed issue is a page that passes, not a vanished page.
            let pages = signatures.sorted().map { signature in
                var record = page(signature)
                if !failing.contains(signature) { record.findings = [] }
                return record
            }
            try store.recordCompleteRun(pages, start: .test(at: start.addingTimeInterval(Double(index) * week)))
        }
    }

    typealias Ages = [String: (streak: Date, ever: Date)]

    static func ages(_ store: RunStore) throws -> Ages {
        let issues = try #require(try store.trendReport().latest).openIssues
        return Dictionary(uniqueKeysWithValues: issues.map { ($0.example.url.components(separatedBy: "/").last!, ($0.firstSeenAt, $0.firstSeenEverAt)) })
    }

    @Test func pruningKeepsTheFirstSeenDatesOfOpenIssues() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        try Self.recordHistory(in: store)
        let before = try Self.ages(store)
        #expect(before["always"]?.streak == Self.start)
        #expect(before["comeback"]?.streak == Self.start.addingTimeInterval(3 * Self.week))
        #expect(before["comeback"]?.ever == Self.start)
        #expect(before["fixed"] == nil)

        for keep in [4, 2, 1] {
            let pruned = try store.prune(RetentionPolicy(keepRuns: keep))
            #expect(pruned.keptCompleteRuns == keep)
            #expect(try store.runs().count == keep)
            let after = try Self.ages(store)
            #expect(Set(after.keys) == Set(before.keys), "kept \(keep)")
            for (signature, age) in before {
                #expect(after[signature]?.streak == age.streak, "\(signature) streak, kept \(keep)")
                #expect(after[signature]?.ever == age.ever, "\(signature) first ever, kept \(keep)")
            }
        }
        // The deleted runs' pages and findings went with them.
        let pages = try store.withDatabase { try $0.queryFirst("SELECT COUNT(*) FROM pages") { $0.int(0) } }
        #expect(pages == 4)
    }

    @Test func pruningByAgeKeepsTheLatestRunWhateverItsAge() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        try Self.recordHistory(in: store)
        let lastStart = Self.start.addingTimeInterval(5 * Self.week)
        // Twenty-two days after the last run: runs older than three weeks go, except the latest.
        var pruned = try store.prune(RetentionPolicy(maximumAge: 21 * 86_400), now: lastStart.addingTimeInterval(22 * 86_400))
        #expect(pruned.deletedRuns.count == 5)
        #expect(try store.runs().map(\.startedAt) == [lastStart])
        pruned = try store.prune(RetentionPolicy(maximumAge: 86_400), now: lastStart.addingTimeInterval(400 * 86_400))
        #expect(pruned.deletedRuns.isEmpty)
        #expect(RetentionPolicy.age(parsing: "400d") == TimeInterval(400 * 86_400))
        #expect(RetentionPolicy.age(parsing: "2w") == TimeInterval(14 * 86_400))
        #expect(RetentionPolicy.age(parsing: "12") == nil)
        #expect(RetentionPolicy.age(parsing: "-3d") == nil)
    }

    @Test func anExportImportsIntoTheSameHistory() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        try Self.recordHistory(in: store)
        // A crawl still writing when the snapshot is taken: no one will finish it elsewhere.
        let live = try store.begin(.test(at: Self.start.addingTimeInterval(6 * Self.week)))
        let exported = try StoreArchive.export(store, to: folder.path("history.sqlite.gz"))
        #expect(exported.runs == Self.weeks.count + 1)
        #expect(exported.bytes > 0 && exported.bytes < exported.storeBytes)
        let handle = try #require(FileHandle(forReadingAtPath: exported.path))
        let magic = try #require(try handle.read(upToCount: 2))
        #expect(Array(magic) == [0x1F, 0x8B])

        let restoredPath = folder.path("elsewhere/canopy.sqlite")
        let imported = try StoreArchive.importArchive(at: exported.path, intoStoreAt: restoredPath, replace: false, analyzer: RunAnalysis())
        #expect(imported.runs == Self.weeks.count + 1)
        let restored = try RunStore(path: restoredPath)
        var original = try store.trendReport(generatedAt: Self.start)
        var copy = try restored.trendReport(generatedAt: Self.start)
        #expect(copy == original)
        #expect(try restored.run(live)?.status == .interrupted)
        #expect(try store.run(live)?.status == .running)
        // A plain store file (a cached canopy.sqlite) imports too.
        try store.finish(live, coverage: RunCoverage(planned: 0, crawled: 0, failed: 0))
        try store.withDatabase { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        _ = try StoreArchive.importArchive(at: store.path, intoStoreAt: restoredPath, replace: true, analyzer: RunAnalysis())
        original = try store.trendReport(generatedAt: Self.start)
        copy = try RunStore(path: restoredPath).trendReport(generatedAt: Self.start)
        #expect(copy == original)
    }

    @Test func aDamagedFileLeavesTheStoreUntouched() throws {
        let folder = try TemporaryFolder()
        let source = try RunStore(path: folder.path("source.sqlite"))
        try Self.recordHistory(in: source)
        let export = try StoreArchive.export(source, to: folder.path("history.sqlite.gz")).path
        let whole = try Data(contentsOf: URL(fileURLWithPath: export))

        let storePath = folder.path("canopy.sqlite")
        let store = try RunStore(path: storePath)
        try store.recordCompleteRun([Self.page("mine")])
        try store.withDatabase { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: storePath))

        try source.withDatabase { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        var damagedDatabase = try Data(contentsOf: URL(fileURLWithPath: source.path))
        try #require(damagedDatabase.count >= 8192)
        damagedDatabase.replaceSubrange(4096..<8192, with: Data(repeating: 0x5A, count: 4096))
        let notCanopy = folder.path("other.sqlite")
        try SQLiteDatabase(path: notCanopy).execute("CREATE TABLE notes (text TEXT)")
        let cases: [(name: String, contents: Data?)] = [
            ("cut-short.gz", whole.prefix(whole.count / 2)),
            ("bad-checksum.gz", { var data = whole; data[data.count - 6] ^= 0xFF; return data }()),
            ("text.gz", Data("not a store\n".utf8)),
            ("empty.gz", Data()),
            ("damaged.sqlite", damagedDatabase),
            ("other.sqlite", nil),
            ("absent.gz", nil),
        ]
        for (name, contents) in cases {
            let path = name == "other.sqlite" ? notCanopy : folder.path(name)
            if let contents { try contents.write(to: URL(fileURLWithPath: path)) }
            #expect(throws: ArchiveError.self, "\(name)") {
                try StoreArchive.importArchive(at: path, intoStoreAt: storePath, replace: true, analyzer: RunAnalysis())
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == storeBytes, "\(name)")
            #expect(try store.runs().count == 1, "\(name)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".import-") }
        #expect(leftovers.isEmpty)
    }

    @Test func importRefusesToOverwriteAHistoryUnlessAsked() throws {
        let folder = try TemporaryFolder()
        let source = try RunStore(path: folder.path("source.sqlite"))
        try Self.recordHistory(in: source)
        let export = try StoreArchive.export(source, to: folder.path("history.sqlite.gz")).path
        let storePath = folder.path("canopy.sqlite")
        try RunStore(path: storePath).recordCompleteRun([Self.page("mine")])
        #expect(throws: ArchiveError.storeNotEmpty(storePath: storePath, runs: 1)) {
            try StoreArchive.importArchive(at: export, intoStoreAt: storePath, replace: false, analyzer: RunAnalysis())
        }
        let imported = try StoreArchive.importArchive(at: export, intoStoreAt: storePath, replace: true, analyzer: RunAnalysis())
        #expect(imported.replacedRuns == 1)
        #expect(try RunStore(path: storePath).runs().count == Self.weeks.count)
    }

    @Test func aFileFromANewerCanopyIsRefusedWithTheWayOut() throws {
        let folder = try TemporaryFolder()
        let source = try RunStore(path: folder.path("source.sqlite"))
        try source.recordCompleteRun([Self.page("a")])
        try source.withDatabase { database in
            try database.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)", [.integer(Int64(RunStore.schemaVersion + 1))])
        }
        let export = try StoreArchive.export(source, to: folder.path("history.sqlite.gz")).path
        #expect(throws: ArchiveError.newer(export, found: RunStore.schemaVersion + 1, supported: RunStore.schemaVersion)) {
            try StoreArchive.importArchive(at: export, intoStoreAt: folder.path("canopy.sqlite"), replace: false, analyzer: RunAnalysis())
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("canopy.sqlite")))
    }

    @Test func aFileFromAnOlderCanopyIsMigratedOnTheWayIn() throws {
        let folder = try TemporaryFolder()
        let oldPath = folder.path("old.sqlite")
        // A store at schema 5, as the Canopy before issue_origins wrote it.
        try Schema.migrate(SQLiteDatabase(path: oldPath), analyzer: RunAnalysis(), to: 5)
        let imported = try StoreArchive.importArchive(at: oldPath, intoStoreAt: folder.path("canopy.sqlite"), replace: false, analyzer: RunAnalysis())
        #expect(imported.migratedFrom == 5)
        #expect(try StoreHealth.check(storeAt: folder.path("canopy.sqlite")).schemaVersion == RunStore.schemaVersion)
    }

    @Test func aSecondWriterIsRefusedUntilTheFirstIsDone() throws {
        let folder = try TemporaryFolder()
        let storePath = folder.path("canopy.sqlite")
        let first = try StoreWriterLock(storePath: storePath)
        do {
            _ = try StoreWriterLock(storePath: storePath)
            Issue.record("a second writer got the lock")
        } catch let busy as StoreBusy {
            #expect(busy.holder == "pid \(getpid()) on \(ProcessInfo.processInfo.hostName)")
            #expect(busy.description.contains("being written by another Canopy process (pid \(getpid())"))
        }
        #expect(throws: StoreBusy.self) {
            try StoreArchive.importArchive(at: folder.path("none.gz"), intoStoreAt: storePath, replace: true, analyzer: nil)
        }
        first.release()
        _ = try StoreWriterLock(storePath: storePath)
    }

    @Test func checkTellsASoundStoreFromADamagedOne() throws {
        let folder = try TemporaryFolder()
        let store = try RunStore(path: folder.path("canopy.sqlite"))
        try Self.recordHistory(in: store)
        _ = try store.begin(.test(at: Self.start.addingTimeInterval(10 * Self.week)))
        let health = try StoreHealth.check(storeAt: store.path)
        #expect(health.problems.isEmpty)
        #expect(health.runs == StoreHealth.RunCounts(complete: Self.weeks.count, interrupted: 0, running: 1))
        #expect(health.pages == Self.weeks.count * 4)
        #expect(health.firstRunStartedAt == Self.start)

        try store.withDatabase { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        try #require(bytes.count >= 16384)
        bytes.replaceSubrange(8192..<16384, with: Data(repeating: 0xA5, count: 8192))
        let damaged = folder.path("damaged.sqlite")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let verdict = Result { try StoreHealth.check(storeAt: damaged) }
        if case .success(let health) = verdict { #expect(!health.problems.isEmpty) }
    }
}
