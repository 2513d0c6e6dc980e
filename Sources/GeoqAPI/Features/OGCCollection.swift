import Foundation
import GeoqCore
import GeoqIncidents
import GeoqQuery
import GeoqSchedule

/// One collection of the OGC API - Features face (`/ogc/collections/{id}`): a served layer, by
/// its name, or the incidents the city feeds gave (`incidents`).
///
/// A view over the snapshot, made for a request: the features are the snapshot's own arrays
/// (no copy); only the incidents are turned into features here (a few hundred).
public struct OGCCollection: Sendable {
    public enum Kind: String, Sendable {
        case polygon, point, incidents
    }

    /// The collection's id: the layer's name, or `incidents`.
    public let id: String
    public let kind: Kind
    /// The title in each language the catalog gives (English always).
    public let titles: [Language: String]
    /// The features in the layer's order, each with its `id` unique in the collection.
    public let features: [Feature]
    /// Each feature's instant, for `datetime`: when an incident's notice was posted (nil when
    /// the feed gave no date). Empty for a layer: a layer's features hold at every instant.
    public let instants: [Date?]
    /// The properties a request may select, sort and filter by (`name` among them).
    public let queryables: [LayerAttribute]
    /// Why the layer is approximate, when it is (every answer from it says so).
    public let approximation: ApproximationNote?

    /// The id of the incidents' collection.
    public static let incidentsID = "incidents"

    public func title(in language: Language) -> String { titles[language] ?? titles[.en] ?? id }

    /// Whether the collection has a time (its features are filtered by `datetime`).
    public var isTemporal: Bool { kind == .incidents }

    /// The bounds of every feature (empty when there are none).
    public var extent: BoundingBox {
        features.reduce(BoundingBox.empty) { box, feature in
            feature.geometry.isEmpty ? box : box.union(feature.geometry.boundingBox)
        }
    }

    /// The first and last instant of the features, when the collection has a time and dates.
    public var interval: (first: Date, last: Date)? {
        let dates = instants.compactMap { $0 }
        guard let first = dates.min(), let last = dates.max() else { return nil }
        return (first, last)
    }

    /// Every collection of `data`: its served layers in the library's order, then the
    /// incidents (a layer of that name, if one is ever served, keeps the name).
    public static func all(in data: ServiceData) -> [OGCCollection] {
        var collections = data.layers.compactMap { collection(named: $0.name, in: data) }
        if !collections.contains(where: { $0.id == incidentsID }),
            let incidents = collection(named: incidentsID, in: data)
        {
            collections.append(incidents)
        }
        return collections
    }

    /// The collection `id`, or a 404 problem naming those there are.
    public static func named(_ id: String, in data: ServiceData) throws(Problem) -> OGCCollection {
        guard let collection = collection(named: id, in: data) else {
            throw Problem.unknownCollection(id, known: all(in: data).map(\.id))
        }
        return collection
    }

    static func collection(named id: String, in data: ServiceData) -> OGCCollection? {
        let summary = data.layers.first { $0.name == id && $0.error == nil }
        var titles: [Language: String] = [:]
        for (code, title) in summary?.titles ?? [:] {
            if let language = Language(rawValue: code) { titles[language] = title }
        }
        if let lookup = data.sectorLookups[id] {
            let layer = lookup.layer
            titles[.en] = titles[.en] ?? layer.title
            return OGCCollection(
                id: id, kind: .polygon, titles: titles, features: layer.features, instants: [],
                queryables: queryables(summary?.attributes, layer.features), approximation: layer.approximation)
        }
        if let layer = data.pointLayers[id] {
            titles[.en] = titles[.en] ?? layer.title
            return OGCCollection(
                id: id, kind: .point, titles: titles, features: layer.features, instants: [],
                queryables: queryables(summary?.attributes, layer.features),
                approximation: layer.approximation.map { ApproximationNote(en: $0) })
        }
        guard id == incidentsID else { return nil }
        let incidents = data.incidents.incidents
        let features = incidents.map { incident in
            var feature = incident.feature
            // An incident's id is unique within its feed only.
            feature.id = "\(incident.source):\(incident.id)"
            return feature
        }
        return OGCCollection(
            id: id, kind: .incidents,
            titles: [.en: "Traffic incidents", .es: "Incidencias de tráfico", .eu: "Trafiko-gorabeherak"],
            features: features, instants: incidents.map(\.published), queryables: queryables(nil, features),
            approximation: nil)
    }

    /// The layer's attributes (described from the features when the library did not), and
    /// `name`, which every feature answers with.
    private static func queryables(_ described: [LayerAttribute]?, _ features: [Feature]) -> [LayerAttribute] {
        var attributes = described ?? LayerAttribute.describe(features)
        if !attributes.contains(where: { $0.name == "name" }) {
            attributes.append(
                LayerAttribute(name: "name", type: "text", example: features.lazy.compactMap(\.name).first))
        }
        return attributes.sorted { $0.name < $1.name }
    }
}

extension Geometry {
    /// True for a geometry with no position (an incident the feed did not locate).
    var isEmpty: Bool {
        switch self {
        case .point: false
        case .multiPoint(let points), .lineString(let points): points.isEmpty
        case .multiLineString(let lines): lines.allSatisfy(\.isEmpty)
        case .polygon: false
        case .multiPolygon(let shapes): shapes.polygons.isEmpty
        }
    }
}
