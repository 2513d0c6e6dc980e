import CSQLite
import Testing

/// SQLite links, and has the R*Tree module the GeoPackage store relies on.
@Suite struct SQLiteLinkTests {
    @Test func libraryIsSQLite3() {
        let version = String(cString: sqlite3_libversion())
        #expect(version.hasPrefix("3."))
        #expect(sqlite3_libversion_number() >= 3_008_000)  // R*Tree and its auxiliary columns
    }

    @Test func rtreeModuleIsAvailable() throws {
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        func exec(_ sql: String) -> Int32 { sqlite3_exec(db, sql, nil, nil, nil) }

        #expect(exec("CREATE VIRTUAL TABLE t USING rtree(id, minx, maxx, miny, maxy)") == SQLITE_OK)
        #expect(exec("INSERT INTO t VALUES (1, 0, 10, 0, 10), (2, 20, 30, 20, 30), (3, 5, 25, 5, 25)") == SQLITE_OK)

        // Boxes containing (8, 8): 1 and 3.
        var statement: OpaquePointer?
        #expect(
            sqlite3_prepare_v2(
                db, "SELECT id FROM t WHERE minx <= 8 AND maxx >= 8 AND miny <= 8 AND maxy >= 8 ORDER BY id", -1,
                &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        var ids: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { ids.append(sqlite3_column_int64(statement, 0)) }
        #expect(ids == [1, 3])

        // A module that does not exist is refused, so the success above means something.
        #expect(exec("CREATE VIRTUAL TABLE u USING no_such_module(a)") != SQLITE_OK)
    }
}
