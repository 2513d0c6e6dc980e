import GeoqCore
import GeoqQuery

// The nearest and services queries over layers named in the library, each loaded (or taken from
// the library's cache) with the layers it links to.

extension NearestQuery {
    /// The `limit` nearest features of `layer` to `point` (within `maxMetres` if given), keeping
    /// only the `categories` named (by code or words) if any, in `order`. Linked features are
    /// looked up in `library`.
    public func nearest(
        _ layer: PointLayer, to point: Point, limit: Int, within maxMetres: Double? = nil, categories: [String] = [],
        order: Order = .distance, library: LayerLibrary? = nil
    ) throws(LayerError) -> NearestAnswer {
        var links: [String: [String: Feature]] = [:]
        if let library {
            for link in layer.links { links[link.as] = try library.featuresByID(of: link.layer) }
        }
        return nearest(
            layer, to: point, limit: limit, within: maxMetres, categories: categories, order: order, links: links)
    }

    /// For each service layer of `library` (optionally only the `types` named), the `perType`
    /// nearest features within `maxMetres`.
    public func services(
        at point: Point, types: [String] = [], perType: Int, within maxMetres: Double? = nil, library: LayerLibrary
    ) throws(LayerError) -> ServicesAnswer {
        let known = library.serviceLayers
        for wanted in types where !known.contains(where: { $0.type == wanted }) {
            throw .unknownLayer(name: "service type '\(wanted)'", known: known.map(\.type))
        }
        var layers: [(type: String, layer: PointLayer)] = []
        for (type, name) in known where types.isEmpty || types.contains(type) {
            layers.append((type, try library.pointLayer(named: name)))
        }
        return services(at: point, perType: perType, within: maxMetres, layers: layers)
    }
}
