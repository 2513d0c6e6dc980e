import Foundation
import GeoqCore
import GeoqQuery
import GeoqStore

/// Where the query commands get their layers: the GeoPackage store first (what `geoq import`
/// wrote), then, for a catalog layer not imported yet, its source file.
///
/// Owns the store's SQLite connection, so it is confined to one thread or task, like the
/// connection itself.
public final class LayerLibrary {
    public let catalog: LayerCatalog
    public let storeFile: URL
    private let store: GeoPackage?
    private let stored: [String: LayerInfo]
    private let loader: LayerLoader
    private var loaded: [String: Layer] = [:]

    /// Opens the store read-only if it exists; a store that exists but cannot be read is an
    /// error (it is never silently ignored).
    public init(
        locations: DataLocations, storeFile: URL? = nil, invalidPolygons: LayerLoader.InvalidPolygonPolicy = .fail
    )
        throws(LayerError)
    {
        catalog = try locations.loadCatalog()
        self.storeFile = storeFile ?? locations.storeFile
        loader = LayerLoader(invalidPolygons: invalidPolygons)
        if FileManager.default.fileExists(atPath: self.storeFile.path) {
            do {
                let store = try GeoPackage.open(at: self.storeFile.path, create: false, readOnly: true)
                self.store = store
                stored = Dictionary(uniqueKeysWithValues: try store.layers().map { ($0.name, $0) })
            } catch {
                throw .storeUnreadable(path: self.storeFile.path, reason: error.description)
            }
        } else {
            store = nil
            stored = [:]
        }
    }

    /// Every layer name: the store's, then catalog layers not imported yet.
    public var names: [String] {
        stored.keys.sorted() + catalog.layers.map(\.name).filter { stored[$0] == nil }
    }

    /// What the store says about its layers.
    public var storedLayers: [LayerInfo] { stored.values.sorted { $0.name < $1.name } }

    /// The polygon layer `name`, indexed, from the store if it is there, else from the catalog.
    public func layer(named name: String) throws(LayerError) -> Layer {
        if let layer = loaded[name] { return layer }
        let layer: Layer
        if let info = stored[name], let store {
            let features: [Feature]
            do { features = try store.features(of: name) } catch {
                throw .storeUnreadable(path: storeFile.path, reason: error.description)
            }
            guard !features.isEmpty else { throw .emptyLayer(path: "\(storeFile.path) layer \(name)") }
            for (i, f) in features.enumerated() where f.geometry.areal == nil {
                throw .notAreal(
                    path: "\(storeFile.path) layer \(name)", feature: LayerLoader.describe(f, at: i),
                    geometryType: f.geometry.typeName)
            }
            layer = Layer(
                name: name, title: info.title, features: features,
                approximation: note(stored: info.approximate, layer: name),
                source: "\(storeFile.path) (imported from \(info.source))", sourceCRS: info.sourceCRS, notes: info.notes
            )
        } else {
            layer = try loader.load(name, from: catalog)
        }
        loaded[name] = layer
        return layer
    }

    /// A stored layer's approximation note. The store keeps the English note only; its
    /// translations come from the catalog entry of the same name when that entry's English
    /// note is the stored one (otherwise they would translate some other text).
    private func note(stored english: String?, layer name: String) -> ApproximationNote? {
        guard let english else { return nil }
        if let note = catalog.layers.first(where: { $0.name == name })?.approximate, note.en == english { return note }
        return ApproximationNote(en: english)
    }

    /// Every other polygon layer that can be loaded (for swap hints); layers that fail to load
    /// or are not polygons are left out (point layers are known by their catalog entry or their
    /// stored geometry type, and not even read).
    public func otherPolygonLayers(than name: String) -> [Layer] {
        polygonLayerNames.filter { $0 != name }.compactMap { try? layer(named: $0) }
    }

    /// The names of the polygon layers, known without reading them: point layers are known by
    /// their stored geometry type or by their catalog entry (a service type or categories).
    public var polygonLayerNames: [String] {
        names.filter { candidate in
            if let info = stored[candidate] { return !info.geometryType.uppercased().contains("POINT") }
            let spec = catalog.layers.first { $0.name == candidate }
            return spec?.serviceType == nil && spec?.categoryField == nil
        }
    }

    private var loadedPoints: [String: PointLayer] = [:]

    /// The point layer `name`, indexed for nearest-N, from the store if it is there, else from
    /// the catalog. Its catalog entry (if any) gives its categories, service type and links.
    public func pointLayer(named name: String) throws(LayerError) -> PointLayer {
        if let layer = loadedPoints[name] { return layer }
        let spec = catalog.layers.first { $0.name == name }
        let layer: PointLayer
        if let info = stored[name], let store {
            let features: [Feature]
            do { features = try store.features(of: name) } catch {
                throw .storeUnreadable(path: storeFile.path, reason: error.description)
            }
            layer = try Self.pointLayer(
                name: name, title: info.title, features: features, spec: spec, approximation: info.approximate,
                source: "\(storeFile.path) layer \(name)")
        } else {
            let spec = try catalog.spec(named: name)
            let url = catalog.sourceURL(of: spec)
            let prepared = try loader.prepare(spec, from: url)
            layer = try Self.pointLayer(
                name: name, title: spec.title, features: prepared.features, spec: spec,
                approximation: spec.approximate?.en, source: url.path)
        }
        loadedPoints[name] = layer
        return layer
    }

    /// `features` as a point layer, or the first feature that is not a point, named in `source`.
    static func pointLayer(
        name: String, title: String, features: [Feature], spec: LayerSpec?, approximation: String?, source: String
    ) throws(LayerError) -> PointLayer {
        do throws(PointLayer.NotAPoint) {
            return try PointLayer(
                name: name, title: title, features: features, scheme: spec?.pointScheme ?? .init(),
                approximation: approximation)
        } catch {
            throw .notPoints(
                path: source, feature: LayerLoader.describe(features[error.featureIndex], at: error.featureIndex),
                geometryType: error.geometryType)
        }
    }

    /// The features of layer `name` by id, of any geometry type (for links such as a falla's
    /// marquee polygon).
    public func featuresByID(of name: String) throws(LayerError) -> [String: Feature] {
        Dictionary(try features(of: name).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The features of layer `name`, of any geometry type, in layer order (store first, then the
    /// catalog's source file).
    public func features(of name: String) throws(LayerError) -> [Feature] {
        if stored[name] != nil, let store {
            do { return try store.features(of: name) } catch {
                throw .storeUnreadable(path: storeFile.path, reason: error.description)
            }
        }
        let spec = try catalog.spec(named: name)
        return try loader.prepare(spec, from: catalog.sourceURL(of: spec)).features
    }

    /// The catalog's service layers (those with a service type), by type: a layer whose
    /// categories have service types of their own comes once for each, its own type first.
    public var serviceLayers: [(type: String, layer: String)] {
        catalog.layers.flatMap { spec -> [(type: String, layer: String)] in
            guard let type = spec.serviceType else { return [] }
            let others = Set((spec.serviceTypeByCategory ?? [:]).values).subtracting([type]).sorted()
            return ([type] + others).map { ($0, spec.name) }
        }
    }
}
