import Crypto
import Foundation
import GeoqAccess
import GeoqPush
import Testing

/// What a client hands in for a subscription: refused with the field named when it could not
/// carry a message.
@Suite struct PushSubscriptionRequestTests {
    static let p256dh = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
    static let auth = Base64URL.encode(Data(count: 16))

    func request(_ json: String) throws -> PushSubscriptionRequest {
        try JSONDecoder().decode(PushSubscriptionRequest.self, from: Data(json.utf8))
    }

    func subscription(
        endpoint: String = "https://push.example.net/send/1", p256dh: String = p256dh, auth: String = auth
    )
        -> String
    {
        #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#
    }

    @Test func aBrowsersSubscriptionIsTaken() throws {
        let taken = try request(#"{"subscription":\#(subscription()),"device":"car-1","topics":["news","tickets"]}"#)
        #expect(taken.problem() == nil)
    }

    @Test func eachBadFieldIsNamed() throws {
        let cases: [(String, String)] = [
            (#"{"device":"car-1"}"#, "subscription"),
            (#"{"subscription":\#(subscription(endpoint: "ftp://push.example.net/x"))}"#, "subscription.endpoint"),
            (#"{"subscription":\#(subscription(endpoint: "/relative"))}"#, "subscription.endpoint"),
            (#"{"subscription":{"endpoint":"https://push.example.net/1"}}"#, "subscription.keys"),
            (#"{"subscription":\#(subscription(p256dh: "AAAA"))}"#, "subscription.keys.p256dh"),
            (#"{"subscription":\#(subscription(auth: "AAAA"))}"#, "subscription.keys.auth"),
            (#"{"subscription":\#(subscription()),"topics":["news","bad topic"]}"#, "topics"),
            (#"{"subscription":\#(subscription()),"topics":[""]}"#, "topics"),
        ]
        for (json, field) in cases {
            let problem = try request(json).problem()
            #expect(problem?.field == field, "\(json): \(String(describing: problem))")
        }
    }
}
