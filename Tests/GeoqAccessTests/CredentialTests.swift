import Crypto
import Foundation
import GeoqStore
import GeoqTestSupport
import Testing

@testable import GeoqAccess

/// Keys and device tokens, checked against independent implementations: the key's stored hash
/// against `sha256sum`, a token's signature against Python's `hmac`.
@Suite struct CredentialTests {
    /// Runs `command` (found on the PATH) with `input` on standard input; its standard output.
    static func run(_ command: [String], input: String = "") throws -> String {
        try ExternalTool.run(URL(fileURLWithPath: "/usr/bin/env"), command, input: input).stdout
    }

    @Test func aKeyIsStoredAsTheSHA256OfItsText() throws {
        let (text, record) = APIKey.make(tenant: "parking", scopes: [.track, .events])
        #expect(text.hasPrefix("gqk_\(record.id)_"))
        #expect(text.count == 4 + 12 + 1 + 43)
        #expect(!record.hash.contains(text) && record.hash.count == 64)
        let expected = try Self.run(["sha256sum"], input: text).split(separator: " ").first.map(String.init)
        #expect(record.hash == expected)
        // The ring compares the digest's bytes with those of the stored hex.
        #expect(APIKey.bytes(ofHex: record.hash) == APIKey.digest(text) && APIKey.hex(APIKey.digest(text)) == expected)
        #expect(APIKey.id(of: text) == record.id)
        #expect(record.scopes == ["track", "events"])
        // Two keys never share an id or a secret.
        let other = APIKey.make(tenant: "parking", scopes: [.track])
        #expect(other.record.id != record.id && other.text != text)
    }

    /// A key written into the map page reaches every visitor: only an active key of the store
    /// with the read scope alone may be.
    @Test func onlyAnActiveReadOnlyKeyMayBeGivenToThePage() {
        let reader = APIKey.make(tenant: "web", scopes: [.read])
        let broad = APIKey.make(tenant: "web", scopes: [.read, .events])
        var revoked = APIKey.make(tenant: "web", scopes: [.read])
        revoked.record.revoked = Date(timeIntervalSinceNow: -1)
        let expired = APIKey.make(tenant: "web", scopes: [.read], expires: Date(timeIntervalSinceNow: -1))
        let keys = [reader.record, broad.record, revoked.record, expired.record]
        #expect(APIKey.pageKeyRefusal(reader.text, keys: keys) == nil)
        #expect(APIKey.pageKeyRefusal(broad.text, keys: keys)?.contains("read scope only") == true)
        #expect(APIKey.pageKeyRefusal(revoked.text, keys: keys)?.contains("revoked or expired") == true)
        #expect(APIKey.pageKeyRefusal(expired.text, keys: keys)?.contains("revoked or expired") == true)
        // Not in the store, or a real id with another secret.
        let forged = "gqk_\(reader.record.id)_" + String(repeating: "A", count: 43)
        for text in [APIKey.make(tenant: "web", scopes: [.read]).text, forged, "read-key"] {
            #expect(APIKey.pageKeyRefusal(text, keys: keys)?.contains("not a key of this store") == true, "\(text)")
        }
    }

    @Test(arguments: ["", "Bearer", "gqk_", "gqk_123_abc", "gqk_zzzzzzzzzzzz_x", "sk_live_123"])
    func textsNotShapedAsKeysHaveNoID(_ text: String) {
        #expect(APIKey.id(of: text) == nil)
    }

