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
        // Empty text stays text, and a string Foundation made (not native Swift storage) binds its bytes.
        let bridged = NSString(string: "bridged ✓ \(String(repeating: "x", count: 40))") as String
        try database.run("INSERT INTO items VALUES (?, ?, ?, ?)", [.text(""), .integer(3), .real(2), .text(bridged)])
        let rows = try database.query("SELECT name, count, ratio, note FROM items ORDER BY count DESC") {
            ($0.string(0), $0.int(1), $0.double(2), $0.optionalString(3))
        }
        #expect(rows.count == 3)
        #expect(rows[0] == (hostile, 42, 0.5, nil))
        #expect(rows[1] == ("é ✓ \u{0}end", 7, 1.25, "n"))
        #expect(rows[2] == ("", 3, 2, bridged))
        #expect(try database.queryFirst("SELECT typeof(name) FROM items WHERE count = 3") { $0.string(0) } == "text")
    }

    /// Literals are cached by where they lie, composed texts by their text; a statement is still
    /// one per distinct text, whichever way it was written.
    @Test func aStatementIsPreparedOncePerTextHoweverWritten() throws {
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("cache.sqlite"))
        try database.execute("CREATE TABLE t (a INTEGER)")
        let literal: SQL = "SELECT a FROM t WHERE a = ?"
        let sameTextElsewhere: SQL = "SELECT a FROM t WHERE a = ?"
        let clause: SQL = "a = ?"
        let composed: SQL = "SELECT a FROM t WHERE \(clause)"
        #expect(literal.literalAddress != nil && composed.literalAddress == nil)
        #expect(literal == composed && literal.hashValue == composed.hashValue)
        let first = try database.prepare(literal, [1])
        #expect(try database.prepare(literal, [2]) === first)
        #expect(try database.prepare(sameTextElsewhere, [3]) === first)
        #expect(try database.prepare(composed, [4]) === first)
        #expect(try database.prepare("SELECT a FROM t", []) !== first)
        try database.run("INSERT INTO t VALUES (?)", [5])
        #expect(try database.query(composed, [5]) { $0.int(0) } == [5])
        #expect(try database.query(literal, [6]) { $0.int(0) }.isEmpty)
    }

    /// Composed texts are also found by where their bytes lie, which a text made later may reuse:
    /// each text, made anew or kept, must still get its own statement, more texts than the recent
    /// ones remembered included.
    @Test func composedTextsGetTheirOwnStatementWhereverTheirBytesLie() throws {
        let folder = try TemporaryFolder()
        let database = try SQLiteDatabase(path: folder.path("composed.sqlite"))
        try database.execute("CREATE TABLE t (a INTEGER, b INTEGER)")
        for a in 0..<12 { try database.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(a)), .integer(Int64(a * 10))]) }
        let columns: [SQL] = ["a", "b", "a + b", "a * 2", "b - a", "a - 1", "b + 1", "a + 100", "b * 3", "a * a", "-a", "b / 10"]
        let kept = columns.map { column -> SQL in "SELECT \(column) FROM t WHERE a = ?" }
        func expected(_ index: Int, _ a: Int) -> Int {
            let b = a * 10
            return [a, b, a + b, a * 2, b - a, a - 1, b + 1, a + 100, b * 3, a * a, -a, b / 10][index]
        }
        for round in 0..<3 {
            for (index, column) in columns.enumerated() {
                let a = (index + round) % 12
                // Made anew each time: its bytes may lie where another text's lay.
                let fresh: SQL = "SELECT \(column) FROM t WHERE a = ?"
                #expect(try database.query(fresh, [.integer(Int64(a))]) { $0.int(0) } == [expected(index, a)], "\(fresh.text)")
                #expect(try database.query(kept[index], [.integer(Int64(a))]) { $0.int(0) } == [expected(index, a)], "\(kept[index].text)")
            }
        }
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
