import Foundation
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

    /// The layer's rows (by `readRows`) and its stored index if that is usable, else one built
    /// now, and which of the two it is. A store error while reading the index counts as a
    /// damaged index: the layer's own rows were read, so the layer is still served.
    ///
    /// The rows and the index are read one after the other: read side by side on two
    /// connections, the time zones were ready in 92 ms at best but in up to 360 ms when the two
    /// threads' page faults met, against 121 to 123 ms every time one after the other.
    static func polygonLayer(
        of name: String, in package: GeoPackage, readRows: () throws(LayerError) -> [Feature]
    ) throws(LayerError) -> (features: [Feature], index: PolygonIndex, origin: IndexOrigin) {
        let features = try readRows()
        let blob: Result<IndexBlob, GeoPackage.UnusableIndex>
        do {
            blob = try package.withLayerIndex(of: name, kind: polygonKind, format: PolygonIndex.storageFormat) { $0 }
        } catch {
            blob = .failure(GeoPackage.UnusableIndex(reason: .damaged, detail: "\(error)"))
        }
        let shapes = Layer.shapes(of: features)
        let read = blob.flatMap { blob -> Result<PolygonIndex, GeoPackage.UnusableIndex> in
            do throws(IndexBytesError) {
                return .success(try PolygonIndex(stored: blob, shapes: shapes))
            } catch {
                return .failure(GeoPackage.UnusableIndex(reason: .damaged, detail: error.description))
            }
        }
        switch read {
        case .success(let index) where index.count == features.count:
            return (features, index, .stored)
        case .success(let index):
            return (
                features, Layer.index(of: features),
                .rebuilt(reason: "stale: it indexes \(index.count) features, the layer has \(features.count)")
            )
        case .failure(let unusable):
            return (features, Layer.index(of: features), .rebuilt(reason: unusable.description))
        }
    }

    /// Builds the index of `features` (a stored layer's rows, in order) and writes it beside
    /// layer `name`. Point and line layers get none (they are indexed at load).
    static func write(of name: String, features: [Feature], into package: GeoPackage) throws(StoreError) {
        guard let bytes = bytes(of: features) else { return }
        try write(bytes, of: name, into: package)
    }

    /// The stored form of the index of `features`; nil unless every feature is areal.
    static func bytes(of features: [Feature]) -> [UInt8]? {
        guard features.allSatisfy({ $0.geometry.areal != nil }) else { return nil }
        return Layer.index(of: features).storedBytes()
    }

    /// Writes index `bytes` (of ``bytes(of:)``) beside layer `name`.
    static func write(_ bytes: [UInt8], of name: String, into package: GeoPackage) throws(StoreError) {
        try package.replaceLayerIndex(of: name, kind: polygonKind, format: PolygonIndex.storageFormat, bytes: bytes)
    }
}
