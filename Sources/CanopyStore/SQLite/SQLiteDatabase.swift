import CSQLite
import Foundation

// SQLite's C API, wrapped by hand rather than through GRDB: every statement here is an `SQL`
// value, which can only be made from string literals, so no query is ever built from crawled
// data — a guarantee GRDB's string APIs do not give — and the wrapper is smaller than the
// dependency's build on a two-core CI machine.

/// A failed SQLite call, with SQLite's own message and the statement it came from.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's primary result code (e.g. `SQLITE_BUSY` is 5, `SQLITE_CONSTRAINT` 19).
    public let code: Int32
    public let message: String
    public let sql: String?

    public var description: String {
        let statement = sql.map { " in `\($0.prefix(120))`" } ?? ""
        return "SQLite error \(code): \(message)\(statement)"
    }
}

/// A value bound to a statement parameter or read from a column.
public enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .real(value) }
}

/// One connection to a database file.
///
/// Values only ever reach SQL through bound parameters (`?`), never by building SQL text, so crawled
/// content (URLs, snippets, titles) cannot change a statement. Prepared statements are cached by
/// their SQL text, since a crawl runs the same few inserts hundreds of thousands of times.
///
/// Not thread-safe: one connection per thread of use, or callers serialize access (as `RunStore`
/// does). Several connections, in one process or many, may use the same file: the journal is WAL,
/// so readers see the last committed state while a writer writes, and a busy timeout makes a
/// second writer wait instead of failing at once.
public final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// The same statements, by the address of the literal that wrote them (`SQL.literalAddress`).
    private var statementsByLiteral: [Int: SQLiteStatement] = [:]
    /// The statements of the last composed texts prepared, by where their bytes lie (checked
    /// against the text on a match, as another text may come to lie there): statements composed
    /// once into a `static let` (a column list spliced in) are run for every finding, and hashing
    /// their text each time was a fifth of preparing them.
    private var recentComposed: [(address: Int, statement: SQLiteStatement)] = []
    public let path: String

    /// Opens (and creates, unless `readOnly`) the database at `path`.
    public init(path: String, readOnly: Bool = false, busyTimeout: Duration = .seconds(10)) throws {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(opened)
            throw SQLiteError(code: status, message: "\(message) (\(path))", sql: nil)
        }
        handle = opened
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(opened, Int32(clamping: milliseconds))
        if !readOnly {
            // WAL lets report readers work while a crawl writes; NORMAL sync is durable at each
            // checkpoint and cannot corrupt the file, which is the trade WAL is designed for.
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = NORMAL")
        }
        try execute("PRAGMA foreign_keys = ON")
        // The page cache bounds what a connection holds however large the store grows, so it
        // is one of the few things the soak benchmark sees grow until it is full: 32 MB made a
        // 100,000-page crawl peak 64 MB above a 10,000-page one. It is also what a styled crawl
        // holds and an unstyled one does not (its store is a tenth the size and never fills the
        // cache): at 8 MB the styled java.base crawl peaked at 119-122 MB, at 2 MB (SQLite's
        // default) 111-113 MB, against 100-106 MB unstyled. The price is reads from the OS's
        // cache, a few microseconds each on the store's own thread: 104,000 preads for that crawl
        // instead of 72,000, and no change in its time. At 1 MB (with `StoredOnce.limit` lowered,
        // which alone moved no peak) the styled crawl peaks 2-3 MB lower again, 89.6 MB against
        // 91.9 at the median of eight runs each on a slower host, the unstyled peak where it was;
        // for 114,000 preads and 104,000 writes instead of 80,000 and 79,000, and no change in CPU
        // time those runs could show (21.0 s both).
        try execute("PRAGMA cache_size = -1024")
    }

    deinit {
        statements.values.forEach { $0.finalize() }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that takes no parameters (schema changes, pragmas); several statements may follow one another.
    public func execute(_ sql: SQL) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql.text, nil, nil, &errorMessage)
        guard status == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: status, message: message, sql: sql.text)
        }
    }

    /// The cached prepared statement for `sql`, reset and with `parameters` bound.
    func prepare(_ query: SQL, _ parameters: [SQLiteValue] = []) throws -> SQLiteStatement {
        let statement: SQLiteStatement
        let address = query.literalAddress
        let composedAddress = address == nil ? query.composedAddress : nil
        if let address, let cached = statementsByLiteral[address] {
            statement = cached
        } else if let composedAddress, let recent = recentComposed.first(where: { $0.address == composedAddress && $0.statement.sql == query.text }) {
            statement = recent.statement
        } else {
            // Two literals with the same text share one statement, as do composed texts.
            let sql = query.text
            if let cached = statements[sql] {
                statement = cached
            } else {
                var prepared: OpaquePointer?
                let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
                guard status == SQLITE_OK, let prepared else { throw error(status, sql: sql) }
                statement = SQLiteStatement(pointer: prepared, database: self, sql: sql)
                statements[sql] = statement
            }
            if let address { statementsByLiteral[address] = statement }
            if let composedAddress {
                if recentComposed.count == 8 { recentComposed.removeLast() }
                recentComposed.insert((composedAddress, statement), at: 0)
            }
        }
        try statement.reset()
        try statement.bind(parameters)
        return statement
    }

    /// Runs a statement that returns no rows (insert, update, delete).
    public func run(_ sql: SQL, _ parameters: [SQLiteValue] = []) throws {
        let statement = try prepare(sql, parameters)
        while try statement.step() {}
        try statement.reset()
    }

    /// Runs a query and maps each row.
    public func query<Value>(_ sql: SQL, _ parameters: [SQLiteValue] = [], row map: (SQLiteRow) throws -> Value) throws -> [Value] {
        let statement = try prepare(sql, parameters)
        defer { try? statement.reset() }
        var values: [Value] = []
        while try statement.step() { values.append(try map(SQLiteRow(statement: statement.pointer))) }
        return values
    }

    /// Calls `body` for each row without collecting them, for large result sets. The body must not
    /// run this same SQL text again: it is the one cached statement, still stepping.
    public func forEachRow(_ sql: SQL, _ parameters: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        let statement = try prepare(sql, parameters)
        defer { try? statement.reset() }
        while try statement.step() { try body(SQLiteRow(statement: statement.pointer)) }
    }

    /// The first row of a query, mapped, or nil when there is none.
    public func queryFirst<Value>(_ sql: SQL, _ parameters: [SQLiteValue] = [], row map: (SQLiteRow) throws -> Value) throws -> Value? {
        let statement = try prepare(sql, parameters)
        defer { try? statement.reset() }
        return try statement.step() ? map(SQLiteRow(statement: statement.pointer)) : nil
    }

    /// The row id of the last successful insert on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last insert, update or delete.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Write transactions begin IMMEDIATE, taking the write lock up front: a deferred transaction
    /// that reads first and writes later can fail with SQLITE_BUSY halfway instead of waiting.
    public func transaction<Value>(immediate: Bool = true, _ body: () throws -> Value) throws -> Value {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func error(_ status: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A prepared statement owned by its connection's cache.
final class SQLiteStatement {
    let pointer: OpaquePointer
    private unowned let database: SQLiteDatabase
    let sql: String

    init(pointer: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.pointer = pointer
        self.database = database
        self.sql = sql
    }

    func finalize() { sqlite3_finalize(pointer) }

    func reset() throws {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    func bind(_ parameters: [SQLiteValue]) throws {
        let expected = Int(sqlite3_bind_parameter_count(pointer))
        guard parameters.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(parameters.count) values for \(expected) parameters", sql: sql)
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(pointer, index, number)
            case .real(let number): status = sqlite3_bind_double(pointer, index, number)
            case .text(var text):
                // The string's own bytes, not a NUL-terminated copy made for the call (a store
                // write binds a dozen texts; making and freeing the copies was two fifths of
                // binding). An explicit byte count keeps text after an embedded NUL, and empty
                // text is bound as text, not NULL.
                status = text.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(pointer, index, "", 0, canopy_sqlite_transient())
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(pointer, index, $0, Int32(bytes.count), canopy_sqlite_transient())
                    }
                }
            case .null: status = sqlite3_bind_null(pointer, index)
            }
            guard status == SQLITE_OK else { throw database.error(status, sql: sql) }
        }
    }

    /// Advances to the next row: true when a row is available, false when done.
    func step() throws -> Bool {
        switch sqlite3_step(pointer) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw database.error(status, sql: sql)
        }
    }
}

/// The current row of a query, read by column index (0-based, in SELECT order).
public struct SQLiteRow {
    let statement: OpaquePointer

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    public func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as text ("" for NULL).
    public func string(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// The column's text as its UTF-8 bytes (none for NULL), read in place: for callers that
    /// hash or compare text read row after row, where making a string of each was most of it.
    /// The bytes are good only inside `body`.
    public func withUTF8<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        guard let bytes = sqlite3_column_text(statement, column) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))))
    }
}
