import Crypto
import Foundation

/// Short-lived bearer tokens that post the fixes of one device and nothing else, so that a phone
/// never holds its tenant's key (as HERE Tracking's device tokens).
///
/// `gqd_<claims>.<signature>`: the claims (tenant, device, the issuing key's id, expiry in Unix
/// seconds) as JSON in base64url, signed with HMAC-SHA256 under a secret the store keeps for
/// every replica. Nothing is stored per token: any replica checks one, and a token stops working
/// at its expiry or as soon as the key that issued it is revoked.
public enum DeviceToken {
    static let prefix = "gqd_"
    /// The name of the signing secret among the store's settings.
    public static let secretSetting = "device-token-secret"
    /// The longest life a token may be given, and the life it gets unless the caller asks less.
    public static let maximumLifetime: Duration = .seconds(86_400)
    public static let defaultLifetime: Duration = .seconds(3_600)

    public struct Claims: Codable, Sendable, Hashable {
        public var tenant: String
        public var device: String
        public var key: String
        /// Expiry, Unix seconds.
        public var expires: Int64

        enum CodingKeys: String, CodingKey {
            case tenant = "t"
            case device = "d"
            case key = "k"
            case expires = "e"
        }
    }

    /// A new random signing secret (32 bytes), for a store that has none yet.
    public static func newSecret() -> Data { Data(SecureRandom.bytes(32)) }

    /// A token for `device` of `tenant`, issued by key `keyID`, valid until `expires`.
    public static func issue(tenant: String, device: String, keyID: String, expires: Date, secret: Data) -> String {
        let claims = Claims(tenant: tenant, device: device, key: keyID, expires: Int64(expires.timeIntervalSince1970))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = prefix + Base64URL.encode((try? encoder.encode(claims)) ?? Data())
        return body + "." + Base64URL.encode(signature(of: body, secret: secret))
    }

    /// Whether `text` is shaped as a device token (it may still be forged or expired).
    public static func looksLikeOne(_ text: String) -> Bool { text.hasPrefix(prefix) }

    /// The claims of a genuine token not expired at `now`; nil for anything else.
    public static func verify(_ text: String, secret: Data, now: Date) -> Claims? {
        guard text.hasPrefix(prefix), let dot = text.lastIndex(of: ".") else { return nil }
        let body = text[..<dot]
        let signatureText = text[text.index(after: dot)...]
        // One text per signature: base64's spare low bits set otherwise would make another
        // token text that verifies.
        guard let signature = Base64URL.decode(signatureText), Base64URL.encode(signature) == signatureText,
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Data(body.utf8), using: SymmetricKey(data: secret)),
            let claimsData = Base64URL.decode(body.dropFirst(prefix.count)),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData),
            Double(claims.expires) > now.timeIntervalSince1970
        else { return nil }
        return claims
    }

    static func signature(of body: some StringProtocol, secret: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: SymmetricKey(data: secret)))
    }
}
