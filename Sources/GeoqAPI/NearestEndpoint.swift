import GeoqCore
import GeoqQuery
import GeoqSchedule

/// `GET /v1/nearest?lat=&lon=&layer=L[&n=10][&within=M][&category=C...][&order=distance|category]`:
/// the answer of `geoq nearest`.
public enum NearestEndpoint {
    public static let parameters = EndpointDescription.nearest.parameterNames

    public static func answer(_ query: QueryParameters, data: ServiceData) throws(Problem) -> NearestAnswer {
        try query.allowOnly(parameters)
        let point = try query.point()
        guard let name = try query.value("layer"), !name.isEmpty else {
            throw .missing(
                "layer",
                LocalizedText(
                    es: "falta layer (una capa de puntos, véase /v1/layers)",
                    eu: "layer falta da (puntu-geruza bat, ikus /v1/layers)",
                    en: "layer (a point layer, see /v1/layers) is required"))
        }
        guard let layer = data.pointLayers[name] else {
            throw .unknownLayer(name, kind: "point", known: data.servedLayers(kind: "point"))
        }
        let limit = try query.integer("n", default: 10, in: 1...1000)
        let within = try query.metres("within")
        let categories = try query.values("category")
        let order = try query.choice(
            "order", of: NearestQuery.Order.allCases.map(\.rawValue), default: NearestQuery.Order.distance.rawValue)
        return NearestQuery(geodesic: data.geodesic).nearest(
            layer, to: point, limit: limit, within: within, categories: categories,
            order: NearestQuery.Order(rawValue: order) ?? .distance, links: data.links[name] ?? [:])
    }
}

/// `GET /v1/services?lat=&lon=[&type=T...][&n=3][&within=M]`: the answer of `geoq services`.
public enum ServicesEndpoint {
    public static let parameters = EndpointDescription.services.parameterNames

    public static func answer(_ query: QueryParameters, data: ServiceData) throws(Problem) -> ServicesAnswer {
        try query.allowOnly(parameters)
        let point = try query.point()
        let types = try query.values("type")
        let known = data.serviceLayers.map(\.type)
        for type in types where !known.contains(type) {
            let (shown, list) = (QueryParameters.shown(type), known.joined(separator: ", "))
            throw .invalid(
                "type",
                LocalizedText(
                    es: "no hay ningún tipo de servicio \"\(shown)\"; tipos: \(list)",
                    eu: "ez dago \"\(shown)\" zerbitzu-motarik; motak: \(list)",
                    en: "no service type \"\(shown)\"; types: \(list)"))
        }
        let perType = try query.integer("n", default: 3, in: 1...100)
        let within = try query.metres("within")
        let layers = data.serviceLayers.compactMap { entry -> (type: String, layer: PointLayer)? in
            guard types.isEmpty || types.contains(entry.type), let layer = data.pointLayers[entry.layer] else {
                return nil
            }
            return (entry.type, layer)
        }
        return NearestQuery(geodesic: data.geodesic).services(
            at: point, perType: perType, within: within, layers: layers)
    }
}

extension ServiceData {
    /// The names of the layers of `kind` that loaded.
    public func servedLayers(kind: String) -> [String] {
        layers.filter { $0.kind == kind && $0.error == nil }.map(\.name)
    }
}
