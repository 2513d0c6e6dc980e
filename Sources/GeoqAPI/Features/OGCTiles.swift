import Foundation
import GeoqCore
import GeoqJSON
import GeoqQuery
import GeoqSchedule
import GeoqTiles

/// Vector tiles of the collections (OGC API - Tiles, the WebMercatorQuad tile matrix set):
///
/// | path | answer |
/// |---|---|
/// | `/ogc/collections/{id}/tiles` | the collection's tilesets (one: WebMercatorQuad) |
/// | `/ogc/collections/{id}/tiles/WebMercatorQuad` | the tileset's metadata; `f=tilejson`: TileJSON 3.0 |
/// | `/ogc/collections/{id}/tiles/WebMercatorQuad/{z}/{y}/{x}` | the tile, Mapbox Vector Tile 2.1 |
///
/// A tile is cut from the snapshot's features (no store in the way): those whose bounds meet
/// the tile with its buffer, clipped, simplified below ``simplifiedBelow`` and encoded by
/// ``VectorTileEncoder`` with every property as a tile value, under the 500 KB cap. The layer in
/// the tile is named as the collection.
public enum OGCTiles {
    public static let tileMatrixSet = "WebMercatorQuad"
    /// The zooms served. Beyond 22 a tile is narrower than 10 m: a client over-zooms.
    public static let zooms = 0...22
    /// The zoom from which tiles keep every vertex (a grid unit is then under 60 cm at the
    /// equator, finer than any of the layers' sources).
    public static let simplifiedBelow = 15

    public static let mediaType = "application/vnd.mapbox-vector-tile"

    /// The tiler of collection `id` (the service keeps one per snapshot and collection).
    public static func tiler(_ id: String, data: ServiceData) throws(Problem) -> LayerTiler {
        let collection = try OGCCollection.named(id, in: data)
        return LayerTiler(name: collection.id, features: collection.features, simplifiedBelow: simplifiedBelow)
    }

    /// The tile `z/y/x` of `tiler`'s layer (rows from the north, as WebMercatorQuad counts them).
    public static func tile(_ tiler: LayerTiler, z: Int, y: Int, x: Int) throws(Problem) -> EncodedTile {
        let tile = try tileID(z: z, y: y, x: x)
        do throws(TileError) { return try tiler.tile(tile) } catch {
            throw Problem.internalError("the tile could not be encoded: \(error)")
        }
    }

    /// The tile `z/y/x` of collection `id`.
    public static func tile(_ id: String, z: Int, y: Int, x: Int, data: ServiceData) throws(Problem) -> EncodedTile {
        try tile(tiler(id, data: data), z: z, y: y, x: x)
    }

    /// A tile number of the path (`z`, `y` or `x`): digits only, else a 400 naming which.
    public static func pathNumber(_ text: String, _ name: String) throws(Problem) -> Int {
        // Read as a query parameter of that name is read: the same rule, the same words.
        try QueryParameters([(name: name, value: text)]).integer(name, in: 0...Int(Int32.max)) ?? 0
    }

    static func tileID(z: Int, y: Int, x: Int) throws(Problem) -> TileID {
        guard zooms.contains(z) else {
            throw Problem.outOfRange(
                "z",
                LocalizedText(
                    es: "el nivel de zoom va de 0 a \(zooms.upperBound); se recibió \(z)",
                    eu: "zoom-maila 0 eta \(zooms.upperBound) artean dago; \(z) jaso da",
                    en: "the zoom level is 0 to \(zooms.upperBound), got \(z)"))
        }
        let side = 1 << z
        for (name, value) in [("y", y), ("x", x)] where !(0..<side).contains(value) {
            throw Problem.outOfRange(
                name,
                LocalizedText(
                    es: "\(name) va de 0 a \(side - 1) en el zoom \(z); se recibió \(value)",
                    eu: "\(name) 0 eta \(side - 1) artean dago \(z) zoomean; \(value) jaso da",
                    en: "\(name) is 0 to \(side - 1) at zoom \(z), got \(value)"))
        }
        do throws(TileError) { return try TileID(z: z, x: x, y: y) } catch {
            throw Problem.internalError("tile \(z)/\(y)/\(x): \(error)")
        }
    }

    // MARK: - Documents

    /// The URI template of a collection's tiles.
    static func tileTemplate(_ id: String, origin: String) -> String {
        origin + OGCFeatures.collectionPath(id) + "/tiles/\(tileMatrixSet)/{z}/{y}/{x}"
    }

