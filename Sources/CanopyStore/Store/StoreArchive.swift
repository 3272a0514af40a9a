import CZlib
import Foundation

/// A store as one portable file, so a history can outlive the machine that wrote it (a CI runner
/// that is new every week): `export` writes it, `importArchive` checks it and puts it in place.
///
/// The file is a gzip-compressed SQLite database, so `gunzip` and `sqlite3` open it without
/// Canopy. It is versioned twice: SQLite's `application_id` says it is a Canopy store export
/// (`user_version` the export format), and its `schema_migrations` say which schema it has, so
/// a Canopy that is older than the file refuses it with the way out instead of misreading it.
public enum StoreArchive {
    /// "Cano", in SQLite's application id field.
    public static let applicationID: Int32 = 0x4361_6E6F
    public static let formatVersion: Int32 = 1

    /// What an export wrote.
    public struct Exported: Sendable, Equatable {
        public var path: String
        public var runs: Int
        /// The compressed file's size.
        public var bytes: Int
        /// The size of the store it came from (the SQLite file, with its unmerged log).
        public var storeBytes: Int
    }

    /// Writes a consistent snapshot of `store` to `path` (replacing it only once complete). A run
    /// still being written when the snapshot is taken is marked interrupted in the copy: on
    /// another machine no process will ever finish it.
    public static func export(_ store: RunStore, to path: String) throws -> Exported {
        let snapshot = path + ".snapshot-\(getpid())"
        defer { removeDatabaseFiles(at: snapshot) }
        removeDatabaseFiles(at: snapshot)
        try store.withDatabase { database in
            // VACUUM INTO reads one transaction's view, so a crawl may go on writing meanwhile.
            try database.run("VACUUM INTO ?", [.text(snapshot)])
        }
        let runs: Int
        do {
            let copy = try SQLiteDatabase(path: snapshot)
            try copy.execute("UPDATE runs SET status = 'interrupted', ended_at = COALESCE(ended_at, started_at) WHERE status = 'running'")
            try copy.execute("PRAGMA application_id = 1130458735")
            try copy.execute("PRAGMA user_version = 1")
            // A standalone file: no write-ahead log beside it.
            try copy.execute("PRAGMA journal_mode = DELETE")
            runs = try copy.queryFirst("SELECT COUNT(*) FROM runs") { $0.int(0) } ?? 0
        }
        try Gzip.compress(snapshot, to: path)
        return Exported(path: path, runs: runs, bytes: fileSize(path), storeBytes: RunStore.bytesOnDisk(ofStoreAt: store.path))
    }

    /// What an import put in place.
    public struct Imported: Sendable, Equatable {
        public var runs: Int
        public var schemaVersion: Int
        /// The file had an older schema and was migrated on the way in.
        public var migratedFrom: Int?
        /// Runs the replaced store held (0 when there was none).
        public var replacedRuns: Int
    }

    /// Checks the file at `path` (a Canopy export, gzip or not) and makes it the store at
    /// `storePath`. Nothing at `storePath` changes unless every check passes: the file is
    /// unpacked and verified beside the store, then renamed over it.
    /// - Parameter replace: a store that already holds runs is replaced only when this is true.
    /// - Parameter analyzer: migrates a file from an older Canopy (CanopyHistory's `RunAnalysis`).
    public static func importArchive(at path: String, intoStoreAt storePath: String, replace: Bool, analyzer: (any RunAnalyzer)?) throws -> Imported {
        let writer = try StoreWriterLock(storePath: storePath)
        defer { writer.release() }
        let staging = storePath + ".import-\(getpid())"
        defer { removeDatabaseFiles(at: staging) }
        removeDatabaseFiles(at: staging)
        try unpack(path, to: staging)
        let inspected = try inspect(staging, describedAs: path)

        var replacedRuns = 0
        if FileManager.default.fileExists(atPath: storePath) {
            replacedRuns = (try? runCount(ofStoreAt: storePath)) ?? 0
            if replacedRuns > 0 && !replace { throw ArchiveError.storeNotEmpty(storePath: storePath, runs: replacedRuns) }
        }
        if inspected.schemaVersion < Schema.currentVersion {
            // Opening for writing applies the missing migrations; closed again before the rename.
            _ = try RunStore(path: staging, analyzer: analyzer)
        }
        removeDatabaseFiles(at: storePath)
        guard rename(staging, storePath) == 0 else {
            throw ArchiveError.cannotWrite(storePath, String(cString: strerror(errno)))
        }
        return Imported(
            runs: inspected.runs, schemaVersion: Schema.currentVersion,
            migratedFrom: inspected.schemaVersion < Schema.currentVersion ? inspected.schemaVersion : nil, replacedRuns: replacedRuns
        )
    }

