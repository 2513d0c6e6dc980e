import GeoqStore

/// What of a store the service's snapshot is made of: each feature layer's name and import (or
/// refresh) time and extent in a GeoPackage, each layer's name and version in a shared store.
///
/// Writes that change none of these — device tracks, events and the webhook outbox, written on
/// every fix — leave the signature as it is, so that they do not make the service reload its
/// layers.
public enum StoreContents {
    /// The signature of the GeoPackage at `path`, or nil when it cannot be read (no file yet, or
    /// not a GeoPackage).
    public static func signature(ofStoreAt path: String) -> String? {
        guard let store = try? GeoPackage.open(at: path, create: false, readOnly: true),
            let layers = try? store.layers()
        else { return nil }
        return layers.map { layer in
            let box = layer.extent.map { "\($0.minX),\($0.minY),\($0.maxX),\($0.maxY)" } ?? "-"
            return "\(layer.name)@\(layer.importedAt)#\(box)"
        }.joined(separator: "\n")
    }

    /// The signature of `store`: a GeoPackage's as ``signature(ofStoreAt:)``, a shared store's
    /// as one `name@version` line per layer. Nil when it cannot be read.
    public static func signature(of store: StoreAddress) -> String? {
        switch store {
        case .geoPackage(let file): return signature(ofStoreAt: file.path)
        case .shared(let backend):
            guard let versions = try? layerVersions(of: backend) else { return nil }
            return signature(versions: versions)
        }
    }

    /// The `name@version` lines of `versions`, sorted by name.
    public static func signature(versions: [String: Int64]) -> String {
        versions.sorted { $0.key < $1.key }.map { "\($0.key)@\($0.value)" }.joined(separator: "\n")
    }

    /// Each layer's version in the shared store `backend` (empty before the first import): a
    /// replica reads it after each change announced and reloads when it differs from its
    /// snapshot's ``LayerLibrary/layerVersions``.
    public static func layerVersions(of backend: any SharedStoreBackend) throws(LayerError) -> [String: Int64] {
        do throws(SharedStoreError) {
            return try backend.connectLayers().versions()
        } catch {
            throw .store(error)
        }
    }
}
