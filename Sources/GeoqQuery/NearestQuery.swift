import Foundation
import GeoqCore
import GeoqNearby

/// Answers nearest-N questions over point layers of a ``LayerLibrary``.
public struct NearestQuery: Sendable {
    public enum Order: String, Sendable, CaseIterable {
        /// Nearest first (ties by the layer's order).
        case distance
        /// By category in the layer's order (the competition order for fallas), then nearest.
        case category
    }

    public let geodesic: any GeodesicSolving

    public init(geodesic: any GeodesicSolving) { self.geodesic = geodesic }

    /// The same, with the linked features given: for each link name (`as`), the linked layer's
    /// features by id (see ``PointLayer/links``).
    public func nearest(
        _ layer: PointLayer, to point: Point, limit: Int, within maxMetres: Double? = nil, categories: [String] = [],
        order: Order = .distance, links: [String: [String: Feature]]
    ) -> NearestAnswer {
        let wanted = categories.filter { !$0.isEmpty }
        return nearest(
            layer, to: point, limit: limit, within: maxMetres, order: order, links: links,
            where: { item in
                wanted.isEmpty || (layer.categories[item].map { c in wanted.contains { c.matches($0) } } ?? false)
            })
    }

    /// The nearest features of `layer` for which `included` holds (given the feature's index).
    func nearest(
        _ layer: PointLayer, to point: Point, limit: Int, within maxMetres: Double?, order: Order,
        links: [String: [String: Feature]], where included: (Int) -> Bool
    ) -> NearestAnswer {
        let hits = layer.index.nearest(to: point, limit: limit, within: maxMetres, where: included, geodesic: geodesic)
        var answers = hits.map { hit(layer, $0, links: links) }
        if order == .category {
            let rank = Dictionary(uniqueKeysWithValues: hits.map { ($0.item, layer.categories[$0.item]) })
            let items = hits.map(\.item)
            let ranked = zip(items, answers).sorted { a, b in
                let (ca, cb) = (rank[a.0] ?? nil, rank[b.0] ?? nil)
                if ca != cb {
                    guard let ca else { return false }
                    guard let cb else { return true }
                    return ca < cb
                }
                return a.1.distanceMetres < b.1.distanceMetres
            }
            answers = ranked.map(\.1)
        }
        return NearestAnswer(
            query: .init(latitude: point.latitude, longitude: point.longitude), layer: layer.name,
            approximate: layer.approximation != nil, approximation: layer.approximation, order: order.rawValue,
            hits: answers)
    }

    /// The same over service layers already loaded, one group per layer in the order given.
    public func services(
        at point: Point, perType: Int, within maxMetres: Double? = nil, layers: [(type: String, layer: PointLayer)]
    ) -> ServicesAnswer {
        let groups = layers.map { type, layer in
            let answer = nearest(
                layer, to: point, limit: perType, within: maxMetres, order: .distance, links: [:],
                where: { layer.serviceTypes[$0] == type })
            return ServicesAnswer.Group(type: type, layer: layer.name, hits: answer.hits)
        }
        return ServicesAnswer(query: .init(latitude: point.latitude, longitude: point.longitude), groups: groups)
    }

    func hit(_ layer: PointLayer, _ h: NearestHit, links: [String: [String: Feature]]) -> NearestAnswer.Hit {
        let f = layer.features[h.item]
        let p = layer.positions[h.item]
        let category = layer.categories[h.item]
        var linked: [String: NearestAnswer.Linked] = [:]
        for link in layer.links {
            if let other = links[link.as]?[f.id] {
                // A linked feature without a name of its own is named after the feature that
                // links it by the shared id: Valencia's marquees carry only OBJECTID and the
                // commission's id, so a marquee goes by its commission's falla name.
                linked[link.as] = .init(
                    id: other.id, name: other.name ?? f.name, layer: link.layer, geometryType: other.geometry.typeName)
            }
        }
        return NearestAnswer.Hit(
            id: f.id, name: f.name, category: category?.words, categoryCode: category?.code,
            distanceMetres: (h.distance * 100).rounded() / 100, bearingDegrees: (h.bearing * 10).rounded() / 10,
            position: .init(latitude: p.latitude, longitude: p.longitude),
            geoURI: layer.geoURIs[h.item], links: linked.isEmpty ? nil : linked, pin: layer.pins[h.item])
    }
}
