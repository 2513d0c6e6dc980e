import Foundation
import GeoqCore
import GeoqLayers

/// Everything the service answers from, loaded and indexed once: an immutable snapshot that
/// many requests read at once and a reload replaces whole (never a mix of two loads).
public struct ServiceData: Sendable {
    /// One layer as `/v1/layers` lists it.
    public struct LayerSummary: Codable, Hashable, Sendable {
        public var name: String
        public var title: String?
        /// "polygon" or "point".
        public var kind: String
        public var features: Int?
        public var approximate: Bool
        /// Why the layer could not be loaded, when it could not (it is then not served).
        public var error: String?

        public init(name: String, title: String?, kind: String, features: Int?, approximate: Bool, error: String?) {
            self.name = name
            self.title = title
            self.kind = kind
            self.features = features
            self.approximate = approximate
            self.error = error
        }
    }

    /// The polygon layers, ready for which-sector, by name.
    public let sectorLookups: [String: SectorLookup]
    /// Every layer the catalog and the store know, polygon layers first as loaded.
    public let layers: [LayerSummary]
    /// Where the data came from (the store file), for `/readyz` and the logs.
    public let storeFile: String
    /// When this snapshot was loaded.
    public let loadedAt: Date

    public init(sectorLookups: [String: SectorLookup], layers: [LayerSummary], storeFile: String, loadedAt: Date) {
        self.sectorLookups = sectorLookups
        self.layers = layers
        self.storeFile = storeFile
        self.loadedAt = loadedAt
    }

    /// Loads every polygon layer of the library (store first, then catalog files). A layer
    /// that fails to load is listed with its error and not served; the others are.
    public static func load(from library: LayerLibrary) -> ServiceData {
        var lookups: [String: SectorLookup] = [:]
        var summaries: [LayerSummary] = []
        let polygons = Set(library.polygonLayerNames)
        for name in library.names {
            guard polygons.contains(name) else {
                let title = library.catalog.layers.first { $0.name == name }?.title
                summaries.append(
                    LayerSummary(name: name, title: title, kind: "point", features: nil, approximate: false, error: nil)
                )
                continue
            }
            do {
                let layer = try library.layer(named: name)
                lookups[name] = SectorLookup(layer: layer)
                summaries.append(
                    LayerSummary(
                        name: name, title: layer.title, kind: "polygon", features: layer.features.count,
                        approximate: layer.isApproximate, error: nil))
            } catch {
                summaries.append(
                    LayerSummary(
                        name: name, title: nil, kind: "polygon", features: nil, approximate: false,
                        error: error.description))
            }
        }
        return ServiceData(
            sectorLookups: lookups, layers: summaries, storeFile: library.storeFile.path, loadedAt: Date())
    }
}