    private static func runCount(ofStoreAt path: String) throws -> Int {
        let database = try SQLiteDatabase(path: path, readOnly: true)
        return try database.queryFirst("SELECT COUNT(*) FROM runs") { $0.int(0) } ?? 0
    }

    /// The file as a SQLite database at `destination`: unzipped when it is gzip, copied when it
    /// is a plain store file (a cached canopy.sqlite works too).
    private static func unpack(_ path: String, to destination: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ArchiveError.missing(path) }
        let magic = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if magic.starts(with: [0x1F, 0x8B]) {
            do {
                try Gzip.decompress(path, to: destination)
            } catch {
                throw ArchiveError.corrupt(path, "the gzip data is damaged or cut short (\(error))")
            }
        } else if magic.starts(with: Array("SQLite format 3\0".utf8)) {
            do {
                try FileManager.default.copyItem(atPath: path, toPath: destination)
            } catch {
                throw ArchiveError.cannotWrite(destination, "\(error)")
            }
        } else {
            throw ArchiveError.corrupt(path, magic.isEmpty ? "the file is empty" : "it is neither a Canopy store export nor a SQLite file")
        }
    }

    private struct Inspected {
        var schemaVersion: Int
        var runs: Int
    }

    /// The unpacked file's integrity and version, with errors that name the file as the user gave it.
    private static func inspect(_ staging: String, describedAs path: String) throws -> Inspected {
        let health: StoreHealth
        do {
            health = try StoreHealth.check(storeAt: staging)
        } catch {
            throw ArchiveError.corrupt(path, "\(error)")
        }
        if let problem = health.problems.first { throw ArchiveError.corrupt(path, problem) }
        if health.schemaVersion > Schema.currentVersion {
            throw ArchiveError.newer(path, found: health.schemaVersion, supported: Schema.currentVersion)
        }
        return Inspected(schemaVersion: health.schemaVersion, runs: health.runs.total)
    }

    static func removeDatabaseFiles(at path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension RunStore {
    /// What a store takes on disk: the file and the write-ahead log not yet merged into it.
    public static func bytesOnDisk(ofStoreAt path: String) -> Int {
        StoreArchive.fileSize(path) + StoreArchive.fileSize(path + "-wal")
    }
}

/// Why an export file could not become the store. The store is untouched in every case.
public enum ArchiveError: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case corrupt(String, String)
    case newer(String, found: Int, supported: Int)
    case storeNotEmpty(storePath: String, runs: Int)
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case .missing(let path): "no store export at \(path)"
        case .corrupt(let path, let why): "\(path) is not a usable Canopy store: \(why)"
        case .newer(let path, let found, let supported):
            "\(path) was written by a newer Canopy (schema \(found); this one reads up to \(supported)): "
                + "import it with that version or a later one, or start a new history without it"
        case .storeNotEmpty(let store, let runs):
            "the store \(store) already holds \(runs) run\(runs == 1 ? "" : "s"); pass --replace to replace them with the file's history"
        case .cannotWrite(let path, let why): "cannot write \(path): \(why)"
        }
    }
}

/// What `canopy store check` tells about a store file.
public struct StoreHealth: Sendable, Equatable {
    public struct RunCounts: Sendable, Equatable {
        public var complete = 0
        public var interrupted = 0
        public var running = 0
        public var total: Int { complete + interrupted + running }
    }

