import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqServer

/// The service over TLS, on real sockets of 127.0.0.1, with a throwaway CA and certificates made
/// by openssl, and curl and openssl as the clients: the same answers as over plain HTTP, TLS 1.2
/// at least, nothing for a plain HTTP request, the slow-client deadlines kept over TLS, and a
/// renewed certificate served to new connections while open ones go on.
@Suite(.serialized) struct TLSServiceTests {
    static let sector = "/v1/sector?lat=42.81&lon=-1.64"

    /// A folder of the test's with a CA and two server certificates (`first`, `second`).
    struct Files {
        let folder: URL
        let certificates: TestCertificates
        let first: (certificate: URL, key: URL)
        let second: (certificate: URL, key: URL)

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tls-\(UUID())")
            certificates = try TestCertificates(in: folder)
            first = try certificates.server("first")
            second = try certificates.server("second")
        }

        /// The files the service reads: copies of `first` at first.
        func served() throws -> TLSFiles {
            let files = TLSFiles(
                certificate: folder.appendingPathComponent("served.pem").path,
                key: folder.appendingPathComponent("served.key").path)
            try replace(files, with: first)
            return files
        }

        func replace(_ files: TLSFiles, with pair: (certificate: URL, key: URL)) throws {
            try Data(contentsOf: pair.certificate).write(to: URL(fileURLWithPath: files.certificate))
            try Data(contentsOf: pair.key).write(to: URL(fileURLWithPath: files.key))
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs the service on a free port of 127.0.0.1 (over TLS with `tls`) for `body`, then stops it.
    func withService(
        tls: ServiceTLS?, connections: ConnectionLimits = ConnectionLimits(),
        metrics: RequestMetrics = RequestMetrics(),
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        try await LiveService.run(body) { onListening in
            Routes.application(
                state: ServiceState(try RoutesTests.data()), address: ServerAddress(host: "127.0.0.1", port: 0),
                tls: tls, metrics: metrics, connections: connections, logger: LiveService.quietLogger,
                onListening: onListening)
        }
    }

    /// curl's exit status, the answer's status code and its body.
    static func curl(_ arguments: [String]) throws -> (exit: Int32, status: Int, body: String) {
        let run = try ExternalTool.run(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "20", "-w", "\n%{http_code}"] + arguments,
            standardError: .dropped)
        let text = run.stdout
        let split = text.lastIndex(of: "\n") ?? text.endIndex
        let status = Int(text[split...].dropFirst()) ?? 0
        return (run.status, status, String(text[..<split]))
    }

    @Test func curlOverTLSGetsThePlainServicesAnswer() async throws {
        let files = try Files()
        defer { files.remove() }
        let tls = try ServiceTLS(files: try files.served())
        try await withService(tls: nil) { plainPort in
            try await withService(tls: tls) { port in
                let plain = try Self.curl(["http://127.0.0.1:\(plainPort)\(Self.sector)"])
                let secure = try Self.curl([
                    "--cacert", files.certificates.ca.path, "https://127.0.0.1:\(port)\(Self.sector)",
                ])
                #expect(secure.exit == 0)
                #expect(secure.status == 200)
                #expect(plain.status == 200)
                #expect(secure.body == plain.body)
                let answer = try JSONSerialization.jsonObject(with: Data(secure.body.utf8)) as? [String: Any]
                #expect((answer?["inside"] as? [[String: Any]])?.first?["id"] as? String == "2")
                // By name too (the certificate's DNS name), and a client that does not trust the CA refuses it.
                let byName = try Self.curl([
                    "--cacert", files.certificates.ca.path, "--resolve", "localhost:\(port):127.0.0.1",
                    "https://localhost:\(port)\(Self.sector)",
                ])
                #expect(byName.status == 200 && byName.body == plain.body)
                let untrusted = try Self.curl(["https://127.0.0.1:\(port)\(Self.sector)"])
                #expect(untrusted.exit == 60)  // curl: the peer's certificate cannot be authenticated
            }
        }
    }

