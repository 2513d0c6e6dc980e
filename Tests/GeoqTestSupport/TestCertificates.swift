import Foundation

/// A throwaway certificate authority and the certificates it signs, made by `openssl` in a
/// folder of the test's, and what `openssl` says of a TLS server: an independent client and
/// independent fingerprints for the TLS tests.
public struct TestCertificates: Sendable {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    /// The folder holding the CA and the certificates.
    public let folder: URL
    /// The CA's certificate (PEM), what a client is told to trust.
    public var ca: URL { folder.appendingPathComponent("ca.pem") }
    var caKey: URL { folder.appendingPathComponent("ca.key") }

    /// A new CA (P-256, valid two days) in `folder`, created if missing.
    public init(in folder: URL, name: String = "geoq test CA") throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=\(name)", "-keyout", caKey.path, "-out", ca.path,
        ])
    }

    /// A server certificate and its key signed by the CA, as `name.pem` and `name.key`, for
    /// `subjectAltName` (openssl's syntax).
    public func server(
        _ name: String, subjectAltName: String = "IP:127.0.0.1,DNS:localhost"
    ) throws -> (certificate: URL, key: URL) {
        let certificate = folder.appendingPathComponent("\(name).pem")
        let key = folder.appendingPathComponent("\(name).key")
        let request = folder.appendingPathComponent("\(name).csr")
        let extensions = folder.appendingPathComponent("\(name).ext")
        try Data("subjectAltName=\(subjectAltName)\n".utf8).write(to: extensions)
        try Self.openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=\(name)",
            "-keyout", key.path, "-out", request.path,
        ])
        try Self.openssl([
            "x509", "-req", "-in", request.path, "-CA", ca.path, "-CAkey", caKey.path, "-CAcreateserial", "-days", "2",
            "-extfile", extensions.path, "-out", certificate.path,
        ])
        return (certificate, key)
    }

    /// The SHA-256 fingerprint of a PEM certificate file, as openssl writes it (`AB:CD:...`).
    public static func fingerprint(of certificate: URL) throws -> String {
        try fingerprint(inX509Output: openssl(["x509", "-in", certificate.path, "-noout", "-fingerprint", "-sha256"]))
    }

    /// The SHA-256 fingerprint of the certificate the TLS server on 127.0.0.1:`port` presents to
    /// a new connection (`openssl s_client | openssl x509 -fingerprint`).
    public static func fingerprint(servedOn port: Int) throws -> String {
        let handshake = try client(port: port, [])
        return try fingerprint(
            inX509Output: openssl(["x509", "-noout", "-fingerprint", "-sha256"], input: handshake.output))
    }

    /// What `openssl s_client` says of a connection to 127.0.0.1:`port` with `options`
    /// (`-tls1_2`...): its exit status (0: the handshake succeeded) and its output.
    public static func client(port: Int, _ options: [String]) throws -> (status: Int32, output: String) {
        try run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"] + options,
            input: "")
    }

    private static func fingerprint(inX509Output text: String) throws -> String {
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Fingerprint=") }),
            let value = line.split(separator: "=").last
        else { throw Failed(description: "no fingerprint in openssl's output: \(text)") }
        return String(value)
    }

    /// Runs `openssl` with `arguments`; its output, or an error with it when it fails.
    @discardableResult
    public static func openssl(_ arguments: [String], input: String? = nil) throws -> String {
        let (status, output) = try run("/usr/bin/openssl", arguments, input: input)
        guard status == 0 else {
            throw Failed(description: "openssl \(arguments.joined(separator: " ")) failed: \(output)")
        }
        return output
    }

    /// Runs `tool` with `arguments`, `input` on its standard input (none: the terminal's is not
    /// passed on), and returns its exit status and its standard output and error together.
    static func run(_ tool: String, _ arguments: [String], input: String?) throws -> (status: Int32, output: String) {
        let run = try ExternalTool.run(
            URL(fileURLWithPath: tool), arguments, input: input ?? "", standardError: .merged)
        return (run.status, run.stdout)
    }
}
