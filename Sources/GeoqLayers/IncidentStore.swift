import Foundation
import GeoqCore
import GeoqFormats
import GeoqIncidents
import GeoqPROJ
import GeoqQuery
import GeoqStore

/// The incidents of every feed, kept as the `incidents` layer of the store (a GeoPackage or a
/// shared database) and refreshed one feed (source) at a time.
///
/// A refresh reads the whole feed first (parse, reproject GML in other CRSs with PROJ), then
/// merges by (source, id) and replaces the layer in one transaction: a feed that cannot be read
/// leaves the incidents already held untouched, and one source's refresh never ends or
/// overwrites another source's incidents.
public struct IncidentStore: Sendable {
    public static let layerName = "incidents"
    public let store: StoreAddress

    public init(store: StoreAddress) { self.store = store }

    /// The incidents of the GeoPackage `storeFile`.
    public init(storeFile: URL) { self.init(store: .geoPackage(storeFile)) }

    /// What a refresh did.
    public struct Report: Sendable, Hashable {
        /// The source refreshed, and Zaragoza's type of its feed when known.
        public var source: String
        public var feedType: IncidentType?
        public var itemsRead: Int
        public var added: Int
        public var updated: Int
        /// Incidents of the source no longer in its feed (ended), dropped.
        public var ended: Int
        /// Items whose location could not be read (kept without one), with the reason.
        public var withoutLocation: [String]
        public var held: Int
        public var refreshedAt: Date
    }

    /// The incidents held and when they were last refreshed (nil when never).
    public func held() throws(IncidentStoreError) -> (incidents: [Incident], refreshedAt: Date?) {
        switch store {
        case .geoPackage(let storeFile):
            guard FileManager.default.fileExists(atPath: storeFile.path) else { return ([], nil) }
            do {
                let store = try GeoPackage.open(at: storeFile.path, create: false, readOnly: true)
                guard let info = try store.layers().first(where: { $0.name == Self.layerName }) else {
                    return ([], nil)
                }
                let incidents = try store.features(of: Self.layerName).compactMap(Incident.init(feature:))
                return (incidents, Self.parseStamp(info.importedAt))
            } catch {
                throw .storeUnreadable(path: storeFile.path, reason: "\(error)")
            }
        case .shared(let database):
            // Through the features cache, as the service's snapshot reads them.
            do {
                let tables = try database.connectLayers()
                guard let layer = try tables.layers().first(where: { $0.info.name == Self.layerName }) else {
                    return ([], nil)
                }
                let features = try FeatureCache.features(
                    store: database, layer: layer.info.name, version: layer.version
                ) { try tables.features(of: layer.info.name) }
                return (features.compactMap(Incident.init(feature:)), Self.parseStamp(layer.info.importedAt))
            } catch let error as SharedStoreError {
                throw .store(error)
            } catch {
                throw .storeUnreadable(path: database.description, reason: "\(error)")
            }
        }
    }

    /// Parses `data` (a feed read from `feed`, a URL or a file) and merges its items into the
    /// store as the incidents of `source`.
    /// - Parameters:
    ///   - source: the source's name; nil names it after `feed` (``IncidentSource/name(forFeed:)``).
    ///   - type: Zaragoza's type of the feed; nil takes the one its address selects, if any.
    public func refresh(
        data: Data, feed: String, source: String? = nil, type: IncidentType? = nil, now: Date = Date()
    ) throws(IncidentStoreError) -> Report {
        let source = source ?? IncidentSource.name(forFeed: feed)
        let type = type ?? IncidentType(feedURL: feed)
        var builder = IncidentBuilder(source: source, type: type, seen: now)
        var incidents: [Incident] = []
        var withoutLocation: [String] = []
        var transformers: [String: CoordinateTransformer] = [:]
        let proj = PROJContext()
        do {
            _ = try GeoRSSFeedReader.read(data: data, source: feed) { entry in
                var geometry = entry.location?.geometry
                if let location = entry.location, let crs = location.crs {
                    if transformers[crs] == nil {
                        transformers[crs] = try CoordinateTransformer(context: proj, from: crs)
                    }
                    geometry = try transformers[crs]!.transform(location.geometry)
                }
                let incident = builder.incident(
                    title: entry.title, guid: entry.id, link: entry.link, published: entry.published ?? entry.updated,
                    html: entry.description, geometry: geometry, categories: entry.categories)
                if geometry == nil {
                    withoutLocation.append(
                        "line \(entry.line) (\(incident.id)): \(entry.locationProblem ?? "no location")")
                }
                incidents.append(incident)
            }
        } catch let error as FormatError {
            throw .feedMalformed(error.description)
        } catch let error as PROJError {
            throw .feedMalformed("\(feed): cannot reproject a GML position: \(error)")
        } catch {
            throw .feedMalformed("\(feed): \(error)")
        }

        let merged: IncidentMerge.Result
        let held: Int
        do {
            let notes = ["last refresh: source \(source) from \(feed)"]
            let writer = try IncidentWriter.open(store)
            // Only the source's rows change: the others stay as stored, never read back.
            var own: IncidentMerge.Result?
            if let replaced = try writer.replacePartition(
                of: Self.layerName, column: "source", value: source, source: feed, notes: notes,
                with: { ids in
                    own = IncidentMerge.merge(heldIDs: ids, refreshed: incidents, source: source)
                    return own!.incidents.map(\.feature)
                }), let own
            {
                merged = own
                held = replaced.rowCount
            } else {
                // No layer yet, or one written before incidents had sources: write it whole.
                merged = IncidentMerge.merge(held: try self.held().incidents, refreshed: incidents, source: source)
                held = merged.incidents.count
                try writer.replaceLayer(
                    StoredLayerInput(
                        name: Self.layerName, title: "Incidents (GeoRSS feeds)",
                        features: merged.incidents.map(\.feature), source: feed, sourceCRS: "EPSG:4326", notes: notes))
            }
        } catch let error as IncidentStoreError {
            throw error
        } catch let error as SharedStoreError {
            throw .store(error)
        } catch {
            throw .storeWriteFailed(path: store.description, reason: "\(error)")
        }
        return Report(
            source: source, feedType: type, itemsRead: incidents.count, added: merged.added, updated: merged.updated,
            ended: merged.ended, withoutLocation: withoutLocation, held: held, refreshedAt: now)
    }

