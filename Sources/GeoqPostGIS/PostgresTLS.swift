import Foundation
import NIOSSL
import PostgresNIO

/// How a connection to PostgreSQL uses TLS: the setting postgres-nio is given, and the words
/// for a connection attempt that failed because of TLS.
extension PostgresAddress {
    /// postgres-nio's TLS setting for this address, under libpq's rules (``PostgresSSLMode``).
    /// Reads the CA file, if any (blocking: not on an event loop); a file that cannot be used is
    /// a bad address naming the option and the file.
    func tlsSetting(home: String? = ProcessInfo.processInfo.environment["HOME"]) throws(PostGISError)
        -> PostgresConnection.Configuration.TLS
    {
        if sslMode == .disable || sslMode == .allow { return .disable }
        var root = sslRootCertificate
        var note = ""
        if root == nil, let home {
            // libpq's default CA file: always looked for when the certificate must be checked,
            // used in the other modes when it is there.
            let file = home + "/.postgresql/root.crt"
            if sslMode.verifies || FileManager.default.fileExists(atPath: file) {
                root = file
                note = " (libpq's default CA file)"
            }
        }
        guard root != nil || !sslMode.verifies else {
            throw .badAddress(
                address: description,
                reason: "sslmode=\(sslMode.rawValue) needs the CA's certificate: sslrootcert=FILE (PEM) or system")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        switch root {
        case nil:
            configuration.certificateVerification = .none
        case "system":
            configuration.trustRoots = .default
            configuration.certificateVerification = .fullVerification
        case let file?:
            configuration.trustRoots = .certificates(try Self.certificates(in: file, note: note, address: self))
            configuration.certificateVerification = sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .badAddress(address: description, reason: "sslmode=\(sslMode.rawValue): \(error)")
        }
        return sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// The CA certificates of `file`, or a bad address saying what is wrong with it.
    private static func certificates(in file: String, note: String, address: PostgresAddress) throws(PostGISError)
        -> [NIOSSLCertificate]
    {
        func bad(_ why: String) -> PostGISError {
            .badAddress(address: address.description, reason: "sslrootcert=\(file)\(note) \(why)")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
            throw bad("cannot be read: no such file")
        }
        guard !isFolder.boolValue else { throw bad("cannot be read: it is a folder") }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw bad("cannot be read: \(error.localizedDescription)")
        }
        guard String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw bad("is not PEM: no -----BEGIN CERTIFICATE----- block (the CA's certificate is expected)")
        }
        do {
            return try NIOSSLCertificate.fromPEMBytes(Array(bytes))
        } catch {
            throw bad("is not PEM: a CERTIFICATE block does not decode")
        }
    }

    /// What went wrong with TLS in a failed connection attempt, if that is what went wrong: the
    /// server offers no TLS, or its certificate is not the one `sslmode` and `sslrootcert` accept.
    func tlsFailure(_ error: PSQLError) -> String? {
        if error.code == .sslUnsupported {
            return "sslmode=\(sslMode.rawValue) needs TLS and the server does not offer it (its ssl setting is off)"
        }
        let root = sslRootCertificate.map { "sslrootcert=\($0)" } ?? "sslrootcert"
        switch error.underlying {
        case let failure as NIOSSLExtraError where failure == .failedToValidateHostname:
            return "sslmode=verify-full: the server's certificate is not made out to \(host)"
        case NIOSSLError.handshakeFailed(let reason)?:
            let text = "\(reason)"
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return "sslmode=\(sslMode.rawValue): the server's certificate is not signed by a CA of \(root)"
            }
            return "sslmode=\(sslMode.rawValue): the TLS handshake failed (\(text))"
        case let failure as NIOSSLError:
            return "sslmode=\(sslMode.rawValue): TLS failed (\(failure))"
        default:
            return nil
        }
    }
}
