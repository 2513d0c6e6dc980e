import Foundation
import GeoqCore
import GeoqFormats
import GeoqIncidents
import GeoqPROJ
import GeoqStore

/// The incidents of every feed, kept as the `incidents` layer of the GeoPackage store and
/// refreshed one feed (source) at a time.
///
/// A refresh reads the whole feed first (parse, reproject GML in other CRSs with PROJ), then
/// merges by (source, id) and replaces the layer in one transaction: a feed that cannot be read
/// leaves the incidents already held untouched, and one source's refresh never ends or
/// overwrites another source's incidents.
public struct IncidentStore: Sendable {
    public static let layerName = "incidents"
    public let storeFile: URL

    public init(storeFile: URL) { self.storeFile = storeFile }

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
        guard FileManager.default.fileExists(atPath: storeFile.path) else { return ([], nil) }
        do {
            let store = try GeoPackage.open(at: storeFile.path, create: false, readOnly: true)
            guard let info = try store.layers().first(where: { $0.name == Self.layerName }) else { return ([], nil) }
            let incidents = try store.features(of: Self.layerName).compactMap(Incident.init(feature:))
            return (incidents, Self.parseStamp(info.importedAt))
        } catch {
            throw .storeUnreadable(path: storeFile.path, reason: "\(error)")
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

        let store: GeoPackage
        let existed = FileManager.default.fileExists(atPath: storeFile.path)
        do {
            try FileManager.default.createDirectory(
                at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            store = try GeoPackage.open(at: storeFile.path, create: true)
        } catch {
            throw existed
                ? .storeUnreadable(path: storeFile.path, reason: "\(error)")
                : .storeWriteFailed(path: storeFile.path, reason: "\(error)")
        }
        let merged: IncidentMerge.Result
        let held: Int
        do {
            let notes = ["last refresh: source \(source) from \(feed)"]
            // Only the source's rows change: the others stay as stored, never read back.
            var own: IncidentMerge.Result?
            if let replaced = try store.replacePartition(
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
                try store.replaceLayer(
                    StoredLayerInput(
                        name: Self.layerName, title: "Incidents (GeoRSS feeds)",
                        features: merged.incidents.map(\.feature), source: feed, sourceCRS: "EPSG:4326", notes: notes))
            }
        } catch let error as IncidentStoreError {
            throw error
        } catch {
            throw .storeWriteFailed(path: storeFile.path, reason: "\(error)")
        }
        return Report(
            source: source, feedType: type, itemsRead: incidents.count, added: merged.added, updated: merged.updated,
            ended: merged.ended, withoutLocation: withoutLocation, held: held, refreshedAt: now)
    }

    /// The store writes `imported_at` as ISO 8601 UTC.
    static func parseStamp(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// Why incidents could not be refreshed or read. A download failure is reported by the face
/// that downloads (it is not this type's business); these are the feed and the store.
public enum IncidentStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The feed was downloaded but is not a readable RSS/Atom feed.
    case feedMalformed(String)
    case storeUnreadable(path: String, reason: String)
    case storeWriteFailed(path: String, reason: String)

    public var code: String {
        switch self {
        case .feedMalformed: "feed-malformed"
        case .storeUnreadable: "store-unreadable"
        case .storeWriteFailed: "store-write-failed"
        }
    }

    public var description: String {
        switch self {
        case .feedMalformed(let message): "the feed could not be read: \(message)"
        case .storeUnreadable(let path, let reason): "the store \(path) could not be read: \(reason)"
        case .storeWriteFailed(let path, let reason):
            "the store \(path) could not be written (left as it was): \(reason)"
        }
    }
}
