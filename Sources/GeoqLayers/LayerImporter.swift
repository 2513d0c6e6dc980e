import Foundation
import GeoqCore
import GeoqPostGIS
import GeoqStore

/// Imports a data file into the store (GeoPackage or PostgreSQL) as one layer, replacing any layer of that
/// name in a single transaction: a failed import leaves the store as it was.
public struct LayerImporter: Sendable {
    public var invalidPolygons: LayerLoader.InvalidPolygonPolicy
    /// Whether a polygon layer imported into a GeoPackage gets its packed index stored beside it
    /// (so that loading it does not build it); off only to time the import without that step.
    public var writesIndex = true
    /// Threads that check polygons with GEOS at once (see ``LayerLoader/validationThreads``).
    public var validationThreads: Int

    public init(
        invalidPolygons: LayerLoader.InvalidPolygonPolicy = .fail, validationThreads: Int = LayerLoader.processorCount
    ) {
        self.invalidPolygons = invalidPolygons
        self.validationThreads = validationThreads
    }

    /// Reads `spec`'s source at `url`, checks it, and writes it to the GeoPackage `storeFile`
    /// (created if missing). Returns the report of what was read, written, repaired, skipped.
    public func importLayer(_ spec: LayerSpec, from url: URL, into storeFile: URL) throws(LayerError) -> LoadReport {
        try importLayer(spec, from: url, into: .geoPackage(storeFile))
    }

    /// Reads `spec`'s source at `url`, checks it, and writes it to `store`: a GeoPackage (created
    /// if missing) or a PostgreSQL database (its tables made on first use; the layer's new
    /// version announced to replicas). Returns the report of what was read, written, repaired,
    /// skipped. A PostgreSQL failure is ``LayerError/store(_:)``.
    public func importLayer(_ spec: LayerSpec, from url: URL, into store: StoreAddress) throws(LayerError) -> LoadReport
    {
        let loader = LayerLoader(invalidPolygons: invalidPolygons, validationThreads: validationThreads)
        // The index, the longest single step, is built while the polygons are checked and the
        // rows written, whenever the checks cannot change the features.
        var index: Alongside<[UInt8]?>?
        let startIndex: (([Feature]) -> Void)? =
            writesIndex && store.file != nil
            ? { features in
                let written = Self.uniformAreas(features)
                index = Alongside { StoredIndex.bytes(of: written) }
            } : nil
        let prepared = try loader.prepare(spec, from: url, whileChecking: startIndex)
        try write(spec, prepared: prepared, source: url, into: store, index: index)
        return prepared.report
    }

    /// The write step of an import: `prepared` (read from `source`) becomes layer `spec.name`
    /// of `store`, replacing any layer of that name in one transaction.
    package func write(
        _ spec: LayerSpec, prepared: PreparedLayer, source url: URL, into store: StoreAddress,
        index early: Alongside<[UInt8]?>? = nil
    ) throws(LayerError) {
        guard !prepared.features.isEmpty else { throw .emptyLayer(path: url.path) }
        let input = StoredLayerInput(
            name: spec.name, title: spec.title, features: Self.uniformAreas(prepared.features), source: url.path,
            sourceCRS: prepared.sourceCRS, approximate: spec.approximate?.en, notes: prepared.notes)
        do {
            switch store {
            case .geoPackage(let storeFile):
                try FileManager.default.createDirectory(
                    at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                let package = try GeoPackage.open(at: storeFile.path, create: true)
                // The index is built on a second thread while SQLite writes the rows on this one;
                // it is written beside the layer once the layer is written whole.
                let features = input.features
                let index = writesIndex ? early ?? Alongside { StoredIndex.bytes(of: features) } : nil
                try package.replaceLayer(input)
                if let bytes = index?.result() { try StoredIndex.write(bytes, of: input.name, into: package) }
            case .postgreSQL(let address):
                try PostGISLayerStore.connect(to: address).replaceLayer(input)
            }
        } catch let error as PostGISError {
            throw .store(error)
        } catch {
            throw .storeWriteFailed(path: store.description, reason: "\(error)")
        }
    }

    /// A layer that mixes Polygon and MultiPolygon features is stored as all MultiPolygon, so
    /// the GeoPackage declares one geometry type (GDAL and QGIS then know what to expect).
    static func uniformAreas(_ features: [Feature]) -> [Feature] {
        let types = Set(features.map(\.geometry.typeName))
        guard types == ["Polygon", "MultiPolygon"] else { return features }
        return features.map { f in
            guard case .polygon(let p) = f.geometry else { return f }
            var g = f
            g.geometry = .multiPolygon(MultiPolygon([p]))
            return g
        }
    }
}