    /// The store writes `imported_at` as ISO 8601 UTC; another writer of the store may put any
    /// text there (or in `last_change`), which must not trap the parse.
    static func parseStamp(_ text: String) -> Date? {
        LocalTime.instant(parsing: text)
    }
}

/// Why incidents could not be refreshed or read. A download failure is reported by the face
/// that downloads (it is not this type's business); these are the feed and the store.
public enum IncidentStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The feed was downloaded but is not a readable RSS/Atom feed.
    case feedMalformed(String)
    case storeUnreadable(path: String, reason: String)
    case storeWriteFailed(path: String, reason: String)
    /// The shared store cannot be used (address, network, credentials, database, spatial
    /// extension, or a statement refused).
    case store(SharedStoreError)

    public var code: String {
        switch self {
        case .feedMalformed: "feed-malformed"
        case .storeUnreadable: "store-unreadable"
        case .storeWriteFailed: "store-write-failed"
        case .store(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .feedMalformed(let message): "the feed could not be read: \(message)"
        case .storeUnreadable(let path, let reason): "the store \(path) could not be read: \(reason)"
        case .storeWriteFailed(let path, let reason):
            "the store \(path) could not be written (left as it was): \(reason)"
        case .store(let error): error.description
        }
    }
}

/// Where a refresh writes: the GeoPackage (opened, and its folder made, on first write) or the
/// shared store's layer tables, with the same two operations.
enum IncidentWriter {
    case geoPackage(GeoPackage)
    case shared(any SharedLayerTables)

    static func open(_ store: StoreAddress) throws -> IncidentWriter {
        switch store {
        case .geoPackage(let storeFile):
            let existed = FileManager.default.fileExists(atPath: storeFile.path)
            do {
                try FileManager.default.createDirectory(
                    at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                return .geoPackage(try GeoPackage.open(at: storeFile.path, create: true))
            } catch {
                throw existed
                    ? IncidentStoreError.storeUnreadable(path: storeFile.path, reason: "\(error)")
                    : IncidentStoreError.storeWriteFailed(path: storeFile.path, reason: "\(error)")
            }
        case .shared(let database):
            return .shared(try database.connectLayers())
        }
    }

    func replacePartition(
        of name: String, column: String, value: String, source: String, notes: [String],
        with makeFeatures: ([String]) -> [Feature]
    ) throws -> GeoPackage.PartitionReplacement? {
        switch self {
        case .geoPackage(let package):
            try package.replacePartition(
                of: name, column: column, value: value, source: source, notes: notes, with: makeFeatures)
        case .shared(let tables):
            try tables.replacePartition(
                of: name, column: column, value: value, source: source, notes: notes, with: makeFeatures)
        }
    }

    func replaceLayer(_ layer: StoredLayerInput) throws {
        switch self {
        case .geoPackage(let package): try package.replaceLayer(layer)
        case .shared(let tables): try tables.replaceLayer(layer)
        }
    }
}
