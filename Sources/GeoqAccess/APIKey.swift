import Crypto
import Foundation
import GeoqStore

/// API keys: `gqk_<id>_<secret>`, 12 hex digits of public id and 32 random bytes of secret
/// (base64url). The store keeps the id and the SHA-256 of the whole text, never the text: a key
/// is shown once, when it is made. A fast hash is enough, as the secret has 256 bits (nothing to
/// guess, unlike a password); checks compare hashes in constant time.
public enum APIKey {
    static let prefix = "gqk_"

    /// A new key of `tenant` with `scopes`: the text to give its holder once, and the record to store.
    public static func make(
        tenant: String, scopes: [Scope], expires: Date? = nil, rate: Double? = nil, now: Date = Date()
    ) -> (text: String, record: StoredKey) {
        let id = randomBytes(6).map { String(format: "%02x", $0) }.joined()
        let text = prefix + id + "_" + base64URL(randomBytes(32))
        let record = StoredKey(
            id: id, tenant: tenant, scopes: scopes.map(\.rawValue), hash: hash(text), created: now, expires: expires,
            revoked: nil, rate: rate)
        return (text, record)
    }

    /// The public id in a key's text, or nil when the text is not shaped as a key.
    public static func id(of text: String) -> String? {
        guard text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        guard let mark = rest.firstIndex(of: "_") else { return nil }
        let id = rest[..<mark]
        guard id.count == 12, id.allSatisfy(\.isHexDigit) else { return nil }
        return String(id)
    }

    /// Why `text` may not be written into the map page for every visitor (`--page-key`), or nil
    /// when it may: it must be one of `keys`, active at `now`, and hold the `read` scope and no
    /// other (anyone who opens the page can read it).
    public static func pageKeyRefusal(_ text: String, keys: [StoredKey], now: Date = Date()) -> String? {
        guard let id = id(of: text), let key = keys.first(where: { $0.id == id }),
            constantTimeEqual(hash(text), key.hash)
        else { return "it is not a key of this store (see geoq keys list)" }
        guard key.isActive(at: now) else { return "key \(id) is revoked or expired" }
        guard key.scopes == [Scope.read.rawValue] else {
            return "key \(id) has the scopes \(key.scopes.joined(separator: ", ")); every visitor of the page "
                + "can read it, so it must have the read scope only (geoq keys add --tenant T --scope read)"
        }
        return nil
    }

    /// SHA-256 of the key's text, lowercase hex.
    public static func hash(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether two strings are equal, in a time that depends on their length only.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        // SystemRandomNumberGenerator reads the kernel's CSPRNG (getrandom on Linux).
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func fromBase64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