    @Test func tls11IsRefusedTLS12And13Accepted() async throws {
        let files = try Files()
        defer { files.remove() }
        let tls = try ServiceTLS(files: try files.served())
        try await withService(tls: tls) { port in
            // SECLEVEL=0 lets this OpenSSL offer TLS 1.1 with the ciphers it needs: the refusal is the server's.
            let old = try TestCertificates.client(port: port, ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"])
            #expect(old.status != 0)
            #expect(old.output.contains("alert protocol version"), "\(old.output)")
            let tls12 = try TestCertificates.client(port: port, ["-tls1_2", "-CAfile", files.certificates.ca.path])
            #expect(tls12.status == 0)
            #expect(tls12.output.contains("Protocol  : TLSv1.2"), "\(tls12.output)")
            #expect(tls12.output.contains("Verify return code: 0 (ok)"))
            let tls13 = try TestCertificates.client(port: port, ["-tls1_3", "-CAfile", files.certificates.ca.path])
            #expect(tls13.status == 0)
            #expect(tls13.output.contains("New, TLSv1.3"), "\(tls13.output)")
            // HTTP/1.1 is the protocol agreed by ALPN (HTTP/2 is not spoken).
            let alpn = try TestCertificates.client(port: port, ["-alpn", "h2,http/1.1"])
            #expect(alpn.output.contains("ALPN protocol: http/1.1"), "\(alpn.output)")
        }
    }

    @Test func plainHTTPToTheTLSPortGetsNoAnswer() async throws {
        let files = try Files()
        defer { files.remove() }
        let tls = try ServiceTLS(files: try files.served())
        try await withService(tls: tls) { port in
            let connection = try RawConnection(port: port)
            connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try await connection.waitForClose(within: 10)
            #expect(connection.closedByServer)
            #expect(!connection.text.contains("HTTP/"), "\(connection.text)")
            let curl = try Self.curl(["http://127.0.0.1:\(port)/healthz"])
            #expect(curl.exit != 0 && curl.status == 0)
        }
    }

    /// A client that completes the handshake and sends nothing is a silent one: closed at the
    /// header timeout, as is one that opens TCP and never starts the handshake, or stops
    /// partway through it; a partial head over TLS is answered 408 over TLS.
    @Test func slowClientDeadlinesHoldOverTLS() async throws {
        let files = try Files()
        defer { files.remove() }
        let tls = try ServiceTLS(files: try files.served())
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .milliseconds(500), idleTimeout: .seconds(30))
        try await withService(tls: tls, connections: limits, metrics: metrics) { port in
            let ca = files.certificates.ca
            let silentOverTLS = try await TLSConnection.open(port: port, trusting: ca)
            let partialOverTLS = try await TLSConnection.open(port: port, trusting: ca)
            try await partialOverTLS.send(SlowClientTests.partialHead)
            let noHandshake = try RawConnection(port: port)
            let halfHandshake = try RawConnection(port: port)
            // A TLS record header announcing a ClientHello of 512 bytes, and none of them.
            halfHandshake.send("\u{16}\u{03}\u{01}\u{02}\u{00}")

            try await silentOverTLS.waitForClose(within: 0.5 + 10)
            try await partialOverTLS.waitForClose(within: 10)
            try await RawConnection.waitForClose(of: [noHandshake, halfHandshake], within: 10)
            #expect(silentOverTLS.closedByServer && partialOverTLS.closedByServer)
            #expect(noHandshake.closedByServer && halfHandshake.closedByServer)
            #expect(silentOverTLS.received.isEmpty)
            #expect(partialOverTLS.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(partialOverTLS.text)")
            #expect(partialOverTLS.text.contains("/problems/request-timeout"))
            // None before the header timeout, counted from the connection's opening.
            let spans = [
                (silentOverTLS.openedAt, silentOverTLS.closedAt), (partialOverTLS.openedAt, partialOverTLS.closedAt),
                (noHandshake.openedAt, noHandshake.closedAt), (halfHandshake.openedAt, halfHandshake.closedAt),
            ]
            for (opened, closed) in spans { #expect(try #require(closed) - opened >= .milliseconds(450)) }
            #expect(metrics.connections.closed(.noRequest) == 3)
            #expect(metrics.connections.closed(.headerTimeout) == 1)
            // Each is forgotten once its socket is closed (the service's end may close a moment after the client's).
            let deadline = ContinuousClock.now + .seconds(3)
            while metrics.connections.openConnections > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(metrics.connections.openConnections == 0)
        }
    }

    @Test func aReloadedCertificateReachesNewConnectionsOnly() async throws {
        let files = try Files()
        defer { files.remove() }
        let served = try files.served()
        let tls = try ServiceTLS(files: served)
        let reloader = ReloadService(
            state: ServiceState(try RoutesTests.data()), watching: nil, certificate: tls, trapSIGHUP: false,
            logger: LiveService.quietLogger
        ) { try RoutesTests.data() }
        let firstPrint = try TestCertificates.fingerprint(of: files.first.certificate)
        let secondPrint = try TestCertificates.fingerprint(of: files.second.certificate)
        #expect(firstPrint != secondPrint)
        try await withService(tls: tls) { port in
            #expect(try TestCertificates.fingerprint(servedOn: port) == firstPrint)
            let open = try await TLSConnection.open(port: port, trusting: files.certificates.ca)

            try files.replace(served, with: files.second)
            #expect(reloader.reloadCertificate(reason: "test"))
            #expect(try TestCertificates.fingerprint(servedOn: port) == secondPrint)
            // The connection opened before goes on with the certificate it was made with.
            try await open.send(SlowClientTests.healthz)
            try await open.waitForBytes(1, within: 5)
            #expect(open.text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(!open.closedByServer)
            await open.close()

            // Files that cannot be used: the reload fails and the certificate in use stays.
            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: served.certificate))
            #expect(!reloader.reloadCertificate(reason: "test"))
            #expect(throws: TLSFileError.self) { try tls.reload() }
            #expect(try TestCertificates.fingerprint(servedOn: port) == secondPrint)
        }
    }

    /// Each file that cannot be used is named with what is wrong with it.
    @Test func unusableFilesAreNamedWithTheirFault() throws {
        let files = try Files()
        defer { files.remove() }
        let (first, second) = (files.first, files.second)
        let missing = files.folder.appendingPathComponent("missing.pem").path
        func error(_ certificate: String, _ key: String) -> TLSFileError? {
            do {
                _ = try ServiceTLS(files: TLSFiles(certificate: certificate, key: key))
                return nil
            } catch { return error }
        }
        #expect(error(missing, first.key.path) == .unreadable(.certificate, path: missing, reason: "no such file"))
        #expect(error(first.certificate.path, missing) == .unreadable(.key, path: missing, reason: "no such file"))
        #expect(error(files.folder.path, first.key.path)?.description.contains("it is a folder") == true)
        // The two files swapped: neither is what its option expects.
        let swapped = error(first.key.path, first.certificate.path)
        #expect(swapped?.file == .certificate)
        #expect(swapped?.description.contains("is not PEM: it holds a PRIVATE KEY block") == true, "\(swapped!)")
        let notKey = error(first.certificate.path, first.certificate.path)
        #expect(notKey?.file == .key && notKey?.description.contains("is not PEM") == true)
        #expect(
            error(first.certificate.path, second.key.path)
                == .keyMismatch(certificate: first.certificate.path, key: second.key.path))

        let der = files.folder.appendingPathComponent("first.der").path
        try TestCertificates.openssl(["x509", "-in", first.certificate.path, "-outform", "der", "-out", der])
        #expect(error(der, first.key.path)?.description.contains("looks like DER") == true)
        let encrypted = files.folder.appendingPathComponent("encrypted.key").path
        try TestCertificates.openssl([
            "pkey", "-in", first.key.path, "-aes256", "-passout", "pass:secret", "-out", encrypted,
        ])
        #expect(error(first.certificate.path, encrypted) == .encryptedKey(path: encrypted))
        let empty = files.folder.appendingPathComponent("empty.pem").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(error(empty, first.key.path)?.description.contains("the file is empty") == true)
        // The good pair is accepted.
        #expect(error(first.certificate.path, first.key.path) == nil)
    }
}
