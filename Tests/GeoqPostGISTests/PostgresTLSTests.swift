import Foundation
import GeoqTestSupport
import NIOSSL
import Testing

@testable import GeoqPostGIS

/// libpq's `sslmode` and `sslrootcert` as geoq reads and applies them: parsed from the address
/// or the environment, then tried against stand-in servers (a server with TLS off, one with a
/// certificate of another CA or for another name) for what each mode sends and accepts.
@Suite(.serialized) struct PostgresTLSTests {
    static let base = "postgresql://geoq:pw@127.0.0.1:5432/geoq"

    @Test func preferIsTheDefaultAsInLibpq() throws {
        let address = try PostgresAddress(parsing: Self.base, environment: [:])
        #expect(address.sslMode == .prefer)
        #expect(address.sslRootCertificate == nil)
    }

    @Test(arguments: [
        ("?sslmode=disable", [String: String](), PostgresSSLMode.disable, String?.none),
        ("?sslmode=require", [:], .require, nil),
        ("?sslmode=verify-ca&sslrootcert=/etc/ca.pem", [:], .verifyCA, "/etc/ca.pem"),
        ("?sslmode=verify-full&sslrootcert=/etc/ca.pem", [:], .verifyFull, "/etc/ca.pem"),
        ("", ["PGSSLMODE": "require", "PGSSLROOTCERT": "/etc/env.pem"], .require, "/etc/env.pem"),
        // The address wins over the environment, as in libpq.
        ("?sslmode=disable", ["PGSSLMODE": "verify-full"], .disable, nil),
        // The system's CAs check the host name too unless told otherwise.
        ("?sslrootcert=system", [:], .verifyFull, "system"),
    ])
    func modesAndRootsAreRead(query: String, environment: [String: String], mode: PostgresSSLMode, root: String?)
        throws
    {
        let address = try PostgresAddress(parsing: Self.base + query, environment: environment)
        #expect(address.sslMode == mode)
        #expect(address.sslRootCertificate == root)
        // Neither shows in the address as printed (it names the store, not how it is reached).
        #expect(address.description == "postgresql://geoq:***@127.0.0.1:5432/geoq")
    }

    @Test func aWrongModeFromTheEnvironmentIsNamed() {
        #expect {
            _ = try PostgresAddress(parsing: Self.base, environment: ["PGSSLMODE": "always"])
        } throws: { error in
            "\(error)".contains(
                "PGSSLMODE=always is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
    }

    @Test func aRootCertificateThatCannotBeReadNamesTheOptionAndTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-pg-tls-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notPEM = folder.appendingPathComponent("ca.txt")
        try Data("not a certificate\n".utf8).write(to: notPEM)
        let missing = folder.appendingPathComponent("missing.pem").path
        let cases = [
            (missing, "sslrootcert=\(missing) cannot be read: no such file"),
            (
                notPEM.path,
                "sslrootcert=\(notPEM.path) is not PEM: no -----BEGIN CERTIFICATE----- block (the CA's certificate is expected)"
            ),
            (folder.path, "sslrootcert=\(folder.path) cannot be read: it is a folder"),
        ]
        for (file, reason) in cases {
            let address = try PostgresAddress(
                parsing: Self.base + "?sslmode=verify-ca&sslrootcert=\(file)", environment: [:])
            #expect {
                _ = try PGConnection.connect(to: address)
            } throws: { error in
                guard case .badAddress(let named, let why) = error as? PostGISError else { return false }
                return why == reason && !named.contains("pw")
            }
        }
        // verify-ca without a CA file: libpq's default is looked for, and named.
        let noRoot = try PostgresAddress(parsing: Self.base + "?sslmode=verify-ca", environment: [:])
        #expect {
            _ = try noRoot.tlsSetting(home: folder.path)
        } throws: { error in
            "\(error)".contains(
                "sslrootcert=\(folder.path)/.postgresql/root.crt (libpq's default CA file) cannot be read")
        }
    }

    /// A folder with two CAs, `ours` and `theirs`, and a server certificate of `ours` for `name`.
    struct Authorities {
        let folder: URL
        let ours: TestCertificates
        let theirs: TestCertificates
        let server: (certificate: URL, key: URL)

        init(serverName: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-pg-tls-\(UUID())")
            ours = try TestCertificates(in: folder.appendingPathComponent("ours"))
            theirs = try TestCertificates(in: folder.appendingPathComponent("theirs"), name: "another CA")
            server = try ours.server("server", subjectAltName: serverName)
        }

        func context() throws -> NIOSSLContext {
            try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: [
                        .certificate(try NIOSSLCertificate(file: server.certificate.path, format: .pem))
                    ],
                    privateKey: .privateKey(try NIOSSLPrivateKey(file: server.key.path, format: .pem))))
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// Connects to `server` with `query`, and returns the error and what the server heard.
    static func attempt(_ server: FakePostgres, _ query: String) async throws -> (
        error: PostGISError?, heard: [FakePostgres.Heard]
    ) {
        let address = try PostgresAddress(
            parsing: "postgresql://geoq:pw@127.0.0.1:\(server.port)/geoq\(query)", environment: [:])
        do {
            _ = try PGConnection.connect(to: address, requirePostGIS: false)
            return (nil, server.heard)
        } catch {
            return (error, server.heard)
        }
    }

    @Test func againstAServerWithoutTLS() async throws {
        // disable: no SSLRequest, the startup message in plain text.
        var server = try await FakePostgres.start(offering: .noTLS)
        #expect(try await Self.attempt(server, "?sslmode=disable").heard == [.startup])
        await server.stop()
        // prefer: TLS asked for, refused, and the startup message in plain text after all.
        server = try await FakePostgres.start(offering: .noTLS)
        #expect(try await Self.attempt(server, "?sslmode=prefer").heard == [.sslRequest, .startup])
        await server.stop()
        // require: nothing more is sent, and the error says why.
        server = try await FakePostgres.start(offering: .noTLS)
        let (error, heard) = try await Self.attempt(server, "?sslmode=require")
        await server.stop()
        #expect(heard == [.sslRequest])
        guard case .tlsRefused(let address, let reason) = error else {
            Issue.record("expected tlsRefused, got \(String(describing: error))")
            return
        }
        #expect(reason == "sslmode=require needs TLS and the server does not offer it (its ssl setting is off)")
        #expect(!address.contains("pw") && error?.isTransient == false)
        #expect(error?.code == "store-tls-refused")
    }

    @Test func certificatesAreCheckedAsEachModeSays() async throws {
        // A certificate of our CA made out to another name than the address's 127.0.0.1.
        let authorities = try Authorities(serverName: "DNS:db.example.org")
        defer { authorities.remove() }
        let server = try await FakePostgres.start(offering: .tls(try authorities.context()))
        defer { Task { await server.stop() } }
        let ours = authorities.ours.ca.path
        let theirs = authorities.theirs.ca.path
        var heard = 0
        /// Whether the startup message reached the server over TLS (the certificate was accepted).
        func accepted(_ query: String) async throws -> (Bool, PostGISError?) {
            let (error, log) = try await Self.attempt(server, query)
            defer { heard = log.count }
            let new = Array(log.dropFirst(heard))
            return (new == [.sslRequest, .startup], error)
        }
        // require and prefer without a CA file: encrypted, the certificate not checked.
        #expect(try await accepted("?sslmode=require").0)
        #expect(try await accepted("?sslmode=prefer").0)
        // verify-ca: the chain only.
        #expect(try await accepted("?sslmode=verify-ca&sslrootcert=\(ours)").0)
        // verify-full: the chain and the name.
        let (full, fullError) = try await accepted("?sslmode=verify-full&sslrootcert=\(ours)")
        #expect(!full)
        #expect(
            fullError?.description.hasSuffix(
                "sslmode=verify-full: the server's certificate is not made out to 127.0.0.1") == true,
            "\(String(describing: fullError))")
        // Another CA: refused by verify-ca, and by require too once a CA file is given (libpq's rule).
        for mode in ["verify-ca", "require", "prefer"] {
            let (accepted, error) = try await accepted("?sslmode=\(mode)&sslrootcert=\(theirs)")
            #expect(!accepted, "\(mode)")
            guard case .tlsRefused(_, let reason) = error else {
                Issue.record("\(mode): expected tlsRefused, got \(String(describing: error))")
                continue
            }
            #expect(
                reason == "sslmode=\(mode): the server's certificate is not signed by a CA of sslrootcert=\(theirs)")
        }
    }
}

