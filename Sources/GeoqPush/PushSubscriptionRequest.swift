import Foundation

/// A browser's subscription as a client hands it in (`POST /v1/push/subscriptions`): the
/// `PushSubscription` JSON the browser made (`endpoint`, `expirationTime`, `keys.p256dh`,
/// `keys.auth`), the device it belongs to, and the topics it wants (`news`, …).
public struct PushSubscriptionRequest: Decodable, Sendable {
    public struct Subscription: Decodable, Sendable {
        public struct Keys: Decodable, Sendable {
            public var p256dh: String?
            public var auth: String?
        }

        public var endpoint: String?
        public var expirationTime: Double?
        public var keys: Keys?
    }

    public var subscription: Subscription?
    public var device: String?
    public var topics: [String]?

    /// At most this many topics per subscription.
    public static let maxTopics = 16

    /// What is wrong with the request, as the field and a message naming it; nil when it can
    /// be stored. The endpoint must be an absolute http or https URL (whether it may be reached
    /// is the operator's destination rules' to say, at every delivery); the keys must be
    /// usable for encryption; each topic is 1–32 letters, digits, `-` or `_`.
    public func problem() -> (field: String, message: String)? {
        guard let subscription else {
            return ("subscription", "subscription is required: the browser's PushSubscription JSON")
        }
        guard let endpoint = subscription.endpoint, let url = URLComponents(string: endpoint),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host,
            !host.isEmpty
        else {
            return ("subscription.endpoint", "subscription.endpoint must be an absolute https URL of a push service")
        }
        guard let keys = subscription.keys, let p256dh = keys.p256dh, let auth = keys.auth else {
            return ("subscription.keys", "subscription.keys must hold p256dh and auth")
        }
        do { _ = try PushKeys(p256dh: p256dh, auth: auth) } catch {
            return (
                error.description.hasPrefix("keys.auth") ? "subscription.keys.auth" : "subscription.keys.p256dh",
                "subscription.\(error.description)"
            )
        }
        if let topics {
            if topics.count > Self.maxTopics {
                return ("topics", "at most \(Self.maxTopics) topics, got \(topics.count)")
            }
            if let bad = topics.first(where: { !Self.isTopic($0) }) {
                return ("topics", "topic \"\(bad)\" must be 1 to 32 letters, digits, - or _")
            }
        }
        return nil
    }

    /// Whether `text` may name a topic.
    public static func isTopic(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}
