import GeoqCore
import GeoqJSON
import GeoqQuery
import GeoqSchedule

/// `GET /v1/layers/{name}[?bbox=W,S,E,N][&simplify=METRES][&lang=es|eu|en]`: a layer's features
/// as one GeoJSON FeatureCollection (RFC 7946, longitude first), for drawing the layer on a map.
///
/// The collection carries the layer's `name`, `title`, `kind` ("polygon" or "point"),
/// `approximate` and, when approximate, its `approximation` note in the request's language.
/// Each feature has its `id` and `properties.name` (null when it has none); a point layer's
/// features also `category` (words), `categoryCode`, `categoryRank` (the layer's order of
/// categories, smallest first: the Fallas' sections in competition order), `pin` and
/// `serviceType` (null when none).
///
/// `bbox` keeps the features whose bounding box meets it (edges included); `simplify` applies
/// ``DouglasPeucker`` at that many metres in the plane of each feature's latitude. The answer
/// depends only on the snapshot and ``Selection/canonicalKey``, which the service turns into
/// the ETag.
public enum LayerFeaturesEndpoint {
    /// The query parameters (the layer's name is in the path).
    public static let parameters = Set(
        EndpointDescription.layerFeatures.parameters.filter { $0.in == "query" }.map(\.name))

    /// The largest simplification tolerance, in metres.
    public static let maxSimplifyMetres = 10_000.0

    /// What a request asks for, read and checked.
    public struct Selection: Hashable, Sendable {
        public var layer: String
        /// Longitude and latitude bounds (x = longitude).
        public var bbox: BoundingBox?
        /// The tolerance in metres, when asked.
        public var simplify: Double?
        public var language: Language

        /// The request's parameters written one way (numbers as Swift's shortest round-trip
        /// form, fixed order): two requests with the same key get the same bytes from the same
        /// snapshot.
        public var canonicalKey: String {
            var key = "layer=\(layer)"
            if let bbox { key += "&bbox=\(bbox.minX),\(bbox.minY),\(bbox.maxX),\(bbox.maxY)" }
            if let simplify { key += "&simplify=\(simplify)" }
            return key + "&lang=\(language.rawValue)"
        }
    }

    /// The request read and checked against `data`: the layer must be served, `bbox` and
    /// `simplify` well formed. Problems are in the request's language.
    public static func selection(
        layer name: String, _ query: QueryParameters, data: ServiceData, acceptLanguage: String? = nil
    ) throws(Problem) -> Selection {
        try query.allowOnly(parameters)
        return try TariffEndpoint.inLanguage(query, acceptLanguage: acceptLanguage, default: .en) {
            language throws(Problem) in
            guard data.sectorLookups[name] != nil || data.pointLayers[name] != nil else {
                throw Problem.unknownLayer(name, known: data.layers.filter { $0.error == nil }.map(\.name))
            }
            let simplify = try query.number(
                "simplify", in: 0...maxSimplifyMetres,
                meaning: LocalizedText(
                    es: "tolerancia de simplificación en metros", eu: "sinplifikazio-tolerantzia metrotan",
                    en: "simplification tolerance in metres"))
            return Selection(layer: name, bbox: try bbox(query), simplify: simplify, language: language)
        }
    }

    /// The FeatureCollection's bytes (UTF-8 JSON, keys sorted) for a `selection` made from `data`.
    public static func body(_ selection: Selection, data: ServiceData) -> [UInt8] {
        var json = JSONText(reservingCapacity: 1 << 16)
        if let lookup = data.sectorLookups[selection.layer] {
            let layer = lookup.layer
            let kept = layer.features.indices.filter { index in
                selection.bbox.map { layer.index.boundingBox(of: index).intersects($0) } ?? true
            }
            json.object { json in
                writeHeader(
                    &json, approximation: layer.approximation?[selection.language],
                    features: {
                        json in
                        for index in kept {
                            writeFeature(&json, layer.features[index], simplify: selection.simplify) { _ in }
                        }
                    }, kind: "polygon", name: layer.name, title: layer.title)
            }
        } else if let layer = data.pointLayers[selection.layer] {
            let kept = layer.features.indices.filter { index in
                selection.bbox.map { layer.features[index].geometry.boundingBox.intersects($0) } ?? true
            }
            json.object { json in
                writeHeader(
                    &json, approximation: layer.approximation,
                    features: { json in
                        for index in kept {
                            let category = layer.categories[index]
                            writeFeature(&json, layer.features[index], simplify: selection.simplify) { json in
                                json.key("category")
                                category.map { json.string($0.words) } ?? json.null()
                                json.key("categoryCode")
                                category.map { json.string($0.code) } ?? json.null()
                                json.key("categoryRank")
                                category.map { json.number($0.rank) } ?? json.null()
                            } after: { json in
                                json.key("pin")
                                layer.pins[index].map { json.string($0) } ?? json.null()
                                json.key("serviceType")
                                layer.serviceTypes[index].map { json.string($0) } ?? json.null()
                            }
                        }
                    }, kind: "point", name: layer.name, title: layer.title)
            }
        }
        return json.bytes
    }

