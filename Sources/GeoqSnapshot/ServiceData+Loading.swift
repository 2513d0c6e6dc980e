import Foundation
import GeoqAPI
import GeoqCore
import GeoqIncidents
import GeoqLayers
import GeoqNearby
import GeoqParking
import GeoqQuery
import GeoqTariffs

extension ServiceData {
    /// Loads every layer of the library (store first, then catalog files). A layer that fails
    /// to load is listed with its error and not served; the others are.
    public static func load(from library: LayerLibrary) -> ServiceData {
        // The sector answers' edge distances: the short lines of a city in closed form, Karney
        // beyond, as the command has them. The other answers take Karney's directly (nearest-N
        // needs it for its near ties).
        let sectorGeodesic = EllipsoidGeodesic.wgs84
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
                    lookups[name] = SectorLookup(layer: layer, geodesic: sectorGeodesic)
                    summaries.append(
                        LayerSummary(
                            name: name, title: layer.title, kind: kind, features: layer.features.count,
                            approximate: layer.isApproximate, error: nil,
                            attributes: LayerAttribute.describe(layer.features),
                            titles: titles(of: name, title: layer.title, in: library)))
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
                            attributes: LayerAttribute.describe(layer.features),
                            titles: titles(of: name, title: layer.title, in: library)))
                }
            } catch {
                summaries.append(
                    LayerSummary(
                        name: name, title: nil, kind: kind, features: nil, approximate: false, error: error.description)
                )
            }
        }
        // Each lookup knows the other layers' boxes, so that swapped numbers outside all of
        // them get no hint without the endpoint listing those layers.
        // Time-zone layers give no hints (they cover the whole Earth), so their box is left out.
        let extents = lookups.filter { !$0.value.layer.isTimeZoneLayer }.mapValues { $0.layer.index.boundingBox }
        lookups = lookups.mapValues { lookup in
            SectorLookup(
                layer: lookup.layer, geodesic: sectorGeodesic,
                swapCandidateExtents: extents.filter { $0.key != lookup.layer.name }.map(\.value))
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
        do throws(IncidentStoreError) { incidents = try library.heldIncidents() } catch {
            incidentsProblem = error.description
        }
        return ServiceData(
            sectorLookups: lookups, pointLayers: points, links: links,
            serviceLayers: library.serviceLayers.filter { points[$0.layer] != nil }, layers: summaries,
            tariffs: tariffs, tariffProblems: tariffProblems, zoneLocators: zoneLocators,
            incidents: incidents.incidents,
            incidentsRefreshedAt: incidents.refreshedAt, incidentsProblem: incidentsProblem,
            storeFile: library.store.description, defaultSectorLayer: LayerCatalog.defaultLayerName,
            // geoq's own Karney: the nearest search solves its long lines from ends it prepared.
            geodesic: KarneyGeodesic.wgs84,
            loadedAt: Date(), coordinateSystems: PROJCoordinateSystems())
    }

    /// A layer's title by language: the catalog's translations, and `title` in English.
    static func titles(of name: String, title: String, in library: LayerLibrary) -> [String: String] {
        let translations = library.catalog.layers.first { $0.name == name }?.titles ?? [:]
        return translations.merging(["en": title]) { _, english in english }
    }
}
