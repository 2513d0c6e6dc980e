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
        let socket = try ServeKillTests.freePort()
        let r = try run(["layers", "--store", try address(port: socket)])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("cannot be reached"), "\(r.stderr)")
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
}