    public var path: String
    /// The file and its unmerged write-ahead log.
    public var bytes: Int
    public var schemaVersion: Int
    public var runs = RunCounts()
    public var pages = 0
    public var findings = 0
    public var firstRunStartedAt: Date?
    public var latestRunStartedAt: Date?
    /// What makes the store unusable: integrity errors, a missing table. Empty when it is sound.
    public var problems: [String] = []

    public var needsMigration: Bool { schemaVersion < Schema.currentVersion }
    public var isNewer: Bool { schemaVersion > Schema.currentVersion }

    /// Reads the store without changing it. Throws when the file cannot be opened as SQLite at all.
    public static func check(storeAt path: String) throws -> StoreHealth {
        guard FileManager.default.fileExists(atPath: path) else { throw ArchiveError.missing(path) }
        let database = try SQLiteDatabase(path: path, readOnly: true)
        var health = StoreHealth(
            path: path, bytes: RunStore.bytesOnDisk(ofStoreAt: path), schemaVersion: 0
        )
        let integrity = try database.query("PRAGMA integrity_check") { $0.string(0) }
        if integrity != ["ok"] { health.problems += integrity.prefix(5).map { "integrity check: \($0)" } }
        health.schemaVersion = try Schema.version(of: database)
        guard health.schemaVersion > 0 else {
            health.problems.append("it has no Canopy schema (no schema_migrations table)")
            return health
        }
        guard !health.isNewer else { return health }
        try database.forEachRow("SELECT status, COUNT(*), MIN(started_at), MAX(started_at) FROM runs GROUP BY status") { row in
            switch row.string(0) {
            case "complete": health.runs.complete = row.int(1)
            case "interrupted": health.runs.interrupted = row.int(1)
            default: health.runs.running += row.int(1)
            }
            let first = Date(timeIntervalSince1970: row.double(2)), last = Date(timeIntervalSince1970: row.double(3))
            health.firstRunStartedAt = min(health.firstRunStartedAt ?? first, first)
            health.latestRunStartedAt = max(health.latestRunStartedAt ?? last, last)
        }
        health.pages = try database.queryFirst("SELECT COUNT(*) FROM pages") { $0.int(0) } ?? 0
        health.findings = try database.queryFirst("SELECT COUNT(*) FROM findings") { $0.int(0) } ?? 0
        return health
    }
}

/// Files through zlib's gzip streams, a megabyte at a time, so a store of any size fits.
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func compress(_ source: String, to destination: String) throws {
        let partial = destination + ".partial-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: partial) }
        guard let input = FileHandle(forReadingAtPath: source) else { throw Failure(description: "cannot read \(source)") }
        defer { try? input.close() }
        guard let output = gzopen(partial, "wb6") else { throw Failure(description: "cannot write \(partial)") }
        var closed = false
        defer { if !closed { gzclose(output) } }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            let written = chunk.withUnsafeBytes { gzwrite(output, $0.baseAddress, UInt32($0.count)) }
            guard written == Int32(chunk.count) else { throw Failure(description: "cannot write \(partial)") }
        }
        closed = true
        guard gzclose(output) == Z_OK else { throw Failure(description: "cannot finish \(partial)") }
        guard rename(partial, destination) == 0 else { throw Failure(description: "cannot write \(destination): \(String(cString: strerror(errno)))") }
    }

    static func decompress(_ source: String, to destination: String) throws {
        guard let input = gzopen(source, "rb") else { throw Failure(description: "cannot read \(source)") }
        var closed = false
        defer { if !closed { gzclose(input) } }
        guard FileManager.default.createFile(atPath: destination, contents: nil),
              let output = FileHandle(forWritingAtPath: destination) else { throw Failure(description: "cannot write \(destination)") }
        defer { try? output.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { gzread(input, $0.baseAddress, UInt32($0.count)) }
            if count < 0 {
                var code: Int32 = 0
                throw Failure(description: String(cString: gzerror(input, &code)))
            }
            if count == 0 { break }
            try output.write(contentsOf: buffer[..<Int(count)])
        }
        closed = true
        // gzclose reports a stream cut short or a bad checksum at the end of the data.
        let status = gzclose(input)
        guard status == Z_OK else { throw Failure(description: status == Z_BUF_ERROR ? "unexpected end of file" : "zlib error \(status)") }
    }
}
