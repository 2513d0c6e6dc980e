import Foundation
import GeoqCore
import GeoqFormats
import GeoqJSON
import GeoqQuery
import GeoqSchedule

/// `POST /v1/sector:batch[?layer=NAME]`: many points in one body, one which-sector answer each,
/// in the body's order, as NDJSON (the lines of `geoq which-sector --batch --format json`).
///
/// The body is one of:
/// - lines (`application/x-ndjson`, `application/jsonl`, `text/csv`, `text/plain`): NDJSON
///   objects `{"lat": .., "lon": .., "id": ..}` or CSV `lat,lon[,id]`, read as the command
///   line's `--batch` reads them (`BatchReader`: blank and `#` lines skipped, a header may put
///   longitude first); each answer carries its `line`;
/// - a GeoJSON FeatureCollection of points (`application/geo+json`, `application/json`),
///   longitude first as GeoJSON is; each answer carries its `feature` number and the feature's
///   `id`.
///
/// The whole body is read and checked before the first answer: a body that is not UTF-8, not
/// JSON, or holds a line or feature that is not a valid point is a 400 naming the line or
/// feature, and nothing is answered; a 200 stream holds only answers (and, if the time limit
/// runs out, a last line saying so).
public enum SectorBatchEndpoint {
    public static let parameters = EndpointDescription.sectorBatch.parameterNames
    /// The media types of line bodies and of FeatureCollection bodies.
    public static let lineMediaTypes = ["application/x-ndjson", "application/jsonl", "text/csv", "text/plain"]
    public static let collectionMediaTypes = ["application/geo+json", "application/json"]
    /// The media type of the answer stream.
    public static let answerMediaType = "application/x-ndjson"

    /// One point of a batch, and where it stood in the body.
    public struct Item: Hashable, Sendable {
        public var point: Point
        public var id: String?
        /// Its line (line bodies) or its feature number (FeatureCollections), from 1.
        public var line: Int?
        public var feature: Int?
    }

    /// The layer a batch is answered against (query parameter `layer`, default the catalog's).
    public struct Target: Sendable {
        let lookup: SectorLookup
        let others: [Layer]
        /// The language of an approximate layer's note in every answer.
        let language: Language

        /// The answer to `item` as one NDJSON line (ending in a newline): the which-sector JSON
        /// answer with the item's `line` or `feature`, and its `id`.
        public func answerLine(_ item: Item) -> [UInt8] {
            var json = JSONText(reservingCapacity: 640)
            lookup.answer(for: item.point, language: language, at: Date(), swapCandidates: { others }).write(
                to: &json, line: item.line, feature: item.feature, id: item.id)
            var line = json.bytes
            line.append(UInt8(ascii: "\n"))
            return line
        }
    }

    /// The layer and language of a batch: `layer` (default the catalog's), `lang`, else the
    /// first of es/eu/en in `acceptLanguage`, else English (as `/v1/sector`).
    public static func target(_ query: QueryParameters, data: ServiceData, acceptLanguage: String? = nil)
        throws(Problem) -> Target
    {
        try query.allowOnly(parameters)
        let language = try TariffEndpoint.language(query, acceptLanguage: acceptLanguage, default: .en)
        let name = try query.value("layer") ?? data.defaultSectorLayer
        guard let lookup = data.sectorLookups[name] else {
            throw .unknownLayer(name, kind: "polygon", known: data.servedLayers(kind: "polygon"))
        }
        return Target(
            lookup: lookup,
            others: data.layers.compactMap { $0.name == name ? nil : data.sectorLookups[$0.name]?.layer },
            language: language)
    }

    /// The points of `body`, read per `contentType`, at most `maxPoints` of them.
    public static func items(_ body: Data, contentType: String?, maxPoints: Int) throws(Problem) -> [Item] {
        let mediaType = contentType?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let items: [Item]
        if let mediaType, lineMediaTypes.contains(mediaType) {
            items = try lines(body, maxPoints: maxPoints)
        } else if let mediaType, collectionMediaTypes.contains(mediaType) {
            items = try features(body, maxPoints: maxPoints)
        } else {
            throw .unsupportedMediaType(contentType, accepted: lineMediaTypes + collectionMediaTypes)
        }
        guard !items.isEmpty else {
            throw .malformedBody(
                LocalizedText(
                    es: "el cuerpo no contiene ningún punto", eu: "gorputzak ez du punturik",
                    en: "the body holds no points"))
        }
        return items
    }

    static func lines(_ body: Data, maxPoints: Int) throws(Problem) -> [Item] {
        guard let text = String(data: body, encoding: .utf8) else {
            throw .malformedBody(
                LocalizedText(
                    es: "el cuerpo no es texto UTF-8", eu: "gorputza ez da UTF-8 testua",
                    en: "the body is not UTF-8 text"))
        }
        var reader = BatchReader()
        var items: [Item] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard let item = reader.item(line: String(line), number: number) else { continue }
            switch item.result {
            case .success(let point):
                guard items.count < maxPoints else { throw .batchTooLarge(count: maxPoints + 1, limit: maxPoints) }
                items.append(Item(point: point, id: item.id, line: item.line))
            case .failure(let error):
                throw .malformedBody(error.localized, line: item.line)
            }
        }
        return items
    }

    static func features(_ body: Data, maxPoints: Int) throws(Problem) -> [Item] {
        let collection: FeatureCollection
        do throws(FormatError) {
            collection = try GeoJSONReader().read(data: body, source: "body")
        } catch {
            throw .malformedBody(error.description, line: error.line, feature: error.featureNumber)
        }
        guard collection.features.count <= maxPoints else {
            throw .batchTooLarge(count: collection.features.count, limit: maxPoints)
        }
        var items: [Item] = []
        for (index, feature) in collection.features.enumerated() {
            let number = index + 1
            guard case .point(let point) = feature.geometry else {
                throw .malformedBody(
                    LocalizedText(
                        es: "entidad \(number): la geometría no es un Point (un lote son puntos, longitud primero)",
                        eu:
                            "\(number). elementua: geometria ez da Point bat (sorta bat puntuak dira, longitudea lehenik)",
                        en: "feature \(number): the geometry is not a Point (a batch is points, longitude first)"),
                    feature: number)
            }
            do throws(CoordinateRangeError) {
                items.append(Item(point: try point.validatedGeographic(), id: feature.id, feature: number))
            } catch {
                let range = error.localized
                throw .malformedBody(
                    LocalizedText(
                        es: "entidad \(number): \(range.es) (GeoJSON pone primero la longitud)",
                        eu: "\(number). elementua: \(range.eu) (GeoJSON-ek longitudea jartzen du lehenik)",
                        en: "feature \(number): \(range.en) (GeoJSON is longitude first)"),
                    feature: number)
            }
        }
        return items
    }

    /// The last line of a stream cut short by the time limit.
    public static func timeLimitLine(answered: Int, of total: Int, limit: Duration) -> Data {
        let message =
            "stopped after \(answered) of \(total) points: the batch took longer than \(limit) "
            + "(geoq serve --request-timeout); send the rest again"
        let object: [String: Any] = ["error": ["code": "time-limit", "message": message], "answered": answered]
        var data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
