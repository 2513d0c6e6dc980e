import Foundation

/// The private PostgreSQL/PostGIS cluster the PostGIS tests use: `tools/test` starts it
/// (`tools/postgres start`) and names it in `GEOQ_TEST_POSTGRES`. Without it those tests report
/// themselves skipped; under CI (`CI` set) its absence fails ``requiredInCI``.
public enum TestPostgres {
    /// The store address of the test database with PostGIS (role geoq, database geoq).
    public static var address: String? {
        ProcessInfo.processInfo.environment["GEOQ_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var available: Bool { address != nil }

    /// The CA certificate (PEM) that signed the cluster's server certificate
    /// (`tools/postgres ca`, named in `GEOQ_TEST_POSTGRES_CA`), for the TLS tests.
    public static var certificateAuthority: String? {
        ProcessInfo.processInfo.environment["GEOQ_TEST_POSTGRES_CA"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static let missing =
        "no test PostgreSQL: run tools/postgres start and set GEOQ_TEST_POSTGRES to the address it prints"

    /// The rows `sql` gives through the database's own client (`psql -At`, stopping at the
    /// first error), one line each; `server` is a connection URL without geoq's `schema`
    /// parameter. Nil when psql fails.
    public static func psql(_ server: String, _ sql: String) throws -> [String]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", server, "-v", "ON_ERROR_STOP=1", "-Atc", sql]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Whether a run must have the cluster (CI runs every test).
    public static var requiredInCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// `address` with its own schema, so that tests running at once do not see each other's
    /// tables. The schema name is `prefix` plus a random suffix.
    public static func address(schema prefix: String) -> String? {
        guard let address else { return nil }
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let separator = address.contains("?") ? "&" : "?"
        return "\(address)\(separator)schema=\(prefix)_\(suffix)"
    }

    /// The same server's database `geoq_plain`, which lacks PostGIS.
    public static var addressWithoutPostGIS: String? {
        guard let address, var components = URLComponents(string: address) else { return nil }
        components.path = "/geoq_plain"
        return components.string
    }
}
