/// The value formats the endpoints read, as JSON Schema: what a client (or schemathesis) may
/// send and expect to be read.
extension OpenAPIDocument.Schema {
    /// A screen size in pixels: more than 0, at most 100,000.
    static let pixels = OpenAPIDocument.Schema(type: "number", maximum: 100_000, exclusiveMinimum: 0)

    /// An amount of euros with a point or a comma: `1.25`, `1,25`, `3`.
    static let amount = string(pattern: "^[0-9]{1,4}([.,][0-9]{1,2})?$")

    /// A wall-clock date and time without an offset, `2026-11-23T13:50` (seconds optional), on a
    /// day every month has.
    static let wallClock = string(
        pattern: "^20[2-9][0-9]-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$")

    /// An instant: a date and time with `Z` or an offset, `2026-07-15T12:00:00Z`.
    static let instant = string(
        pattern: "^20[2-9][0-9]-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?"
            + "(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9])$")

    /// A box `west,south,east,north` in degrees, longitude first.
    static let bbox = string(pattern: "^\(longitudeText),\(latitudeText),\(longitudeText),\(latitudeText)$")

    /// A latitude and a longitude as decimal text (regular-expression fragments).
    static let latitudeText = "-?([0-8]?[0-9](\\.[0-9]{1,8})?|90(\\.0{1,8})?)"
    static let longitudeText = "-?((1[0-7][0-9]|[0-9]?[0-9])(\\.[0-9]{1,8})?|180(\\.0{1,8})?)"

    /// A batch body of NDJSON lines `{"lat": .., "lon": ..}`.
    static let ndjsonPoints = string(pattern: "^(\\{\"lat\": \(latitudeText), \"lon\": \(longitudeText)\\}\\n){1,50}$")

    /// A batch body of CSV lines `lat,lon`.
    static let csvPoints = string(pattern: "^(\(latitudeText),\(longitudeText)\\n){1,50}$")

    /// A GeoJSON FeatureCollection of Points, longitude first; at most `maxFeatures`.
    static func featureCollectionOfPoints(maxFeatures: Int) -> Self {
        // Longitude and latitude; anything after them (an altitude) is not read.
        let position = Self(type: "array", prefixItems: [.number(-180...180), .number(-90...90)], minItems: 2)
        let point = Self(
            type: "object", properties: ["type": .choice(["Point"]), "coordinates": position],
            required: ["type", "coordinates"])
        // A feature's own "type" member is not read (a batch is its features' geometries).
        let feature = Self(type: "object", properties: ["geometry": point], required: ["geometry"])
        return Self(
            type: "object",
            properties: [
                "type": .choice(["FeatureCollection"]),
                "features": Self(type: "array", items: [feature], minItems: 1, maxItems: maxFeatures),
            ], required: ["type", "features"])
    }
}
