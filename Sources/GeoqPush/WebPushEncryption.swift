import Crypto
import Foundation
import GeoqAccess

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// what a browser's push service carries and only that browser can read.
///
/// For each message a new sender key pair and salt: the shared secret of the sender's private
/// key and the browser's public key (`p256dh`), mixed with the browser's authentication secret
/// (`auth`), gives the content key and nonce; the payload goes in one record, ended by the
/// last-record delimiter. The body is the coding's header (salt, record size, the sender's
/// public key as key id) and that record.
public enum WebPushEncryption {
    /// The record size written in the header: one record of at most this many bytes.
    public static let recordSize = 4096
    /// The largest body a push service must accept (RFC 8030 §7.2).
    public static let maxBody = 4096
    /// The header's bytes: salt (16), record size (4), key id length (1), key id (65).
    static let headerSize = 16 + 4 + 1 + 65
    /// The largest payload that fits: the body's limit less the header, the delimiter and the tag.
    public static let maxPayload = maxBody - headerSize - 1 - 16

    /// `payload` encrypted for the browser whose subscription holds `keys`.
    /// - Parameters:
    ///   - senderKey, salt: fresh for every message; given only to reproduce a known body.
    public static func encrypt(
        _ payload: Data, for keys: PushKeys, senderKey: P256.KeyAgreement.PrivateKey = .init(),
        salt: Data = Data(SecureRandom.bytes(16))
    ) throws(PushError) -> Data {
        guard payload.count <= maxPayload else { throw .payloadTooLarge(payload.count, limit: maxPayload) }
        guard salt.count == 16 else { throw .badKey("the salt must be 16 bytes") }
        let receiverPublic = keys.publicKey.x963Representation
        let senderPublic = senderKey.publicKey.x963Representation
        let shared: SharedSecret
        do { shared = try senderKey.sharedSecretFromKeyAgreement(with: keys.publicKey) } catch {
            throw .badKey("no shared secret with the subscription's p256dh key")
        }
        // RFC 8291 §3.4: the input keying material from the ECDH secret and the auth secret.
        let keyInfo = Data("WebPush: info".utf8) + [0] + receiverPublic + senderPublic
        let inputKey = shared.withUnsafeBytes { secret in
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Data(secret)), salt: keys.auth, info: keyInfo, outputByteCount: 32)
        }
        // RFC 8188 §2.2, §2.3: the content key and the nonce from the salt.
        let contentKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKey, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: inputKey, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12
        ).withUnsafeBytes { Data($0) }
        // One record: the payload, then 0x02, the delimiter of the last record (no padding).
        let record = payload + [2]
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(record, using: contentKey, nonce: try AES.GCM.Nonce(data: nonceBytes))
        } catch {
            throw .badKey("AES-GCM refused the content key or nonce")
        }
        var body = Data(capacity: headerSize + record.count + 16)
        body.append(salt)
        body.append(contentsOf: withUnsafeBytes(of: UInt32(recordSize).bigEndian) { Array($0) })
        body.append(UInt8(senderPublic.count))
        body.append(senderPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}

/// The keys a browser's subscription gives for its messages: its P-256 public key (`p256dh`)
/// and its 16-byte authentication secret (`auth`).
public struct PushKeys: Sendable {
    public let publicKey: P256.KeyAgreement.PublicKey
    public let auth: Data

    /// The keys from their base64url text, as `PushSubscription.toJSON()` gives them.
    public init(p256dh: String, auth: String) throws(PushError) {
        guard let point = Base64URL.decode(p256dh), point.count == 65, point.first == 4 else {
            throw .badKey("keys.p256dh must be an uncompressed P-256 point (65 bytes, base64url)")
        }
        do { publicKey = try P256.KeyAgreement.PublicKey(x963Representation: point) } catch {
            throw .badKey("keys.p256dh is not a point on the P-256 curve")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw .badKey("keys.auth must be 16 bytes (base64url)")
        }
        self.auth = secret
    }
}
