import Foundation

/// A browser's push subscription as the store keeps it: where its push service takes messages
/// for it (`endpoint`), the keys its messages are encrypted to (`p256dh`, `auth`, base64url as
/// the browser gave them), the device it belongs to and the topics it asked for.
public struct PushSubscriptionRow: Sendable, Hashable {
    public var id: Int64
    public var tenant: String
    public var device: String
    public var endpoint: String
    public var p256dh: String
    public var auth: String
    public var topics: [String]
    public var created: Date

    public init(
        id: Int64, tenant: String, device: String, endpoint: String, p256dh: String, auth: String, topics: [String],
        created: Date
    ) {
        self.id = id
        self.tenant = tenant
        self.device = device
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.topics = topics
        self.created = created
    }
}

/// A message to put in the push outbox for one subscription: its JSON payload (encrypted only
/// when sent), when it falls due, and the key that makes the same message scheduled twice one.
public struct PushMessageRow: Sendable, Hashable {
    public var subscription: Int64
    /// Unique over the whole outbox: `ticket-<ticket>-<minutes before>-<subscription>`,
    /// `news-<message>-<subscription>`. A message already in the outbox is not put again.
    public var idempotencyKey: String
    public var body: Data
    /// The push service's `Topic` (a later message of the same topic replaces an undelivered one).
    public var topic: String?
    public var due: Date

    public init(subscription: Int64, idempotencyKey: String, body: Data, topic: String?, due: Date) {
        self.subscription = subscription
        self.idempotencyKey = idempotencyKey
        self.body = body
        self.topic = topic
        self.due = due
    }
}

/// A pending push message that is due, with the subscription it goes to.
public struct PushOutboxEntry: Sendable, Hashable {
    public var id: Int64
    public var subscription: PushSubscriptionRow
    public var idempotencyKey: String
    public var body: Data
    public var topic: String?
    public var attempts: Int
    public var due: Date

    public init(
        id: Int64, subscription: PushSubscriptionRow, idempotencyKey: String, body: Data, topic: String?, attempts: Int,
        due: Date
    ) {
        self.id = id
        self.subscription = subscription
        self.idempotencyKey = idempotencyKey
        self.body = body
        self.topic = topic
        self.attempts = attempts
        self.due = due
    }
}

/// What became of one attempt to send a push message.
public enum PushOutcome: Sendable, Hashable {
    case delivered(id: Int64, attempts: Int, at: Date)
    case failed(id: Int64, attempts: Int, nextAttempt: Date, error: String)
    case dead(id: Int64, attempts: Int, error: String)
    /// The push service no longer knows the subscription (404, 410): it ends, and every message
    /// still pending for it is dead with `reason`.
    case subscriptionGone(id: Int64, attempts: Int, subscription: Int64, reason: String, at: Date)
}

/// How many push messages are in each state.
public struct PushOutboxStats: Sendable, Hashable {
    public var pending: Int
    public var delivered: Int
    public var dead: Int
    public var subscriptions: Int

    public init(pending: Int, delivered: Int, dead: Int, subscriptions: Int) {
        self.pending = pending
        self.delivered = delivered
        self.dead = dead
        self.subscriptions = subscriptions
    }
}