    /// `/ogc/collections/{id}/tiles`: the tilesets of the collection.
    public static func tilesets(_ id: String, _ request: OGCFeatures.Request, data: ServiceData) throws(Problem)
        -> OGCFeatures.Answer
    {
        try request.query.allowOnly(["f", "lang"])
        let collection = try OGCCollection.named(id, in: data)
        let language = try TariffEndpoint.language(request.query, acceptLanguage: request.acceptLanguage, default: .en)
        _ = try request.query.choice("f", of: ["json"], default: "json")
        var json = JSONText(reservingCapacity: 1024)
        json.object { json in
            json.key("tilesets")
            json.array { json in
                json.object { json in
                    tilesetHead(&json, collection, language)
                    OGCFeatures.JSONDocuments.links(&json, tilesetLinks(collection, request.origin))
                }
            }
        }
        return OGCFeatures.Answer(contentType: OGCFeatures.json, body: json.bytes)
    }

    /// `/ogc/collections/{id}/tiles/WebMercatorQuad`: the tileset's metadata (OGC API - Tiles),
    /// or with `f=tilejson` the TileJSON 3.0 document map libraries read.
    public static func tileset(_ id: String, _ request: OGCFeatures.Request, data: ServiceData) throws(Problem)
        -> OGCFeatures.Answer
    {
        try request.query.allowOnly(["f", "lang"])
        let collection = try OGCCollection.named(id, in: data)
        let language = try TariffEndpoint.language(request.query, acceptLanguage: request.acceptLanguage, default: .en)
        let format = try request.query.choice("f", of: ["json", "tilejson"], default: "json")
        let extent = collection.extent
        if format == "tilejson" {
            let document = TileJSON(
                name: collection.id, description: OGCFeatures.Words.describe(collection, language),
                tiles: [tileTemplate(collection.id, origin: request.origin)], zooms: zooms, extent: extent,
                attributes: collection.queryables.map { ($0.name, $0.type) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let body = try? encoder.encode(document) else {
                throw Problem.internalError("could not encode the TileJSON document")
            }
            return OGCFeatures.Answer(contentType: OGCFeatures.json, body: Array(body))
        }
        var json = JSONText(reservingCapacity: 2048)
        json.object { json in
            tilesetHead(&json, collection, language)
            json.key("tileMatrixSetLimits")
            json.array { json in
                for z in zooms {
                    let range = try? TileID.tiles(covering: extent.isEmpty ? worldBox : extent, zoom: z)
                    guard let first = range?.first, let last = range?.last else { continue }
                    json.object { json in
                        json.key("tileMatrix")
                        json.string(String(z))
                        json.key("minTileRow")
                        json.number(first.y)
                        json.key("maxTileRow")
                        json.number(last.y)
                        json.key("minTileCol")
                        json.number(first.x)
                        json.key("maxTileCol")
                        json.number(last.x)
                    }
                }
            }
            json.key("layers")
            json.array { json in
                json.object { json in
                    json.key("id")
                    json.string(collection.id)
                    json.key("dataType")
                    json.string("vector")
                    json.key("geometryType")
                    json.string(
                        collection.kind == .polygon ? "polygons" : collection.kind == .point ? "points" : "geometry")
                    json.key("minTileMatrix")
                    json.string(String(zooms.lowerBound))
                    json.key("maxTileMatrix")
                    json.string(String(zooms.upperBound))
                }
            }
            OGCFeatures.JSONDocuments.links(&json, tilesetLinks(collection, request.origin))
        }
        return OGCFeatures.Answer(contentType: OGCFeatures.json, body: json.bytes)
    }

    static let worldBox = BoundingBox(minX: -180, minY: -85, maxX: 180, maxY: 85)

    /// The members a tileset has in the list and in its own document.
    static func tilesetHead(_ json: inout JSONText, _ collection: OGCCollection, _ language: Language) {
        json.key("title")
        json.string(collection.title(in: language))
        json.key("dataType")
        json.string("vector")
        json.key("crs")
        json.string("http://www.opengis.net/def/crs/EPSG/0/3857")
        json.key("tileMatrixSetURI")
        json.string("http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad")
    }

    static func tilesetLinks(_ collection: OGCCollection, _ origin: String) -> [OGCLink] {
        let tileset = origin + OGCFeatures.collectionPath(collection.id) + "/tiles/\(tileMatrixSet)"
        return [
            OGCLink(href: tileset, rel: "self", type: OGCFeatures.json, title: "The tileset"),
            OGCLink(
                href: tileset + "?f=tilejson", rel: "describedby", type: OGCFeatures.json, title: "TileJSON 3.0"),
            OGCLink(
                href: tileTemplate(collection.id, origin: origin), rel: "item", type: mediaType,
                title: "The tiles (Mapbox Vector Tile 2.1)"),
            OGCLink(
                href: "http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad",
                rel: "http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme", type: OGCFeatures.json,
                title: "WebMercatorQuad"),
            OGCLink(
                href: origin + OGCFeatures.collectionPath(collection.id), rel: "collection", type: OGCFeatures.json,
                title: "The collection"),
        ]
    }

}
