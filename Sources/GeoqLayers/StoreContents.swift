import GeoqStore

/// What of a store the service's snapshot is made of: each feature layer's name, import (or
/// refresh) time and extent.
///
/// Writes that change none of these — device tracks, events and the webhook outbox, written on
/// every fix — leave the signature as it is, so that they do not make the service reload its
/// layers.
public enum StoreContents {
    /// The signature of the store at `path`, or nil when it cannot be read (no file yet, or not
    /// a GeoPackage).
    public static func signature(ofStoreAt path: String) -> String? {
        guard let store = try? GeoPackage.open(at: path, create: false, readOnly: true),
            let layers = try? store.layers()
        else { return nil }
        return layers.map { layer in
            let box = layer.extent.map { "\($0.minX),\($0.minY),\($0.maxX),\($0.maxY)" } ?? "-"
            return "\(layer.name)@\(layer.importedAt)#\(box)"
        }.joined(separator: "\n")
    }
}
