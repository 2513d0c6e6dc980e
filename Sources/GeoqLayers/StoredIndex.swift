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

    /// Stored indexes from this size on are read on a second connection while the layer's rows
    /// are read on the first (the time zones' 129 MB: about 40 ms of copying and checking
    /// beside about 40 ms of decoding rows); smaller ones after the rows, on the one connection.
    static let readAlongsideFromBytes = 16 << 20

    /// The layer's rows (by `readRows`) and its stored index if that is usable, else one built
    /// now, and which of the two it is. A store error while reading the index counts as a
    /// damaged index: the layer's own rows were read, so the layer is still served.
    ///
    /// - Parameter alongsideFrom: the index size from which it is read on a second connection.
    static func polygonLayer(
        of name: String, in package: GeoPackage, readAlongsideFrom alongsideFrom: Int = readAlongsideFromBytes,
        readRows: () throws(LayerError) -> [Feature]
    ) throws(LayerError) -> (features: [Feature], index: PolygonIndex, origin: IndexOrigin) {
        let blob: Result<IndexBlob, GeoPackage.UnusableIndex>
        let features: [Feature]
        if let size = try? package.layerIndexByteCount(of: name), size >= alongsideFrom {
            let path = package.path
            let alongside = Alongside {
                Self.blob(of: name) { try GeoPackage.open(at: path, create: false, readOnly: true) }
            }
            features = try readRows()
            blob = alongside.result()
        } else {
            features = try readRows()
            blob = Self.blob(of: name) { package }
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

    /// The checked bytes of layer `name`'s stored index in the store `package` opens, or why
    /// they are unusable (a store that cannot be opened or read makes them damaged).
    private static func blob(
        of name: String, in package: () throws -> GeoPackage
    ) -> Result<IndexBlob, GeoPackage.UnusableIndex> {
        do {
            return try package().withLayerIndex(of: name, kind: polygonKind, format: PolygonIndex.storageFormat) {
                $0
            }
        } catch {
            return .failure(GeoPackage.UnusableIndex(reason: .damaged, detail: "\(error)"))
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
