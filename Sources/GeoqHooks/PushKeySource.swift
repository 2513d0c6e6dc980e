import Foundation
import GeoqPush
import Synchronization

/// The service's VAPID key and contact, read from the store when first needed and kept once
/// found: a service started before `geoq push keys` takes the key at its next request, and a
/// replica whose database cannot be reached at start goes on starting (its push waits with the
/// rest of it) rather than stopping.
public final class PushKeySource: Sendable {
    /// The key and the operator's contact.
    public typealias Found = (key: VAPIDKey, contact: String?)

    private let read: @Sendable () throws -> Found?
    private let found = Mutex<Found?>(nil)

    /// - Parameter read: the store's key and contact, or nil when it has none yet.
    public init(read: @escaping @Sendable () throws -> Found?) { self.read = read }

    /// A key known already (tests, benchmarks).
    public convenience init(key: VAPIDKey, contact: String?) { self.init(read: { (key, contact) }) }

    /// The key, read now unless found before; nil when the store has none.
    public func current() throws -> Found? {
        if let known = found.withLock({ $0 }) { return known }
        guard let read = try read() else { return nil }
        found.withLock { $0 = read }
        return read
    }
}
