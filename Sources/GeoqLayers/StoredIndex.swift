import GeoqCore
import GeoqQuery
import GeoqStore

/// Where a layer's index came from when the library loaded it: read as stored, or built
/// (because there was no usable stored one, or the store keeps none), and why.
public enum IndexOrigin: Hashable, Sendable, CustomStringConvertible {
    /// Read from the store's `geoq_layer_index`, not built.
    case stored
    /// Built in memory because the stored index was missing, stale or damaged (the reason).
    case rebuilt(reason: String)
    /// Built in memory: a catalog source file, or a store that keeps no indexes (PostgreSQL).
    case built

    public var description: String {
        switch self {
        case .stored: "read from the store"
        case .rebuilt(let reason): "built anew (stored index \(reason))"
        case .built: "built at load (this store keeps no index)"
        }
    }
}

/// Reading and writing a polygon layer's stored index (``GeoPackage/withLayerIndex(of:kind:format:_:)``).
enum StoredIndex {
    static let polygonKind = GeoPackage.IndexKind(rawValue: "polygon")

    /// The stored index of layer `name` over `features` (its rows, in order) if it is usable,
    /// else one built now, and which of the two it is. A store error while reading the index
    /// counts as a damaged index: the layer's own rows were read, so the layer is still served.
    ///
    /// Called after the rows are read: read side by side on two connections, the time zones'
    /// rows and index were ready in 92 ms at best but in up to 360 ms when the two threads'
    /// page faults met, against 121 to 123 ms every time one after the other.
    static func polygonIndex(
        of name: String, features: [Feature], in package: GeoPackage
    ) -> (index: PolygonIndex, origin: IndexOrigin) {
        let shapes = Layer.shapes(of: features)
        let read: Result<PolygonIndex, GeoPackage.UnusableIndex>
        do {
            read = try package.withLayerIndex(of: name, kind: polygonKind, format: PolygonIndex.storageFormat) {
                try PolygonIndex(stored: $0, shapes: shapes)
            }
        } catch {
            read = .failure(GeoPackage.UnusableIndex(reason: .damaged, detail: error.description))
        }
        switch read {
        case .success(let index) where index.count == features.count:
            return (index, .stored)
        case .success(let index):
            return (
                Layer.index(of: features),
                .rebuilt(reason: "stale: it indexes \(index.count) features, the layer has \(features.count)")
            )
        case .failure(let unusable):
            return (Layer.index(of: features), .rebuilt(reason: unusable.description))
        }
    }

    /// The stored form of the index of `features`; nil unless every feature is areal (point
    /// and line layers store none: they are indexed at load).
    static func bytes(of features: [Feature]) -> [UInt8]? {
        guard features.allSatisfy({ $0.geometry.areal != nil }) else { return nil }
        return Layer.index(of: features).storedBytes()
    }

    /// Writes index `bytes` (of ``bytes(of:)``) beside layer `name`, after the layer's rows.
    static func write(_ bytes: [UInt8], of name: String, into package: GeoPackage) throws(StoreError) {
        try package.replaceLayerIndex(of: name, kind: polygonKind, format: PolygonIndex.storageFormat, bytes: bytes)
    }
}
