import Crypto
import Foundation

/// The signature of a delivery, as the Standard Webhooks specification defines it, so that a
/// receiver can tell geoq's POST from anyone's and refuse a replay: `webhook-id` (the same for
/// every try of one delivery), `webhook-timestamp` (Unix seconds, when this try is sent) and
/// `webhook-signature`, `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under each secret
/// (two, space-separated, while a rotated secret's overlap lasts).
public enum WebhookSignature {
    /// The three headers for `body` sent as delivery `id` at `timestamp`, signed with `secrets`
    /// (`whsec_` and base64, as ``Hook/secret`` holds them).
    public static func headers(id: String, timestamp: Date, body: Data, secrets: [String]) -> [(String, String)] {
        let seconds = String(Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        var signed = Data("\(id).\(seconds).".utf8)
        signed.append(body)
        let signatures = secrets.compactMap { secret -> String? in
            guard let key = keyBytes(of: secret) else { return nil }
            let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
            return "v1," + Data(code).base64EncodedString()
        }
        return [
            ("webhook-id", id), ("webhook-timestamp", seconds),
            ("webhook-signature", signatures.joined(separator: " ")),
        ]
    }

    /// The key bytes of a `whsec_` secret (its base64 part decoded).
    static func keyBytes(of secret: String) -> Data? {
        let prefix = "whsec_"
        guard secret.hasPrefix(prefix) else { return nil }
        return Data(base64Encoded: String(secret.dropFirst(prefix.count)))
    }
}
