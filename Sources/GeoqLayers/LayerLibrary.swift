import Foundation
import GeoqCore
import GeoqIncidents
import GeoqQuery
import GeoqStore

/// Where the query commands get their layers: the store first (what `geoq import` wrote, in a
/// GeoPackage or in a shared database), then, for a catalog layer not imported yet, its source
/// file.
///
/// Owns the store's connection (SQLite, or the shared store's), so it is confined to one thread
/// or task, like the connection itself. A shared store's features come through ``FeatureCache``:
/// the layers' versions are read when the library opens, and a layer whose version this process
/// already read is not read again.
public final class LayerLibrary {
    public let catalog: LayerCatalog
    /// Where the stored layers are.
    public let store: StoreAddress
    private let backend: StoredLayers
    private let stored: [String: LayerInfo]
    /// Each shared-store layer's version when the library opened (empty for a GeoPackage).
    public let layerVersions: [String: Int64]
    private let loader: LayerLoader
    private var loaded: [String: Layer] = [:]
    private var indexOrigins: [String: IndexOrigin] = [:]

    /// Where the index of polygon layer `name` came from, once ``layer(named:)`` loaded it.
    public func indexOrigin(of name: String) -> IndexOrigin? { indexOrigins[name] }

    /// Opens the store (`store`, else the locations' one): a GeoPackage read-only if it exists,
    /// a shared database by connecting to it. A store that exists but cannot be read is an
    /// error (it is never silently ignored); a failure of the database is
    /// ``LayerError/store(_:)``.
    public init(
        locations: DataLocations, store: StoreAddress? = nil, invalidPolygons: LayerLoader.InvalidPolygonPolicy = .fail
    )
        throws(LayerError)
    {
        catalog = try locations.loadCatalog()
        let store = store ?? locations.store
        self.store = store
        loader = LayerLoader(invalidPolygons: invalidPolygons)
        switch store {
        case .geoPackage(let file):
            if FileManager.default.fileExists(atPath: file.path) {
                do {
                    let package = try GeoPackage.open(at: file.path, create: false, readOnly: true)
                    backend = .geoPackage(package)
                    stored = Dictionary(uniqueKeysWithValues: try package.layers().map { ($0.name, $0) })
                } catch {
                    throw .storeUnreadable(path: file.path, reason: error.description)
                }
            } else {
                backend = .none
                stored = [:]
            }
            layerVersions = [:]
        case .shared(let database):
            do throws(SharedStoreError) {
                let tables = try database.connectLayers()
                let layers = try tables.layers()
                backend = .shared(tables, of: database)
                stored = Dictionary(uniqueKeysWithValues: layers.map { ($0.info.name, $0.info) })
                layerVersions = Dictionary(uniqueKeysWithValues: layers.map { ($0.info.name, $0.version) })
            } catch {
                throw .store(error)
            }
        }
    }

    /// A library over the GeoPackage `storeFile`.
    public convenience init(
        locations: DataLocations, storeFile: URL, invalidPolygons: LayerLoader.InvalidPolygonPolicy = .fail
    ) throws(LayerError) {
        try self.init(locations: locations, store: .geoPackage(storeFile), invalidPolygons: invalidPolygons)
    }

    /// The stored layers' connection.
    private enum StoredLayers {
        case none
        case geoPackage(GeoPackage)
        /// The shared store's layer tables, and the store they are of (the cache's key).
        case shared(any SharedLayerTables, of: any SharedStoreBackend)
    }

    /// The features of the stored layer `name` (which `stored` lists).
    private func storedFeatures(of name: String) throws(LayerError) -> [Feature] {
        do {
            switch backend {
            case .none: return []
            case .geoPackage(let package): return try package.features(of: name)
            case .shared(let tables, let database):
                return try FeatureCache.features(
                    store: database, layer: name, version: layerVersions[name] ?? 0
                ) { try tables.features(of: name) }
            }
        } catch let error as SharedStoreError {
            throw .store(error)
        } catch {
            throw .storeUnreadable(path: store.description, reason: "\(error)")
        }
    }

    /// The incidents the store holds (``IncidentStore/layerName``) and when they were last
    /// refreshed, read through this library's connection (and, for a shared store, its cache).
    public func heldIncidents() throws(IncidentStoreError) -> (incidents: [Incident], refreshedAt: Date?) {
        guard let info = stored[IncidentStore.layerName] else { return ([], nil) }
        do throws(LayerError) {
            let features = try storedFeatures(of: IncidentStore.layerName)
            return (features.compactMap(Incident.init(feature:)), IncidentStore.parseStamp(info.importedAt))
        } catch {
            if case .store(let failure) = error { throw .store(failure) }
            throw .storeUnreadable(path: store.description, reason: error.description)
        }
    }

    /// Every layer name: the store's, then catalog layers not imported yet (the optional
    /// ones only when ``LayerCatalog/listedLayers(environment:)`` includes them).
    public var names: [String] {
        stored.keys.sorted() + catalog.listedLayers().map(\.name).filter { stored[$0] == nil }
    }

    /// What the store says about its layers.
    public var storedLayers: [LayerInfo] { stored.values.sorted { $0.name < $1.name } }

    /// The polygon layer `name`, indexed, from the store if it is there, else from the catalog.
    public func layer(named name: String) throws(LayerError) -> Layer {
        if let layer = loaded[name] { return layer }
        var layer: Layer
        if let info = stored[name] {
            var features: [Feature]
            var pending: StoredIndex.PendingIndex?
            if case .geoPackage(let package) = backend {
                (features, pending) = try StoredIndex.rows(of: name, in: package) { () throws(LayerError) in
                    try storedFeatures(of: name)
                }
            } else {
                features = try storedFeatures(of: name)
            }
            guard !features.isEmpty else { throw .emptyLayer(path: "\(store) layer \(name)") }
            for (i, f) in features.enumerated() where f.geometry.areal == nil {
                throw .notAreal(
                    path: "\(store) layer \(name)", feature: LayerLoader.describe(f, at: i),
                    geometryType: f.geometry.typeName)
            }
            let index: PolygonIndex?
            if let pending {
                let found = pending.finish(features: features)
                (index, indexOrigins[name]) = (found.index, found.origin)
            } else {
                (index, indexOrigins[name]) = (nil, .built)
            }
            layer = Layer(
                name: name, title: info.title, features: features,
                approximation: note(stored: info.approximate, layer: name),
                source: "\(store) (imported from \(info.source))", sourceCRS: info.sourceCRS, notes: info.notes,
                index: index
            )
            // Whether a stored layer tells the time is the catalog's to say (the store keeps no such mark).
            if let field = catalog.layers.first(where: { $0.name == name })?.timeZoneField {
                layer = layer.marking(timeZoneField: field)
            }
        } else {
            layer = try loader.load(name, from: catalog)
            indexOrigins[name] = .built
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
    /// Time-zone layers are left out unread: they cover the whole Earth, so any swapped
    /// position would be "inside" one.
    public func otherPolygonLayers(than name: String) -> [Layer] {
        let timeZoneLayers = Set(catalog.layers.filter { $0.timeZoneField != nil }.map(\.name))
        return polygonLayerNames.filter { $0 != name && !timeZoneLayers.contains($0) }.compactMap {
            try? layer(named: $0)
        }
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
        if let info = stored[name] {
            let features = try storedFeatures(of: name)
            layer = try Self.pointLayer(
                name: name, title: info.title, features: features, spec: spec, approximation: info.approximate,
                source: "\(store) layer \(name)")
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
        if stored[name] != nil { return try storedFeatures(of: name) }
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
