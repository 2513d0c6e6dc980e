import Foundation
import GeoqTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `geoq serve --tls-cert --tls-key` as a process: files it cannot use are usage errors naming
/// the option, the file and the fault, said before any data is loaded; it answers HTTPS (curl
/// trusting only the test's CA); SIGHUP makes new connections see a renewed certificate
/// (openssl's fingerprints), and a SIGHUP with a broken file keeps the certificate in use.
@Suite(.serialized) struct ServeTLSTests {
    @Test(arguments: [
        (["--tls-cert", "cert.pem"], "--tls-cert needs --tls-key"),
        (["--tls-key", "key.pem"], "--tls-key needs --tls-cert"),
    ])
    func halfAPairIsAUsageError(arguments: [String], message: String) throws {
        let run = try GeoqBinaryTests.run(["serve", "--port", "1"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func filesThatCannotBeUsedAreNamedBeforeServing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-serve-tls-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificates = try TestCertificates(in: folder)
        let first = try certificates.server("first")
        let second = try certificates.server("second")
        let missing = folder.appendingPathComponent("missing.pem").path
        let cases: [([String], String)] = [
            (
                ["--tls-cert", missing, "--tls-key", first.key.path],
                "geoq serve: --tls-cert: the certificate file \(missing) cannot be read: no such file"
            ),
            (
                ["--tls-cert", first.key.path, "--tls-key", first.key.path],
                "geoq serve: --tls-cert: the certificate file \(first.key.path) is not PEM: it holds a PRIVATE KEY block"
            ),
            (
                ["--tls-cert", first.certificate.path, "--tls-key", second.key.path],
                "geoq serve: --tls-key: the private key \(second.key.path) does not match the certificate \(first.certificate.path)"
            ),
        ]
        for (options, message) in cases {
            // A port nothing could listen on: the command must stop at the files, before the data and the socket.
            let started = ContinuousClock.now
            let run = try GeoqBinaryTests.run(["serve", "--port", "1"] + options)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(!run.stderr.contains("layers"), "\(run.stderr)")
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    @Test func servesHTTPSAndSighupRenewsTheCertificate() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-serve-tls-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificates = try TestCertificates(in: folder)
        let first = try certificates.server("first")
        let second = try certificates.server("second")
        let (certificate, key) = (folder.appendingPathComponent("tls.pem"), folder.appendingPathComponent("tls.key"))
        func serve(_ pair: (certificate: URL, key: URL)) throws {
            try Data(contentsOf: pair.certificate).write(to: certificate)
            try Data(contentsOf: pair.key).write(to: key)
        }
        try serve(first)
        let port = try FreePort.next()
        let log = folder.appendingPathComponent("serve.log")
        let process = try ServeKillTests.launch(
            ["serve", "--port", "\(port)", "--tls-cert", certificate.path, "--tls-key", key.path], log: log)
        defer { ServeKillTests.stop(process) }
        let base = "https://127.0.0.1:\(port)"
        let trusting = ["--cacert", certificates.ca.path]
        var ready = false
        for _ in 0..<480 where !ready {
            ready = (try? ServeKillTests.curl(trusting + ["\(base)/readyz"]))?.contains("ready") == true
            if !ready { try await Task.sleep(for: .milliseconds(250)) }
        }
        let said = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        try #require(ready, "geoq serve did not get ready over TLS: \(said())")
        #expect(said().contains("on https://127.0.0.1:\(port)"), "\(said())")

        let text = try ServeKillTests.curl(trusting + ["\(base)/v1/sector?lat=42.81&lon=-1.64"])
        let sector = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect((sector["inside"] as? [[String: Any]])?.first?["id"] as? String == "2")
        // Plain HTTP on the same port: no answer at all.
        #expect(try ServeKillTests.curl(["http://127.0.0.1:\(port)/healthz"]).isEmpty)

        let (firstPrint, secondPrint) = (
            try TestCertificates.fingerprint(of: first.certificate),
            try TestCertificates.fingerprint(of: second.certificate)
        )
        #expect(try TestCertificates.fingerprint(servedOn: port) == firstPrint)
        try serve(second)
        kill(process.processIdentifier, SIGHUP)
        var served = ""
        for _ in 0..<240 where served != secondPrint {
            try await Task.sleep(for: .milliseconds(250))
            served = (try? TestCertificates.fingerprint(servedOn: port)) ?? ""
        }
        #expect(served == secondPrint, "\(said())")
        #expect(said().contains("certificate reloaded"), "\(said())")

        // A broken file at the next SIGHUP: logged, and the renewed certificate stays.
        try Data("-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n".utf8).write(to: certificate)
        kill(process.processIdentifier, SIGHUP)
        var failed = false
        for _ in 0..<240 where !failed {
            try await Task.sleep(for: .milliseconds(250))
            failed = said().contains("certificate reload failed")
        }
        #expect(failed, "\(said())")
        #expect(said().contains(certificate.path))
        #expect(try TestCertificates.fingerprint(servedOn: port) == secondPrint)
        #expect(try ServeKillTests.curl(trusting + ["\(base)/healthz"]).contains("ok"))
    }
}
