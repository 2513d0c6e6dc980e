import Foundation
import GeoqAccess
import GeoqPush
import GeoqTestSupport
import Testing

/// The VAPID header checked by the reference verifier (`py_vapid`), and its claims as RFC 8292
/// asks: the push service's origin as audience, an expiry within 24 hours, the operator's contact.
@Suite struct VAPIDKeyTests {
    @Test func theReferenceVerifierAcceptsTheHeaderAndReadsItsClaims() throws {
        let key = VAPIDKey()
        let now = Date()
        let endpoints = [
            "https://fcm.googleapis.com/fcm/send/abc:def", "https://updates.push.services.mozilla.com/wpush/v2/x",
            "http://127.0.0.1:8090/push/1",
        ]
        var headers = endpoints.map {
            key.authorization(for: URL(string: $0)!, contact: "mailto:ops@geoq.example", now: now)
        }
        // Signed by another key than the one it names: refused.
        let forged = VAPIDKey().authorization(for: URL(string: endpoints[0])!, contact: nil, now: now)
        headers.append(String(forged[..<forged.range(of: ",k=")!.upperBound]) + key.publicKey)
        let answers = try WebPushReference.verify(headers)
        #expect(answers.count == endpoints.count + 1)
        let origins = [
            "https://fcm.googleapis.com", "https://updates.push.services.mozilla.com", "http://127.0.0.1:8090",
        ]
        for (answer, origin) in zip(answers, origins) {
            #expect(answer.verified)
            #expect(answer.claims["aud"] as? String == origin)
            #expect(answer.claims["sub"] as? String == "mailto:ops@geoq.example")
            let expires = try #require(answer.claims["exp"] as? Double)
            #expect(expires > now.timeIntervalSince1970 && expires <= now.timeIntervalSince1970 + 24 * 3600)
        }
        #expect(answers.last?.verified == false)
    }

    @Test func aStoredKeyIsTheSameKey() throws {
        let key = VAPIDKey()
        let again = try VAPIDKey(raw: key.raw)
        #expect(again.publicKey == key.publicKey)
        #expect(Base64URL.decode(key.publicKey)?.count == 65)
        #expect(throws: PushError.self) { try VAPIDKey(raw: Data(count: 5)) }
    }
}
