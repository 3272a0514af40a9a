import Foundation
import Testing
@testable import CanopyStore
import CanopyHistoryTestSupport

struct SQLiteDatabaseTests {
    @Test func boundValuesRoundTripWithoutBeingReadAsSQL() throws {
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("values.sqlite"))
        try database.execute("CREATE TABLE items (name TEXT, count INTEGER, ratio REAL, note TEXT)")
        let hostile = "x'); DROP TABLE items; --"
        try database.run("INSERT INTO items VALUES (?, ?, ?, ?)", [.text(hostile), .integer(42), .real(0.5), .null])
        try database.run("INSERT INTO items VALUES (?, ?, ?, ?)", ["é ✓ \u{0}end", 7, 1.25, "n"])
        let rows = try database.query("SELECT name, count, ratio, note FROM items ORDER BY count DESC") {
            ($0.string(0), $0.int(1), $0.double(2), $0.optionalString(3))
        }
        #expect(rows.count == 2)
        #expect(rows[0] == (hostile, 42, 0.5, nil))
        #expect(rows[1] == ("é ✓ \u{0}end", 7, 1.25, "n"))
    }

    @Test func wrongParameterCountIsAnError() throws {
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("count.sqlite"))
        try database.execute("CREATE TABLE t (a, b)")
        #expect(throws: SQLiteError.self) { try database.run("INSERT INTO t VALUES (?, ?)", [1]) }
    }

    @Test func aThrowingTransactionRollsBack() throws {
        struct Stop: Error {}
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("tx.sqlite"))
        try database.execute("CREATE TABLE t (a INTEGER)")
        try database.transaction { try database.run("INSERT INTO t VALUES (?)", [1]) }
        #expect(throws: Stop.self) {
            try database.transaction {
                try database.run("INSERT INTO t VALUES (?)", [2])
                throw Stop()
            }
        }
        #expect(try database.query("SELECT a FROM t") { $0.int(0) } == [1])
    }

    @Test func filesUseWriteAheadLogging() throws {
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("wal.sqlite"))
        #expect(try database.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
    }

    @Test func sqlErrorsNameTheStatement() throws {
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("errors.sqlite"))
        let error = #expect(throws: SQLiteError.self) { try database.run("SELECT * FROM missing_table") }
        #expect(error?.description.contains("missing_table") == true)
    }
}
