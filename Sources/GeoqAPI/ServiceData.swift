import Foundation
import GeoqCore
import GeoqIncidents
import GeoqParking
import GeoqQuery
import GeoqTariffs

/// Everything the service answers from, loaded and indexed once: an immutable snapshot that
/// many requests read at once and a reload replaces whole (never a mix of two loads).
///
/// A class: each request takes the current snapshot, which then costs one reference rather
/// than a copy of every table in it.
public final class ServiceData: Sendable {
    /// One layer as `/v1/layers` lists it.
    public struct LayerSummary: Codable, Hashable, Sendable {
        public var name: String
        public var title: String?
        /// The title in each answer language the catalog gives (`en` always, `es` and `eu` when
        /// given).
        public var titles: [String: String]?
        /// "polygon" or "point".
        public var kind: String
        public var features: Int?
        public var approximate: Bool
        /// Why the layer could not be loaded, when it could not (it is then not served).
        public var error: String?
        /// The features' attributes (name, type, an example value), when the layer loaded.
        public var attributes: [LayerAttribute]?

        public init(
            name: String, title: String?, kind: String, features: Int?, approximate: Bool, error: String?,
            attributes: [LayerAttribute]? = nil, titles: [String: String]? = nil
        ) {
            self.titles = titles
            self.attributes = attributes
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
    /// For each polygon layer, the other polygon layers in listing order: where a point outside
    /// it is searched with latitude and longitude exchanged. Made once here rather than for each
    /// such answer (two thirds of what clients ask lies outside the layer asked).
    public let swapCandidates: [String: [Layer]]
    /// The point layers, indexed for nearest-N, by name.
    public let pointLayers: [String: PointLayer]
    /// For each point layer, its linked features: link name (`as`) -> the linked layer's
    /// features by id (a falla's children's falla and marquee).
    public let links: [String: [String: [String: Feature]]]
    /// The service layers by type, in catalog order (for `/v1/services`).
    public let serviceLayers: [(type: String, layer: String)]
    /// Every layer the catalog and the store know, in the library's order.
    public let layers: [LayerSummary]
    /// Each city's tariffs, hours and holidays (data/tariffs beside the catalog), by city.
    public let tariffs: [String: CityTariffs]
    /// Cities whose tariff file is there but could not be read, with the reason.
    public let tariffProblems: [String: String]
    /// Each city's park answers' tariff parts, kept for the requests of the same minute; made
    /// empty with each snapshot, so that a reload never answers from the previous tariffs.
    public let parkAnswerCaches: [String: ParkAnswerCache]
    /// Each city's park query over its cache, its sector layer and its zone lines, made once
    /// for the snapshot (absent when the city's sector layer is not loaded).
    public let parkQueries: [String: ParkQuery]
    /// Each city's zone lines (its tariffs' zone layer), when that layer loaded.
    public let zoneLocators: [String: ZoneLocator]
    /// The incidents held in the store (layer `incidents`, written by `geoq incidents
    /// refresh`), when it was last refreshed, and why they could not be read, if so.
    public let incidents: IncidentSet
    public let incidentsRefreshedAt: Date?
    public let incidentsProblem: String?
    /// Where the data came from (the store file), for `/readyz` and the logs.
    public let storeFile: String
    /// The polygon layer a sector question asks when it names none.
    public let defaultSectorLayer: String
    /// Distances and bearings on the ellipsoid, for every answer that measures one.
    public let geodesic: any GeodesicSolving
    /// When this snapshot was loaded.
    public let loadedAt: Date
    /// The systems the OGC API face answers in besides CRS84.
    public let coordinateSystems: any OGCCoordinateSystems

    public init(
        sectorLookups: [String: SectorLookup], pointLayers: [String: PointLayer] = [:],
        links: [String: [String: [String: Feature]]] = [:], serviceLayers: [(type: String, layer: String)] = [],
        layers: [LayerSummary], tariffs: [String: CityTariffs] = [:], tariffProblems: [String: String] = [:],
        zoneLocators: [String: ZoneLocator] = [:],
        incidents: [Incident] = [], incidentsRefreshedAt: Date? = nil, incidentsProblem: String? = nil,
        storeFile: String, defaultSectorLayer: String, geodesic: any GeodesicSolving, loadedAt: Date,
        coordinateSystems: any OGCCoordinateSystems = CRS84Only()
    ) {
        self.coordinateSystems = coordinateSystems
        self.defaultSectorLayer = defaultSectorLayer
        self.geodesic = geodesic
        self.incidents = IncidentSet(incidents)
        self.incidentsRefreshedAt = incidentsRefreshedAt
        self.incidentsProblem = incidentsProblem
        self.tariffs = tariffs
        self.tariffProblems = tariffProblems
        let parkAnswerCaches = tariffs.mapValues { ParkAnswerCache(tariffs: $0) }
        self.parkAnswerCaches = parkAnswerCaches
        parkQueries = Dictionary(
            uniqueKeysWithValues: parkAnswerCaches.compactMap { city, cache in
                sectorLookups[cache.tariffs.sectorLayer ?? defaultSectorLayer].map { sectors in
                    (city, ParkQuery(cache: cache, sectors: sectors, zones: zoneLocators[city]))
                }
            })
        self.zoneLocators = zoneLocators
        self.sectorLookups = sectorLookups
        swapCandidates = Dictionary(
            uniqueKeysWithValues: sectorLookups.keys.map { name in
                (name, layers.compactMap { $0.name == name ? nil : sectorLookups[$0.name]?.layer })
            })
        self.pointLayers = pointLayers
        self.links = links
        self.serviceLayers = serviceLayers
        self.layers = layers
        self.storeFile = storeFile
        self.loadedAt = loadedAt
    }
}
