import Foundation
import NIOCore
import NIOSSL

/// The service's certificate chain and private key, as PEM files, and the server TLS context
/// made of them: TLS 1.2 at least, HTTP/1.1 by ALPN.
///
/// Each file is read and checked on its own first (readable, PEM, of the right kind, the key not
/// encrypted), then the two together (the key is the certificate's), so that an error names the
/// file at fault and what is wrong with it rather than a TLS library's code.
public struct TLSFiles: Sendable, Hashable {
    /// The certificate, then the intermediates up to (not including) the root, in PEM.
    public var certificate: String
    /// The certificate's private key in PEM (PKCS #8, or the traditional RSA or EC forms).
    public var key: String

    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }

    /// The oldest protocol served. TLS 1.0 and 1.1 are deprecated (RFC 8996).
    static let minimumVersion = TLSVersion.tlsv12

    /// How long a closing connection waits for the client's close_notify before closing its
    /// socket anyway: a client that never answers holds its descriptor, and its place under the
    /// connection cap, no longer than this after its deadline.
    static let shutdownTimeout = TimeAmount.seconds(1)

    /// The server context of these files. Reads both files (blocking: never on an event loop).
    func makeContext() throws(TLSFileError) -> NIOSSLContext {
        let chain = try certificates()
        let privateKey = try self.privateKey()
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = Self.minimumVersion
        configuration.applicationProtocols = ["http/1.1"]
        configuration.shutdownTimeout = Self.shutdownTimeout
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch NIOSSLError.failedToLoadPrivateKey {
            // The key decoded on its own: BoringSSL refuses it beside the certificate when its
            // public half is not the certificate's.
            throw .keyMismatch(certificate: certificate, key: key)
        } catch {
            throw .refused(certificate: certificate, key: key, reason: "\(error)")
        }
    }

    private func certificates() throws(TLSFileError) -> [NIOSSLCertificate] {
        let bytes = try Self.read(certificate, as: .certificate)
        guard Self.pemLabels(in: bytes).contains("CERTIFICATE") else {
            throw .notPEM(
                .certificate, path: certificate,
                reason: Self.whatItHolds(bytes, expected: "a -----BEGIN CERTIFICATE----- block"))
        }
        do {
            return try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw .notPEM(.certificate, path: certificate, reason: "a CERTIFICATE block does not decode")
        }
    }

    private func privateKey() throws(TLSFileError) -> NIOSSLPrivateKey {
        let bytes = try Self.read(key, as: .key)
        let labels = Self.pemLabels(in: bytes)
        guard let label = labels.first(where: { $0.hasSuffix("PRIVATE KEY") }) else {
            throw .notPEM(
                .key, path: key,
                reason: Self.whatItHolds(bytes, expected: "a -----BEGIN PRIVATE KEY----- block"))
        }
        if label == "ENCRYPTED PRIVATE KEY" || String(decoding: bytes, as: UTF8.self).contains("Proc-Type: 4,ENCRYPTED")
        {
            throw .encryptedKey(path: key)
        }
        do {
            // A passphrase callback that gives none: without one, BoringSSL would prompt on the terminal.
            return try NIOSSLPrivateKey(bytes: bytes, format: .pem) { (_: ([UInt8]) -> Void) in }
        } catch {
            throw .notPEM(.key, path: key, reason: "the \(label) block does not decode")
        }
    }

    private static func read(_ path: String, as file: TLSFileError.File) throws(TLSFileError) -> [UInt8] {
        if let why = FileCheck.unreadable(path) { throw .unreadable(file, path: path, reason: why) }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(file, path: path, reason: error.localizedDescription)
        }
    }

    /// The labels of the PEM blocks in `bytes` (`CERTIFICATE`, `PRIVATE KEY`, `EC PRIVATE KEY`...).
    static func pemLabels(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var labels: [String] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN ") {
            guard let end = rest.range(of: "-----", range: begin.upperBound..<rest.endIndex) else { break }
            labels.append(String(rest[begin.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return labels
    }

    /// What a file that is not the PEM expected holds instead, in a few words.
    private static func whatItHolds(_ bytes: [UInt8], expected: String) -> String {
        if bytes.isEmpty { return "the file is empty; expected \(expected)" }
        let labels = pemLabels(in: bytes)
        if !labels.isEmpty {
            return "it holds \(labels.map { "a \($0)" }.joined(separator: ", ")) block, not \(expected)"
        }
        // DER starts with an ASN.1 SEQUENCE.
        if bytes.first == 0x30 {
            return "it looks like DER (binary); convert it with openssl x509 -inform der (or openssl pkey -inform der)"
        }
        return "expected \(expected)"
    }
}
