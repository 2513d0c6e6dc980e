import GeoqCore
import GeoqLayers
import GeoqStore

/// A ``PostGISLayerStore`` as the layers' ``SharedLayerTables``: the same calls, with the
/// database's failures turned into ``SharedStoreError``s on the way out (the store itself keeps
/// throwing ``PostGISError``, which its own tests and callers in this module match on).
struct PostGISSharedLayers: SharedLayerTables {
    let store: PostGISLayerStore

    init(_ store: PostGISLayerStore) { self.store = store }

    func layers() throws(SharedStoreError) -> [(info: LayerInfo, version: Int64)] {
        do throws(PostGISError) { return try store.layers() } catch { throw SharedStoreError(error) }
    }

    func versions() throws(SharedStoreError) -> [String: Int64] {
        do throws(PostGISError) { return try store.versions() } catch { throw SharedStoreError(error) }
    }

    func features(of name: String) throws -> [Feature] {
        try translatingFailures { try store.features(of: name) }
    }

    func replaceLayer(_ layer: StoredLayerInput) throws {
        _ = try translatingFailures { try store.replaceLayer(layer) }
    }

    func replacePartition(
        of name: String, column: String, value: String, source: String, notes: [String],
        with makeFeatures: ([String]) -> [Feature]
    ) throws -> GeoPackage.PartitionReplacement? {
        try translatingFailures {
            try store.replacePartition(
                of: name, column: column, value: value, source: source, notes: notes, with: makeFeatures)
        }
    }

    /// Runs `body`; a ``PostGISError`` leaves as a ``SharedStoreError``, any other error (a
    /// `StoreError` about the layer or its rows) as it is.
    private func translatingFailures<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PostGISError { throw SharedStoreError(error) }
    }
}
