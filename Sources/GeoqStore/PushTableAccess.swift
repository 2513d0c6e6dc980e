import Foundation

/// The push subscriptions and their outbox, as every backend keeps them: a GeoPackage's
/// `TrackingTables`, and the PostgreSQL tables of a shared store, where several replicas send
/// and a message is claimed for a lease so that one of them sends it.
public protocol PushTableAccess {
    func putPushSubscription(
        tenant: String, device: String, endpoint: String, p256dh: String, auth: String, topics: [String], now: Date
    ) throws -> PushSubscriptionRow
    func pushSubscriptions(tenant: String, device: String?, topic: String?) throws -> [PushSubscriptionRow]
    /// How many live subscriptions the tenant has.
    func pushSubscriptionCount(tenant: String) throws -> Int
    func endPushSubscription(tenant: String, device: String?, id: Int64, reason: String, now: Date) throws -> Bool
    @discardableResult func enqueuePush(_ messages: [PushMessageRow]) throws -> Int
    /// The pending messages due at `now`, oldest due first; on a shared store taken for `lease`
    /// (no other replica gets them meanwhile), on a GeoPackage (one sender) as they are.
    func claimPush(now: Date, lease: Duration, limit: Int) throws -> [PushOutboxEntry]
    func nextPushDue() throws -> Date?
    func recordPush(_ outcomes: [PushOutcome]) throws
    func pushStats() throws -> PushOutboxStats
    func storedSetting(_ name: String) throws -> Data?
    func replaceSetting(_ name: String, with value: Data) throws
}

extension PushTableAccess {
    public func pushSubscriptions(tenant: String, device: String? = nil) throws -> [PushSubscriptionRow] {
        try pushSubscriptions(tenant: tenant, device: device, topic: nil)
    }

    public func pushSubscriptions(tenant: String, topic: String) throws -> [PushSubscriptionRow] {
        try pushSubscriptions(tenant: tenant, device: nil, topic: topic)
    }
}

extension TrackingTables: PushTableAccess {}
