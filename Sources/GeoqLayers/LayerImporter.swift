import Foundation
import GeoqCore
import GeoqStore

/// Imports a data file into the GeoPackage store as one layer, replacing any layer of that
/// name in a single transaction: a failed import leaves the store as it was.
public struct LayerImporter: Sendable {
    public var invalidPolygons: LayerLoader.InvalidPolygonPolicy

    public init(invalidPolygons: LayerLoader.InvalidPolygonPolicy = .fail) {
        self.invalidPolygons = invalidPolygons
    }

    /// Reads `spec`'s source at `url`, checks it, and writes it to the store at `storeFile`
    /// (created if missing). Returns the report of what was read, written, repaired, skipped.
    public func importLayer(_ spec: LayerSpec, from url: URL, into storeFile: URL) throws(LayerError) -> LoadReport {
        let prepared = try LayerLoader(invalidPolygons: invalidPolygons).prepare(spec, from: url)
        guard !prepared.features.isEmpty else { throw .emptyLayer(path: url.path) }
        do {
            try FileManager.default.createDirectory(
                at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            let store = try GeoPackage.open(at: storeFile.path, create: true)
            try store.replaceLayer(
                StoredLayerInput(
                    name: spec.name, title: spec.title, features: Self.uniformAreas(prepared.features),
                    source: url.path,
                    sourceCRS: prepared.sourceCRS, approximate: spec.approximate?.en, notes: prepared.notes))
        } catch {
            throw .storeWriteFailed(path: storeFile.path, reason: "\(error)")
        }
        return prepared.report
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