    @Test func theRingTellsGoodKeysFromRevokedExpiredAndForgedOnes() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let good = APIKey.make(tenant: "a", scopes: [.track], rate: 5, now: now)
        var revoked = APIKey.make(tenant: "a", scopes: [.track], now: now)
        revoked.record.revoked = now
        let expired = APIKey.make(tenant: "a", scopes: [.track], expires: now, now: now)
        let ring = KeyRing(keys: [good.record, revoked.record, expired.record])
        #expect(
            ring.check(good.text, now: now)
                == .principal(Principal(tenant: "a", scopes: [.track], keyID: good.record.id, rate: 5)))
        #expect(ring.check(revoked.text, now: now) == .invalid)
        #expect(ring.check(expired.text, now: now) == .invalid)
        #expect(ring.check(expired.text, now: now.addingTimeInterval(-1)) != .invalid)
        // The right id with another secret.
        let forged = "gqk_\(good.record.id)_" + String(repeating: "A", count: 43)
        #expect(ring.check(forged, now: now) == .invalid)
        #expect(ring.check(APIKey.make(tenant: "a", scopes: [.track]).text, now: now) == .unknownKey)
        #expect(ring.check("hello", now: now) == .invalid)
    }

    @Test func aDeviceTokenIsAnHMACOfItsClaimsAndSpeaksForOneDevice() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let key = APIKey.make(tenant: "parking", scopes: [.track, .hooks], now: now)
        let secret = DeviceToken.newSecret()
        let ring = KeyRing(keys: [key.record], secret: secret)
        let token = DeviceToken.issue(
            tenant: "parking", device: "car-1", keyID: key.record.id, expires: now.addingTimeInterval(600),
            secret: secret)
        #expect(
            ring.check(token, now: now)
                == .principal(
                    Principal(
                        tenant: "parking", scopes: [.track], keyID: key.record.id, device: "car-1",
                        expires: now.addingTimeInterval(600))))
        #expect(ring.check(token, now: now.addingTimeInterval(600)) == .invalid)

        // The signature, by Python's hmac over the text before the dot.
        let dot = try #require(token.lastIndex(of: "."))
        let script = """
            import base64, hashlib, hmac, sys
            secret, body = sys.stdin.read().split("\\n")
            mac = hmac.new(bytes.fromhex(secret), body.encode(), hashlib.sha256).digest()
            print(base64.urlsafe_b64encode(mac).decode().rstrip("="))
            """
        let python = try Self.run(
            ["python3", "-c", script],
            input: secret.map { String(format: "%02x", $0) }.joined() + "\n" + token[..<dot])
        #expect(python.trimmingCharacters(in: .whitespacesAndNewlines) == String(token[token.index(after: dot)...]))

        // A changed claim (another device) breaks the signature; another secret too.
        let claims = try #require(Base64URL.decode(token[token.index(token.startIndex, offsetBy: 4)..<dot]))
        let other = String(decoding: claims, as: UTF8.self).replacingOccurrences(of: "car-1", with: "car-2")
        let tampered = "gqd_" + Base64URL.encode(Data(other.utf8)) + token[dot...]
        #expect(ring.check(tampered, now: now) == .invalid)
        // The signature's text is the one base64url spelling of it: its last character's spare
        // bits set give no second token that verifies.
        let last = token.last!
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let index = alphabet.firstIndex(of: last)!
        let spare = String(token.dropLast()) + String(alphabet[index ^ 1])
        #expect(ring.check(spare, now: now) == .invalid)
        #expect(KeyRing(keys: [key.record]).check(token, now: now) == .invalid)

        // Revoking the issuing key ends its tokens.
        var revoked = key.record
        revoked.revoked = now
        #expect(KeyRing(keys: [revoked], secret: secret).check(token, now: now) == .invalid)
    }

    @Test func bucketsFillAtTheirRateUpToTheirBurst() {
        let limiter = RateLimiter()
        let policy = RateLimiter.Policy(rate: 2, burst: 3)
        let start = ContinuousClock.now
        let first = (0..<4).map { _ in limiter.take("k", policy: policy, now: start) }
        #expect(first.map(\.allowed) == [true, true, true, false])
        #expect(first.map(\.remaining) == [2, 1, 0, 0])
        #expect(first[3].retryAfterSeconds == 1)
        // Half a second later one token is back; another name has its own bucket.
        #expect(limiter.take("k", policy: policy, now: start + .milliseconds(500)).allowed)
        #expect(!limiter.take("k", policy: policy, now: start + .milliseconds(500)).allowed)
        #expect(limiter.take("other", policy: policy, now: start).allowed)
        #expect(policy.policyHeader(name: "key") == "\"key\";q=3;w=2")
        #expect(first[0].header(name: "key") == "\"key\";r=2;t=1")
    }

    @Test func bucketsAreBoundedInNumber() {
        let limiter = RateLimiter(capacity: 100)
        let policy = RateLimiter.Policy(rate: 1, burst: 1)
        let start = ContinuousClock.now
        for n in 0..<1_000 { _ = limiter.take("client-\(n)", policy: policy, now: start + .seconds(n)) }
        #expect(limiter.count <= 100)
    }

    /// A bucket held by a caller and the name's bucket are one: tokens taken through either
    /// are gone for both; once dropped to make room, the held one says so (nil) and the name
    /// gets a single new bucket.
    @Test func aHeldBucketIsTheNamesBucketUntilDropped() {
        let limiter = RateLimiter(capacity: 2)
        let policy = RateLimiter.Policy(rate: 1, burst: 2)
        let start = ContinuousClock.now
        let held = limiter.bucket("k", policy: policy, now: start)
        #expect(held.take(policy: policy, now: start)?.remaining == 1)
        #expect(limiter.take("k", policy: policy, now: start).remaining == 0)
        #expect(held.take(policy: policy, now: start)?.allowed == false)
        // Two more names at capacity 2: none has filled up again, so the oldest half ("k") goes.
        _ = limiter.take("a", policy: policy, now: start + .milliseconds(1))
        _ = limiter.take("b", policy: policy, now: start + .milliseconds(2))
        #expect(held.take(policy: policy, now: start + .milliseconds(3)) == nil)
        let again = limiter.bucket("k", policy: policy, now: start + .milliseconds(3))
        #expect(again !== held)
        #expect(again === limiter.bucket("k", policy: policy, now: start + .milliseconds(4)))
        #expect(again.take(policy: policy, now: start + .milliseconds(4))?.remaining == 1)
    }
}
