import Foundation
import GeoqTestSupport
import Testing

/// `--store` with a PostgreSQL address on the commands that read or write layers, and each way
/// such a store fails told apart by its exit status.
struct PostgresStoreCommandTests {
    func run(_ arguments: [String]) throws -> GeoqBinaryTests.Run { try GeoqBinaryTests.run(arguments) }

    /// An address that is not a store geoq knows is a usage error, and never a file or folder.
    @Test func unknownSchemeIsAUsageErrorThatCreatesNothing() throws {
        let root = TestData.packageRoot
        for arguments in [
            ["which-sector", "42.81", "-1.64", "--store", "ftp://x/y"],
            [
                "import", TestData.url("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json").path, "--layer", "b",
                "--store", "ftp://x/y",
            ],
            ["layers", "--store", "ftp://x/y"],
            ["incidents", "--store", "ftp://x/y"],
        ] {
            let r = try run(arguments)
            #expect(r.status == 64, "\(arguments[0]): \(r.stderr)")
            #expect(r.stderr.contains("ftp"), "\(arguments[0]): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("ftp:").path))
    }
}

@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct PostgresStoreServerCommandTests {
    func run(_ arguments: [String]) throws -> GeoqBinaryTests.Run { try GeoqBinaryTests.run(arguments) }

    func address(password: String? = nil, port: Int? = nil, database: String? = nil) throws -> String {
        let text = try #require(TestPostgres.address)
        var components = try #require(URLComponents(string: text))
        if let password { components.password = password }
        if let port { components.port = port }
        if let database { components.path = "/" + database }
        return try #require(components.string)
    }

    @Test func wrongPasswordExits77NamingTheCredentials() throws {
        let r = try run(["which-sector", "42.81", "-1.64", "--store", try address(password: "wrong")])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("credentials") && !r.stderr.contains("wrong"), "\(r.stderr)")
    }

    @Test func closedPortExits69() throws {
        let socket = try FreePort.next()
        let r = try run(["layers", "--store", try address(port: socket)])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("cannot be reached"), "\(r.stderr)")
    }

    /// A server certificate the address's sslmode and sslrootcert do not accept: 69, naming
    /// both; the same address with the cluster's own CA answers.
    @Test func certificateOfAnotherCAExits69NamingTheCA() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-pg-ca-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = try TestCertificates(in: folder, name: "not the cluster's CA")
        let refused = try run([
            "layers", "--store", try address() + "?sslmode=verify-full&sslrootcert=\(other.ca.path)",
        ])
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "cannot be reached securely: sslmode=verify-full: the server's certificate is not signed by a CA of "
                    + "sslrootcert=\(other.ca.path)"), "\(refused.stderr)")
        let ca = try #require(TestPostgres.certificateAuthority, "GEOQ_TEST_POSTGRES_CA (tools/postgres ca)")
        let accepted = try run(["layers", "--store", try address() + "?sslmode=verify-full&sslrootcert=\(ca)"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func databaseWithoutPostGISExits69NamingPostGIS() throws {
        let r = try run(["which-sector", "42.81", "-1.64", "--store", try address(database: "geoq_plain")])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("PostGIS"), "\(r.stderr)")
    }

    /// import, layers, info, which-sector, nearest and incidents against one PostgreSQL store.
    @Test func commandsWorkAgainstPostgreSQL() throws {
        let store = try #require(TestPostgres.address(schema: "cli"))
        let barrios = TestData.url("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json").path
        let imported = try run(["import", barrios, "--layer", "barrios", "--name-field", "NOMBRE", "--store", store])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported barrios into postgresql://"), "\(imported.stdout)")
        let layers = try run(["layers", "--store", store, "--format", "json"])
        #expect(layers.status == 0 && layers.stdout.contains("\"barrios\""), "\(layers.stderr)")
        let info = try run(["info", "barrios", "--store", store])
        #expect(info.status == 0, "\(info.stderr)")
        let sector = try run(["which-sector", "42.81", "-1.64", "--layer", "barrios", "--store", store])
        let fromFile = try run(["which-sector", "42.81", "-1.64", "--layer", "pamplona-barrios"])
        #expect(sector.status == 0, "\(sector.stderr)")
        // The same unit as the catalog's own copy of the file (read without any store).
        #expect(
            sector.stdout.components(separatedBy: " of ").first == fromFile.stdout.components(separatedBy: " of ").first
        )
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-feed-\(UUID()).xml")
        try Data(
            """
            <?xml version="1.0"?><rss version="2.0" xmlns:georss="http://www.georss.org/georss"><channel><title>t</title>
            <item><title>Calle Mayor</title><guid>x1</guid><description>d</description><georss:point>41.65 -0.88</georss:point></item>
            </channel></rss>
            """.utf8
        ).write(to: feed)
        let refreshed = try run(["incidents", "refresh", "--feed", feed.path, "--source", "t", "--store", store])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        let listed = try run(["incidents", "--store", store, "--format", "json"])
        #expect(listed.status == 0 && listed.stdout.contains("Calle Mayor"), "\(listed.stderr)")
    }

    /// nearest, services, park, ar and track read every catalog layer from a PostgreSQL store
    /// and answer exactly what they answer from a GeoPackage holding the same import.
    @Test func everyReadingCommandAnswersAsFromAGeoPackage() throws {
        let store = try #require(TestPostgres.address(schema: "cli_all"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-pg-\(UUID()).gpkg").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        for target in [store, file] {
            let r = try run(["import", "--all", "--store", target])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-trace-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: trace) }
        // A car driving into Sector 2 and stopping there (a trace of fixes, latitude first).
        var lines = ["time,lat,lon"]
        for i in 0..<12 {
            let minute = String(format: "%02d", i * 2)
            let lat = i < 4 ? 42.800 + Double(i) * 0.0025 : 42.81
            lines.append("2026-11-24T10:\(minute):00Z,\(lat),-1.64")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: trace)
        for command in [
            ["nearest", "39.4699", "-0.3763", "--layer", "fallas", "-n", "5", "--format", "json"],
            ["services", "39.4699", "-0.3763", "--type", "hospital", "-n", "2", "--format", "json"],
            [
                "park", "42.8169", "-1.6440", "--zone", "blue", "--minutes", "45", "--at", "2026-11-24T10:00",
                "--format",
                "json",
            ],
            ["ar", "39.4699", "-0.3763", "--heading", "20", "--format", "json"],
            ["track", trace.path, "--device", "car-1", "--format", "json"],
        ] {
            let fromDatabase = try run(command + ["--store", store])
            let fromFile = try run(command + ["--store", file])
            #expect(fromDatabase.status == fromFile.status, "\(command[0]): \(fromDatabase.stderr)")
            #expect(!fromDatabase.stdout.isEmpty, "\(command[0]): \(fromDatabase.stderr)")
            #expect(Self.withoutStore(fromDatabase.stdout) == Self.withoutStore(fromFile.stdout), "\(command[0])")
        }
    }

    /// An answer without the text naming the store it was read from.
    static func withoutStore(_ text: String) -> String {
        text.replacingOccurrences(of: #""source" ?: ?"[^"]*""#, with: "", options: .regularExpression)
    }
}
