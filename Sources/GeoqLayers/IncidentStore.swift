import Foundation
import GeoqCore
import GeoqFormats
import GeoqIncidents
import GeoqPROJ
import GeoqStore

/// The city's incidents, kept as the `incidents` layer of the GeoPackage store and refreshed
/// from feeds.
///
/// A refresh reads the whole feed first (parse, reproject GML in other CRSs with PROJ), then
/// merges by id and replaces the layer in one transaction: a feed that cannot be read leaves the
/// incidents already held untouched.
public struct IncidentStore: Sendable {
    public static let layerName = "incidents"
    public let storeFile: URL

    public init(storeFile: URL) { self.storeFile = storeFile }

    /// What a refresh did.
    public struct Report: Sendable, Hashable {
        public var feedType: IncidentType
        public var itemsRead: Int
        public var added: Int
        public var updated: Int
        /// Incidents of the feed's type no longer in it (ended), dropped.
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

    /// Parses `data` (a feed read from `source`) and merges its items into the store.
    public func refresh(
        data: Data, source: String, type: IncidentType, now: Date = Date()
    ) throws(IncidentStoreError) -> Report {
        var incidents: [Incident] = []
        var withoutLocation: [String] = []
        var transformers: [String: CoordinateTransformer] = [:]
        let proj = PROJContext()
        do {
            _ = try GeoRSSFeedReader.read(data: data, source: source) { entry in
                var geometry = entry.location?.geometry
                if let location = entry.location, let crs = location.crs {
                    if transformers[crs] == nil {
                        transformers[crs] = try CoordinateTransformer(context: proj, from: crs)
                    }
                    geometry = try transformers[crs]!.transform(location.geometry)
                }
                let incident = Incident(
                    title: entry.title, guid: entry.id, link: entry.link, published: entry.published ?? entry.updated,
                    html: entry.description, geometry: geometry, type: type, seen: now)
                if geometry == nil {
                    withoutLocation.append(
                        "line \(entry.line) (\(incident.id)): \(entry.locationProblem ?? "no location")")
                }
                incidents.append(incident)
            }
        } catch let error as FormatError {
            throw .feedMalformed(error.description)
        } catch let error as PROJError {
            throw .feedMalformed("\(source): cannot reproject a GML position: \(error)")
        } catch {
            throw .feedMalformed("\(source): \(error)")
        }

        let (held, _) = try self.held()
        let merged = IncidentMerge.merge(held: held, refreshed: incidents, feedType: type)
        let heldIDs = Set(held.map(\.id)), freshIDs = Set(incidents.map(\.id))
        let mergedIDs = Set(merged.map(\.id))
        let endedCount = heldIDs.subtracting(mergedIDs).count
        do {
            try FileManager.default.createDirectory(
                at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            let store = try GeoPackage.open(at: storeFile.path, create: true)
            try store.replaceLayer(
                StoredLayerInput(
                    name: Self.layerName, title: "City incidents (GeoRSS feeds)", features: merged.map(\.feature),
                    source: source, sourceCRS: "EPSG:4326",
                    notes: ["last refresh: type \(type.rawValue) (\(type.spanishName)) from \(source)"]))
        } catch {
            throw .storeWriteFailed(path: storeFile.path, reason: "\(error)")
        }
        return Report(
            feedType: type, itemsRead: incidents.count, added: freshIDs.subtracting(heldIDs).count,
            updated: freshIDs.intersection(heldIDs).count, ended: endedCount, withoutLocation: withoutLocation,
            held: merged.count, refreshedAt: now)
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
