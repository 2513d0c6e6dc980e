import Dispatch
import GeoqCore
import GeoqQuery
import GeoqStore
import Synchronization

/// Where a layer's index came from when the library loaded it: read as stored, or built
/// (because there was no usable stored one, or the store keeps none), and why.
public enum IndexOrigin: Hashable, Sendable, CustomStringConvertible {
    /// Read from the store's `geoq_layer_index`, not built.
    case stored
    /// Built in memory because the stored index was missing, stale or damaged (the reason).
    case rebuilt(reason: String)
    /// Built in memory: a catalog source file, or a store that keeps no indexes (a shared store).
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

    /// Indexes of at least this many bytes are read on a second connection while the rows are
    /// read on the first (on the time zones, 129 MB read and checksummed beside 131 MB of rows
    /// decoded); smaller ones, after the rows on the same connection.
    static let sideBySideBytes: Int64 = 16 << 20

    /// Layer `name`'s rows, read by `rows` on `package`'s connection, and what is needed to
    /// finish its index once the rows are checked (``PendingIndex/finish(features:)``). The rows
    /// and the index's record are read in one transaction, so the index found was written for
    /// those very rows, even if another process replaces the layer meanwhile; a large index's
    /// bytes are read meanwhile on a second connection and checked against that record.
    static func rows(
        of name: String, in package: GeoPackage, sideBySideFrom threshold: Int64 = sideBySideBytes,
        read rows: () throws(LayerError) -> [Feature]
    ) throws(LayerError) -> (features: [Feature], index: PendingIndex) {
        var features: Result<[Feature], LayerError> = .success([])
        var bytes: Result<IndexBlob, GeoPackage.UnusableIndex> = .failure(.init(reason: .missing, detail: ""))
        var readBeside = false
        do throws(StoreError) {
            try package.reading {
                let record = storeFailureAsDamage { () throws(StoreError) in
                    try package.layerIndexRecord(of: name, kind: polygonKind, format: PolygonIndex.storageFormat)
                }
                var beside: Alongside<Result<IndexBlob, GeoPackage.UnusableIndex>>?
                if case .success(let found) = record, found.byteCount >= threshold {
                    let path = package.path
                    beside = Alongside {
                        storeFailureAsDamage { () throws(StoreError) in
                            try GeoPackage.open(at: path, create: false, readOnly: true)
                                .layerIndexBytes(of: name, record: found)
                        }
                    }
                }
                features = Result { () throws(LayerError) in try rows() }
                switch (record, beside?.result()) {
                case (.failure(let unusable), _): bytes = .failure(unusable)
                case (.success, .success(let blob)?): (bytes, readBeside) = (.success(blob), true)
                case (.success(let found), _):
                    // Small, or the second connection did not get matching bytes (a write in
                    // between): read them here, in the rows' transaction.
                    bytes = storeFailureAsDamage { () throws(StoreError) in
                        try package.layerIndexBytes(of: name, record: found)
                    }
                }
            }
        } catch {
            throw .storeUnreadable(path: package.path, reason: error.description)
        }
        return (try features.get(), PendingIndex(bytes: bytes, readBesideRows: readBeside))
    }

    /// A stored index read beside its layer's rows, not decoded yet.
    struct PendingIndex {
        let bytes: Result<IndexBlob, GeoPackage.UnusableIndex>
        /// Whether the bytes came from the second connection, read while the rows were.
        let readBesideRows: Bool

        /// The stored index over `features` (the rows read with it, in order) if it is usable,
        /// else one built now, and which of the two it is.
        func finish(features: [Feature]) -> (index: PolygonIndex, origin: IndexOrigin) {
            let read: Result<PolygonIndex, GeoPackage.UnusableIndex>
            switch bytes {
            case .failure(let unusable): read = .failure(unusable)
            case .success(let blob):
                do {
                    read = .success(try PolygonIndex(stored: blob, shapes: Layer.shapes(of: features)))
                } catch {
                    read = .failure(GeoPackage.UnusableIndex(reason: .damaged, detail: error.description))
                }
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
    }

    /// `read`'s outcome, a store error while reading an index counting as a damaged index: the
    /// layer's own rows are read apart, so the layer is still served.
    private static func storeFailureAsDamage<T>(
        _ read: () throws(StoreError) -> Result<T, GeoPackage.UnusableIndex>
    ) -> Result<T, GeoPackage.UnusableIndex> {
        do {
            return try read()
        } catch {
            return .failure(GeoPackage.UnusableIndex(reason: .damaged, detail: error.description))
        }
    }

    /// A layer's index built on a thread of its own, its bytes handed to the store in pieces
    /// as they are made (``PolygonIndex/buildStoredBytes(of:gridFromVertices:deliver:)``): the
    /// writer stores the first while the rest is built.
    final class Building: Sendable {
        /// Pieces made and not yet taken, in order; nil after the last.
        private let made = Mutex<[(@Sendable () -> [UInt8])?]>([])
        private let handed = DispatchSemaphore(value: 0)

        /// Starts building the index of `features`; nil for a layer that keeps none (one that
        /// is not all polygons).
        static func start(_ features: [Feature]) -> Building? {
            guard features.allSatisfy({ $0.geometry.areal != nil }) else { return nil }
            let building = Building()
            _ = Alongside {
                PolygonIndex.buildStoredBytes(of: Layer.shapes(of: features)) { building.hand($0) }
                building.hand(nil)
            }
            return building
        }

        /// The index as the store takes it: each piece's bytes, made once the piece is handed.
        var input: GeoPackage.LayerIndexInput {
            GeoPackage.LayerIndexInput(kind: polygonKind, format: PolygonIndex.storageFormat) { self.next() }
        }

        private func hand(_ piece: (@Sendable () -> [UInt8])?) {
            made.withLock { $0.append(piece) }
            handed.signal()
        }

        private func next() -> [UInt8]? {
            handed.wait()
            let piece = made.withLock { made in
                // The end stays, for any later asking.
                guard let first = made.first, first != nil else { return (@Sendable () -> [UInt8])?.none }
                return made.removeFirst()
            }
            guard let piece else {
                handed.signal()
                return nil
            }
            return piece()
        }
    }
}
