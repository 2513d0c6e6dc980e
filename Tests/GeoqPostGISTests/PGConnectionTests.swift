import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqPostGIS

/// Connecting to the private test cluster, and each way a connection fails named for what it is.
@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct PGConnectionTests {
    let address = try! PostgresAddress(parsing: TestPostgres.address ?? "postgresql://none@127.0.0.1/none")

    @Test func connectsAndFindsPostGIS() throws {
        let db = try PGConnection.connect(to: address)
        let version = try db.ensurePostGIS()
        #expect(version.hasPrefix("3."))
        let rows = try db.query("SELECT ST_AsText(ST_SetSRID(ST_MakePoint(-1.64, 42.81), 4326))")
        #expect(try rows.first?.decode(String.self) == "POINT(-1.64 42.81)")
    }

    @Test func wrongPasswordIsRefusedCredentials() {
        var wrong = address
        wrong.password = "not-the-password"
        #expect {
            _ = try PGConnection.connect(to: wrong)
        } throws: { error in
            guard case .credentialsRefused(let named, _) = error as? PostGISError else { return false }
            return named.contains("***") && !named.contains("not-the-password")
        }
    }

    @Test func closedPortIsUnreachable() throws {
        var nowhere = address
        nowhere.port = try FreePort.next()
        #expect {
            _ = try PGConnection.connect(to: nowhere)
        } throws: { error in
            guard case .unreachable = error as? PostGISError else { return false }
            return (error as? PostGISError)?.isTransient == true
        }
    }

    @Test func unknownDatabaseIsNamed() {
        var missing = address
        missing.database = "geoq_no_such_database"
        #expect(throws: PostGISError.noDatabase(address: missing.description)) {
            _ = try PGConnection.connect(to: missing)
        }
    }

    @Test func databaseWithoutPostGISIsNamed() throws {
        let plain = try PostgresAddress(parsing: try #require(TestPostgres.addressWithoutPostGIS))
        #expect {
            _ = try PGConnection.connect(to: plain)
        } throws: { error in
            guard case .noPostGIS(_, let reason) = error as? PostGISError else { return false }
            return reason.contains("CREATE EXTENSION postgis")
        }
        // Without the check the same database is usable (for the tables that need no geometry).
        let db = try PGConnection.connect(to: plain, requirePostGIS: false)
        #expect(try db.query("SELECT 1").count == 1)
    }

    @Test func aFailedStatementNamesItsSQLState() throws {
        let db = try PGConnection.connect(to: address)
        #expect {
            try db.query("SELECT * FROM geoq_no_such_table")
        } throws: { error in
            guard case .queryFailed(_, let state, let message) = error as? PostGISError else { return false }
            return state == "42P01" && message.contains("geoq_no_such_table")
        }
        // The connection stays usable after a refused statement.
        #expect(try db.query("SELECT 2").count == 1)
    }

    @Test func transactionRollsBackOnThrow() throws {
        let db = try PGConnection.connect(to: address)
        try db.query("CREATE TEMP TABLE t (x int)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.query("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        try db.transaction { try db.query("INSERT INTO t VALUES (2)") }
        let rows = try db.query("SELECT x FROM t ORDER BY x")
        #expect(try rows.map { try $0.decode(Int.self) } == [2])
    }
}

/// Store addresses: what is an address, what parses, and that a password never shows.
@Suite struct PostgresAddressTests {
    @Test func parsesTheLibpqForm() throws {
        let a = try PostgresAddress(
            parsing: "postgresql://ana:s%40cret@db.example:6543/city?schema=pamplona", environment: [:])
        #expect(a.user == "ana")
        #expect(a.password == "s@cret")
        #expect(a.host == "db.example")
        #expect(a.port == 6543)
        #expect(a.database == "city")
        #expect(a.schema == "pamplona")
        #expect(a.description == "postgresql://ana:***@db.example:6543/city?schema=pamplona")
    }

    @Test func defaultsAndEnvironment() throws {
        let a = try PostgresAddress(parsing: "postgres://db/city", environment: ["PGUSER": "geo", "PGPASSWORD": "pw"])
        #expect(a.user == "geo")
        #expect(a.password == "pw")
        #expect(a.port == 5432)
        #expect(a.schema == "geoq")
    }

    @Test(arguments: [
        ("postgresql://u@h", "no database"),
        ("postgresql:///db", "no host"),
        ("mysql://u@h/db", "not a store geoq knows"),
        ("postgresql://u@h/db?sslmode=strict", "sslmode=strict is not one of disable, allow, prefer"),
        ("postgresql://u@h/db?sslrootcert=", "sslrootcert needs a file"),
        ("postgresql://u@h/db?sslmode=require&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full"),
        ("postgresql://u@h/db?schema=Bad-Name", "plain identifier"),
        ("postgresql://u@h:70000/db", "out of range"),
        ("postgresql://u@h/db?colour=red", "unknown option 'colour'"),
    ])
    func refusesWithTheReason(text: String, reason: String) {
        #expect {
            _ = try PostgresAddress(parsing: text, environment: [:])
        } throws: { error in
            guard case .badAddress(_, let why) = error as? PostGISError else { return false }
            return why.contains(reason)
        }
    }

    @Test func badAddressHidesThePassword() {
        #expect {
            _ = try PostgresAddress(parsing: "postgresql://u:hunter2@h", environment: [:])
        } throws: { error in
            "\(error)".contains("u:***@h") && !"\(error)".contains("hunter2")
        }
    }
}
