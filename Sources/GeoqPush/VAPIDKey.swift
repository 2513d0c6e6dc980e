import Crypto
import Foundation
import GeoqAccess

/// The service's application server key for Voluntary Application Server Identification
/// (RFC 8292): browsers subscribe with its public key (`applicationServerKey`), and push
/// services take a message only with a JWT signed by its private key (ES256) for their origin.
/// One key per store (`geoq push keys`), kept in the store's settings, so that every
/// subscription made against it stays valid across restarts and replicas.
public struct VAPIDKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    /// A new random key.
    public init() { privateKey = P256.Signing.PrivateKey() }

    /// The key from its 32 raw bytes (as stored).
    public init(raw: Data) throws(PushError) {
        do { privateKey = try P256.Signing.PrivateKey(rawRepresentation: raw) } catch {
            throw .badKey("the stored VAPID key is not a P-256 private key")
        }
    }

    /// The private key's 32 raw bytes, to store.
    public var raw: Data { privateKey.rawRepresentation }

    /// The public key as browsers take it for `applicationServerKey`: the uncompressed point
    /// (65 bytes) in base64url.
    public var publicKey: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// How long a token is valid: RFC 8292 §2 allows at most 24 hours.
    public static let tokenLifetime: TimeInterval = 12 * 3600

    /// The `Authorization` header's value for a message to `endpoint`:
    /// `vapid t=<JWT for the endpoint's origin>,k=<public key>`.
    /// - Parameter contact: the operator's `mailto:` or `https:` address (the JWT's `sub`),
    ///   which push services use to reach whoever runs the application server.
    public func authorization(for endpoint: URL, contact: String?, now: Date = Date()) -> String {
        "vapid t=\(token(audience: Self.origin(of: endpoint), contact: contact, now: now)),k=\(publicKey)"
    }

    /// A JWT (ES256) whose audience is `audience`, expiring ``tokenLifetime`` after `now`.
    func token(audience: String, contact: String?, now: Date) -> String {
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        var claims: [String: String] = ["aud": audience]
        if let contact { claims["sub"] = contact }
        let expires = Int(now.timeIntervalSince1970 + Self.tokenLifetime)
        // Written by hand: `exp` is a number among strings.
        let fields = claims.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(Self.quoted($0.value))" }
        let payload = Base64URL.encode(
            Data(("{" + (fields + ["\"exp\":\(expires)"]).joined(separator: ",") + "}").utf8))
        let signingInput = header + "." + payload
        let signature = (try? privateKey.signature(for: Data(signingInput.utf8)))?.rawRepresentation ?? Data()
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The scheme, host and port (when not the scheme's default) of `url`: a JWT's audience.
    public static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "https"
        var origin = scheme + "://" + (url.host ?? "")
        if let port = url.port, port != (scheme == "http" ? 80 : 443) { origin += ":\(port)" }
        return origin
    }

    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
