import Foundation
import GeoqCore
import GeoqIncidents
import GeoqLayers
import GeoqParking
import GeoqTariffs

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
        /// The features' attributes (name, type, an example value), when the layer loaded.
        public var attributes: [LayerAttribute]?

        public init(
            name: String, title: String?, kind: String, features: Int?, approximate: Bool, error: String?,
            attributes: [LayerAttribute]? = nil
        ) {
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
    /// Each city's zone lines (its tariffs' zone layer), when that layer loaded.
    public let zoneLocators: [String: ZoneLocator]
    /// The incidents held in the store (layer `incidents`, written by `geoq incidents
    /// refresh`), when it was last refreshed, and why they could not be read, if so.
    public let incidents: [Incident]
    public let incidentsRefreshedAt: Date?
    public let incidentsProblem: String?
    /// Where the data came from (the store file), for `/readyz` and the logs.
    public let storeFile: String
    /// When this snapshot was loaded.
    public let loadedAt: Date

    public init(
        sectorLookups: [String: SectorLookup], pointLayers: [String: PointLayer] = [:],
        links: [String: [String: [String: Feature]]] = [:], serviceLayers: [(type: String, layer: String)] = [],
        layers: [LayerSummary], tariffs: [String: CityTariffs] = [:], tariffProblems: [String: String] = [:],
        zoneLocators: [String: ZoneLocator] = [:],
        incidents: [Incident] = [], incidentsRefreshedAt: Date? = nil, incidentsProblem: String? = nil,
        storeFile: String, loadedAt: Date
    ) {
        self.incidents = incidents
        self.incidentsRefreshedAt = incidentsRefreshedAt
        self.incidentsProblem = incidentsProblem
        self.tariffs = tariffs
        self.tariffProblems = tariffProblems
        self.zoneLocators = zoneLocators
        self.sectorLookups = sectorLookups
        self.pointLayers = pointLayers
        self.links = links
        self.serviceLayers = serviceLayers
        self.layers = layers
        self.storeFile = storeFile
        self.loadedAt = loadedAt
    }

    /// Loads every layer of the library (store first, then catalog files). A layer that fails
    /// to load is listed with its error and not served; the others are.
    public static func load(from library: LayerLibrary) -> ServiceData {
        var lookups: [String: SectorLookup] = [:]
        var points: [String: PointLayer] = [:]
        var links: [String: [String: [String: Feature]]] = [:]
        var summaries: [LayerSummary] = []
        let polygons = Set(library.polygonLayerNames)
        for name in library.names {
            let kind = polygons.contains(name) ? "polygon" : "point"
            do throws(LayerError) {
                if polygons.contains(name) {
                    let layer = try library.layer(named: name)
                    lookups[name] = SectorLookup(layer: layer)
                    summaries.append(
                        LayerSummary(
                            name: name, title: layer.title, kind: kind, features: layer.features.count,
                            approximate: layer.isApproximate, error: nil,
                            attributes: LayerAttribute.describe(layer.features)))
                } else {
                    let layer = try library.pointLayer(named: name)
                    var linked: [String: [String: Feature]] = [:]
                    for link in layer.links { linked[link.as] = try library.featuresByID(of: link.layer) }
                    points[name] = layer
                    links[name] = linked
                    summaries.append(
                        LayerSummary(
                            name: name, title: layer.title, kind: kind, features: layer.features.count,
                            approximate: layer.approximation != nil, error: nil,
                            attributes: LayerAttribute.describe(layer.features)))
                }
            } catch {
                summaries.append(
                    LayerSummary(
                        name: name, title: nil, kind: kind, features: nil, approximate: false, error: error.description)
                )
            }
        }
        // Tariffs live beside the catalog (data/tariffs), whatever directory the layers come from.
        let dataDirectory = library.catalog.file.deletingLastPathComponent()
        var tariffs: [String: CityTariffs] = [:]
        var tariffProblems: [String: String] = [:]
        for city in CityTariffs.available(in: dataDirectory.appendingPathComponent("tariffs")) {
            do throws(TariffError) {
                tariffs[city] = try CityTariffs.load(city: city, dataDirectory: dataDirectory)
            } catch {
                tariffProblems[city] = error.message(.en)
            }
        }
        var zoneLocators: [String: ZoneLocator] = [:]
        for (city, cityTariffs) in tariffs {
            guard let spec = cityTariffs.zoneLayer, let features = try? library.features(of: spec.layer) else {
                continue
            }
            zoneLocators[city] = ZoneLocator(features: features, spec: spec)
        }
        var incidents: (incidents: [Incident], refreshedAt: Date?) = ([], nil)
        var incidentsProblem: String?
        do throws(IncidentStoreError) { incidents = try IncidentStore(storeFile: library.storeFile).held() } catch {
            incidentsProblem = error.description
        }
        return ServiceData(
            sectorLookups: lookups, pointLayers: points, links: links,
            serviceLayers: library.serviceLayers.filter { points[$0.layer] != nil }, layers: summaries,
            tariffs: tariffs, tariffProblems: tariffProblems, zoneLocators: zoneLocators,
            incidents: incidents.incidents,
            incidentsRefreshedAt: incidents.refreshedAt, incidentsProblem: incidentsProblem,
            storeFile: library.storeFile.path, loadedAt: Date())
    }
}
