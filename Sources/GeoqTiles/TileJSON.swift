import GeoqCore

/// A layer's TileJSON 3.0 document, the one description of its tiles the service answers
/// (`?f=tilejson`) and `geoq tiles export` writes as an archive's metadata: name, zooms, bounds,
/// and the one vector layer with its fields.
public struct TileJSON: Encodable, Sendable {
    public struct VectorLayer: Encodable, Sendable {
        public var id: String
        /// Each field's TileJSON type (Number, Boolean or String).
        public var fields: [String: String]
        public var minzoom: Int
        public var maxzoom: Int
    }

    public var tilejson = "3.0.0"
    public var name: String
    public var description: String
    /// URL templates of the tiles; none in an archive, which holds them.
    public var tiles: [String]?
    public var minzoom: Int
    public var maxzoom: Int
    /// West, south, east, north in degrees; none for a layer without features.
    public var bounds: [Double]?
    public var generator = "geoq"
    public var vectorLayers: [VectorLayer]

    enum CodingKeys: String, CodingKey {
        case tilejson, name, description, tiles, minzoom, maxzoom, bounds, generator
        case vectorLayers = "vector_layers"
    }

    /// - Parameter attributes: the layer's properties with their types as the layer describes
    ///   them (`number`, `boolean`, else text); the tiles' `id` and `name` values are added.
    public init(
        name: String, description: String, tiles: [String]?, zooms: ClosedRange<Int>, extent: BoundingBox,
        attributes: [(name: String, type: String)]
    ) {
        var fields = ["id": "String", "name": "String"]
        for attribute in attributes { fields[attribute.name] = Self.tileJSONType(attribute.type) }
        self.name = name
        self.description = description
        self.tiles = tiles
        minzoom = zooms.lowerBound
        maxzoom = zooms.upperBound
        bounds = extent.isEmpty ? nil : [extent.minX, extent.minY, extent.maxX, extent.maxY]
        vectorLayers = [VectorLayer(id: name, fields: fields, minzoom: zooms.lowerBound, maxzoom: zooms.upperBound)]
    }

    /// TileJSON's type of a field whose values are `attributeType` (`number`, `boolean`, or
    /// anything else for text): Number, Boolean or String.
    static func tileJSONType(_ attributeType: String) -> String {
        switch attributeType {
        case "number": "Number"
        case "boolean": "Boolean"
        default: "String"
        }
    }
}
