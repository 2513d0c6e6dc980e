import GeoqCore
import Synchronization

/// The features of shared-store layers already read by this process, by (store, layer, version),
/// so that a replica's reload after a change reads again only the layers whose version changed.
///
/// One entry per (store, layer): a newer version replaces the older one, so the cache holds what
/// the last snapshot holds and no more. Safe to use from any thread.
public enum FeatureCache {
    struct Slot: Hashable {
        var store: StoreAddress
        var layer: String
    }

    struct State {
        var entries: [Slot: (version: Int64, features: [Feature])] = [:]
        var reads: [StoreAddress: Int] = [:]
    }

    static let state = Mutex(State())

    /// The features of `layer` at `version`: the cached ones, or what `read` returns (then kept).
    ///
    /// The version must have been read before `read` runs (a layer's rows are then at least that
    /// new): a newer change is announced with a newer version, and read again then.
    public static func features(
        store: any SharedStoreBackend, layer: String, version: Int64, read: () throws -> [Feature]
    ) rethrows -> [Feature] {
        let store = StoreAddress.shared(store)
        let slot = Slot(store: store, layer: layer)
        if let entry = state.withLock({ $0.entries[slot] }), entry.version == version { return entry.features }
        let features = try read()
        state.withLock { state in
            state.reads[store, default: 0] += 1
            if let held = state.entries[slot], held.version > version { return }
            state.entries[slot] = (version, features)
        }
        return features
    }

    /// How many times layers of `store` were read from the database (not from the cache).
    public static func reads(of store: any SharedStoreBackend) -> Int {
        state.withLock { $0.reads[.shared(store)] ?? 0 }
    }
}
