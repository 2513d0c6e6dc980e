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
        let id = hex(SecureRandom.bytes(6))
        let text = prefix + id + "_" + Base64URL.encode(SecureRandom.bytes(32))
        let record = StoredKey(
            id: id, tenant: tenant, scopes: scopes.map(\.rawValue), hash: hash(text), created: now, expires: expires,
            revoked: nil, rate: rate)
        return (text, record)
    }

    /// The public id in a key's text, or nil when the text is not shaped as a key.
    public static func id(of text: String) -> String? {
        // Read as bytes: this runs for every keyed request.
        let bytes = Substring(text).utf8
        guard bytes.starts(with: prefix.utf8) else { return nil }
        let rest = bytes.dropFirst(prefix.utf8.count)
        guard let mark = rest.firstIndex(of: UInt8(ascii: "_")) else { return nil }
        let id = rest[..<mark]
        guard id.count == 12, id.allSatisfy(isHexDigit) else { return nil }
        return String(Substring(id))
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
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

    /// SHA-256 of the key's text, lowercase hex (as the store keeps it).
    public static func hash(_ text: String) -> String { hex(digest(text)) }

    /// SHA-256 of the key's text.
    static func digest(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }

    /// The bytes of lowercase or uppercase `hex` (an odd last digit, or a non-digit, reads as 0).
    static func bytes(ofHex hex: String) -> [UInt8] {
        let value: (UInt8) -> UInt8 = { digit in
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: 0
            }
        }
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    /// `bytes` as lowercase hex. Every keyed request hashes its key: `String(format:)` a byte
    /// cost more than the rest of the answer.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether two strings are equal, in a time that depends on their length only.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool { constantTimeEqual(Array(a.utf8), Array(b.utf8)) }

    /// Whether two byte strings are equal, in a time that depends on their length only.
    static func constantTimeEqual(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
