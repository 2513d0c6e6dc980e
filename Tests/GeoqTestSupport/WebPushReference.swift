import Foundation

/// The reference libraries of Web Push from PyPI, in the Python `tools/python-env` makes:
/// `http-ece` decrypts a message as a browser does (RFC 8291), `py-vapid` verifies a VAPID
/// header as a push service does (RFC 8292). GEOQ_TEST_PYTHON (tools/test sets it), else the
/// project's .build-venv when it has both.
public enum WebPushReference {
    public static let python: String? = {
        if let given = ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"] { return given }
        let local = FileManager.default.currentDirectoryPath + "/.build-venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: local),
            (try? ExternalTool.run(local, ["-c", "import http_ece, py_vapid"]))?.status == 0
        else { return nil }
        return local
    }()

    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// A message as a browser would decrypt it: its body, the browser's P-256 private key (32
    /// raw bytes) and its auth secret.
    public struct Sealed {
        public var body: Data
        public var privateKey: Data
        public var auth: Data

        public init(body: Data, privateKey: Data, auth: Data) {
            self.body = body
            self.privateKey = privateKey
            self.auth = auth
        }
    }

    /// Each message's plaintext, as `http_ece.decrypt` gives it; nil where it refused.
    public static func decrypt(_ messages: [Sealed]) throws -> [Data?] {
        let script = """
            import json, sys, http_ece
            from cryptography.hazmat.primitives.asymmetric import ec
            for case in json.load(open(sys.argv[1])):
                key = ec.derive_private_key(int.from_bytes(bytes.fromhex(case["private"]), "big"), ec.SECP256R1())
                try:
                    print(http_ece.decrypt(bytes.fromhex(case["body"]), private_key=key,
                                           auth_secret=bytes.fromhex(case["auth"]), version="aes128gcm").hex())
                except Exception as error:
                    print("refused")
            """
        let input = messages.map { ["private": $0.privateKey.hex, "auth": $0.auth.hex, "body": $0.body.hex] }
        return try run(script, input: input).map { $0 == "refused" ? nil : Data(hex: $0) }
    }

    /// For each `Authorization` header: whether `Vapid02.verify` accepts it, and the JWT's claims.
    public static func verify(_ headers: [String]) throws -> [(verified: Bool, claims: [String: Any])] {
        let script = """
            import json, sys
            from py_vapid import Vapid02
            from py_vapid.jwt import decode
            for header in json.load(open(sys.argv[1])):
                try:
                    ok = bool(Vapid02.verify(header))
                    parts = dict(p.split("=", 1) for p in header.split(" ", 1)[1].split(","))
                    print(json.dumps({"verified": ok, "claims": decode(parts["t"], parts["k"])}))
                except Exception as error:
                    print(json.dumps({"verified": False, "claims": {}}))
            """
        return try run(script, input: headers).map { line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            return (object["verified"] as? Bool ?? false, object["claims"] as? [String: Any] ?? [:])
        }
    }

    /// Runs `script` with `input` as a JSON file; its output's lines.
    static func run(_ script: String, input: Any) throws -> [String] {
        guard let python else {
            throw Unavailable(description: "no Python with http_ece and py_vapid (tools/python-env http-ece py-vapid)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-push-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scriptFile = folder.appendingPathComponent("reference.py")
        let inputFile = folder.appendingPathComponent("input.json")
        try Data(script.utf8).write(to: scriptFile)
        try JSONSerialization.data(withJSONObject: input).write(to: inputFile)
        let run = try ExternalTool.run(
            URL(fileURLWithPath: python), [scriptFile.path, inputFile.path], standardError: .kept)
        guard run.status == 0 else { throw Unavailable(description: "the reference failed: \(run.stderr)") }
        // One line per case, an empty one included (an empty plaintext).
        var lines = run.stdout.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

extension Data {
    /// The bytes as lowercase hexadecimal.
    public var hex: String { map { String(format: "%02x", $0) }.joined() }

    /// The bytes of hexadecimal `text` (an odd digit or a non-digit ends it).
    public init(hex text: String) {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
            let byte = UInt8(text[index..<next], radix: 16)
        {
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
