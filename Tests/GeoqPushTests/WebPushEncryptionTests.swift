import Crypto
import Foundation
import GeoqAccess
import GeoqPush
import GeoqTestSupport
import Testing

/// Payloads encrypted for a browser's keys, read back by the reference decrypter (`http_ece`)
/// with the browser's private key and auth secret, as the browser would.
@Suite struct WebPushEncryptionTests {
    /// A browser's subscription keys, made here as a browser makes them.
    struct Browser {
        let privateKey = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        var p256dh: String { Base64URL.encode(privateKey.publicKey.x963Representation) }
        var keys: PushKeys { get throws { try PushKeys(p256dh: p256dh, auth: Base64URL.encode(auth)) } }
    }

    @Test func theReferenceDecrypterReadsWhatWasEncrypted() throws {
        let browser = Browser()
        let payloads = [
            Data(), Data(#"{"title":"Ticket","body":"Quedan 10 min"}"#.utf8),
            Data(String(repeating: "ñ", count: 1000).utf8),
            Data((0..<WebPushEncryption.maxPayload).map { UInt8($0 % 251) }),
        ]
        var sealed: [WebPushReference.Sealed] = []
        for payload in payloads {
            let body = try WebPushEncryption.encrypt(payload, for: try browser.keys)
            #expect(body.count <= WebPushEncryption.maxBody)
            sealed.append(.init(body: body, privateKey: browser.privateKey.rawRepresentation, auth: browser.auth))
        }
        // A browser with other keys cannot read them.
        let stranger = Browser()
        sealed.append(
            .init(body: sealed[1].body, privateKey: stranger.privateKey.rawRepresentation, auth: browser.auth))
        let read = try WebPushReference.decrypt(sealed)
        #expect(read.count == payloads.count + 1)
        for (index, payload) in payloads.enumerated() {
            #expect(index < read.count && read[index] == payload, "payload \(index) of \(payload.count) bytes")
        }
        #expect(read.last == .some(nil))
    }

    @Test func theHeaderCarriesTheSaltRecordSizeAndSenderKey() throws {
        let browser = Browser()
        let sender = P256.KeyAgreement.PrivateKey()
        let salt = Data((0..<16).map { UInt8($0) })
        let body = try WebPushEncryption.encrypt(Data("x".utf8), for: try browser.keys, senderKey: sender, salt: salt)
        // RFC 8188 §2.1: salt (16), rs (uint32, network order), idlen (1), keyid; then the record.
        #expect(body.prefix(16) == salt)
        #expect(Array(body[16..<20]) == [0, 0, 0x10, 0])
        #expect(body[20] == 65)
        #expect(body[21..<86] == sender.publicKey.x963Representation)
        // "x", the delimiter, the 16-byte tag.
        #expect(body.count == 86 + 1 + 1 + 16)
    }

    @Test func eachMessageHasItsOwnSaltAndSenderKey() throws {
        let keys = try Browser().keys
        let first = try WebPushEncryption.encrypt(Data("same".utf8), for: keys)
        let second = try WebPushEncryption.encrypt(Data("same".utf8), for: keys)
        #expect(first.prefix(16) != second.prefix(16))
        #expect(first[21..<86] != second[21..<86])
    }

    @Test func aPayloadTooLargeForAPushServiceIsRefused() throws {
        let keys = try Browser().keys
        #expect(
            throws: PushError.payloadTooLarge(WebPushEncryption.maxPayload + 1, limit: WebPushEncryption.maxPayload)
        ) {
            try WebPushEncryption.encrypt(Data(count: WebPushEncryption.maxPayload + 1), for: keys)
        }
    }

    @Test func keysThatCannotEncryptAreRefusedNamingTheKey() {
        let browser = Browser()
        let auth = Base64URL.encode(browser.auth)
        var notOnCurve = Data(browser.privateKey.publicKey.x963Representation)
        notOnCurve[64] ^= 1
        for (p256dh, authText, field) in [
            (Base64URL.encode(notOnCurve), auth, "keys.p256dh"),
            (Base64URL.encode(browser.privateKey.publicKey.compressedRepresentation), auth, "keys.p256dh"),
            ("not base64 !", auth, "keys.p256dh"),
            (browser.p256dh, Base64URL.encode(Data(count: 8)), "keys.auth"),
        ] {
            do {
                _ = try PushKeys(p256dh: p256dh, auth: authText)
                Issue.record("\(field) accepted")
            } catch {
                #expect(error.description.hasPrefix(field), "\(error)")
            }
        }
    }
}