    /// The collection's members, in sorted key order.
    private static func writeHeader(
        _ json: inout JSONText, approximation: String?, features: (inout JSONText) -> Void, kind: String,
        name: String, title: String
    ) {
        json.key("approximate")
        json.bool(approximation != nil)
        json.member("approximation", approximation) { $0.string($1) }
        json.key("features")
        json.array(features)
        json.key("kind")
        json.string(kind)
        json.key("name")
        json.string(name)
        json.key("title")
        json.string(title)
        json.key("type")
        json.string("FeatureCollection")
    }

    /// One feature: `before` writes the properties sorting before `name`, `after` those after it.
    private static func writeFeature(
        _ json: inout JSONText, _ feature: Feature, simplify: Double?, before: (inout JSONText) -> Void,
        after: (inout JSONText) -> Void = { _ in }
    ) {
        var geometry = feature.geometry
        if let simplify {
            let metric = LocalMetric(wgs84AtLatitude: geometry.boundingBox.center.latitude)
            geometry = DouglasPeucker.simplify(geometry, tolerance: simplify, metric: metric)
        }
        json.object { json in
            json.key("geometry")
            json.geoJSONGeometry(geometry)
            json.key("id")
            json.string(feature.id)
            json.key("properties")
            json.object { json in
                before(&json)
                json.key("name")
                feature.name.map { json.string($0) } ?? json.null()
                after(&json)
            }
            json.key("type")
            json.string("Feature")
        }
    }

    /// `bbox=west,south,east,north` in degrees, longitude first (GeoJSON's order), or nil.
    static func bbox(_ query: QueryParameters) throws(Problem) -> BoundingBox? {
        guard let text = try query.value("bbox") else { return nil }
        let shown = QueryParameters.shown(text)
        let meaning = LocalizedText(
            es: "oeste,sur,este,norte en grados", eu: "mendebaldea,hegoaldea,ekialdea,iparraldea gradutan",
            en: "west,south,east,north in degrees")
        let numbers = try QueryParameters.numbers(
            text, parameter: "bbox", counts: [4],
            shape: LocalizedText(
                es: "cuatro números (\(meaning.es))", eu: "lau zenbaki (\(meaning.eu))",
                en: "four numbers (\(meaning.en))"), meaning: meaning)
        let (west, south, east, north) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard [west, east].allSatisfy({ (-180...180).contains($0) }),
            [south, north].allSatisfy({ (-90...90).contains($0) })
        else {
            throw .outOfRange(
                "bbox",
                LocalizedText(
                    es: "bbox: las longitudes van de -180 a 180 y las latitudes de -90 a 90; se recibió \"\(shown)\"",
                    eu: "bbox: longitudeak -180 eta 180 artean, latitudeak -90 eta 90 artean; \"\(shown)\" jaso da",
                    en: "bbox: longitudes must be between -180 and 180, latitudes between -90 and 90, got \"\(shown)\""
                ))
        }
        guard west <= east, south <= north else {
            throw .invalid(
                "bbox",
                LocalizedText(
                    es:
                        "bbox va en el orden oeste,sur,este,norte (oeste <= este, sur <= norte); se recibió \"\(shown)\"",
                    eu:
                        "bbox mendebaldea,hegoaldea,ekialdea,iparraldea ordenan doa (mendebaldea <= ekialdea, hegoaldea <= iparraldea); \"\(shown)\" jaso da",
                    en: "bbox is west,south,east,north (west <= east, south <= north), got \"\(shown)\""))
        }
        return BoundingBox(minX: west, minY: south, maxX: east, maxY: north)
    }
}