/// TLS to the test cluster (`tools/postgres start` turns `ssl` on and keeps plain connections
/// allowed), each connection's encryption read from the server's own view, `pg_stat_ssl`.
@Suite(
    .enabled(
        if: TestPostgres.available && TestPostgres.certificateAuthority != nil,
        Comment(rawValue: TestPostgres.missing + ", and GEOQ_TEST_POSTGRES_CA to tools/postgres ca")))
struct PostgresClusterTLSTests {
    let address = TestPostgres.address ?? "postgresql://none@127.0.0.1/none"
    let ca = TestPostgres.certificateAuthority ?? "/nonexistent"

    /// The server's word on this connection: whether it is TLS, and which version.
    func encryption(_ options: String, host: String? = nil) throws -> (ssl: Bool, version: String?) {
        var parsed = try PostgresAddress(parsing: address + (address.contains("?") ? "&" : "?") + options)
        if let host { parsed.host = host }
        let db = try PGConnection.connect(to: parsed, requirePostGIS: false)
        let row = try #require(try db.query("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first)
        let (ssl, version) = try row.decode((Bool, String?).self)
        return (ssl, version)
    }

    @Test func eachModeConnectsAsItSays() throws {
        #expect(try encryption("sslmode=disable") == (false, nil))
        let tls = try encryption("sslmode=require")
        #expect(tls.ssl && ["TLSv1.2", "TLSv1.3"].contains(tls.version ?? ""), "\(tls)")
        // The default, prefer: TLS, since the server offers it.
        #expect(try encryption("schema=geoq").ssl)
        #expect(try encryption("sslmode=verify-ca&sslrootcert=\(ca)").ssl)
        // The certificate is made out to IP 127.0.0.1 and DNS localhost: both pass verify-full.
        #expect(try encryption("sslmode=verify-full&sslrootcert=\(ca)").ssl)
        #expect(try encryption("sslmode=verify-full&sslrootcert=\(ca)", host: "localhost").ssl)
    }

    @Test func aWrongCAIsRefusedNamingTheOptionAndTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-pg-tls-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = try TestCertificates(in: folder, name: "not the cluster's CA")
        #expect {
            _ = try encryption("sslmode=verify-full&sslrootcert=\(other.ca.path)")
        } throws: { error in
            guard case .tlsRefused(let named, let reason) = error as? PostGISError else { return false }
            return reason
                == "sslmode=verify-full: the server's certificate is not signed by a CA of sslrootcert=\(other.ca.path)"
                && !named.contains(":geoq@")
        }
    }
}
