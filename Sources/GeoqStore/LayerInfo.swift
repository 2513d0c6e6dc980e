import GeoqCore

/// What a store knows about one layer, without reading its features.
public struct LayerInfo: Codable, Sendable, Hashable {
    public var name: String
    public var title: String
    /// The GeoPackage geometry type name: `POINT`, `MULTIPOLYGON`… or `GEOMETRY` for mixed layers.
    public var geometryType: String
    public var featureCount: Int
    /// The layer's extent in longitude/latitude; nil for a layer without features.
    public var extent: BoundingBox?
    public var source: String
    public var sourceCRS: String
    /// When the layer was written, ISO 8601 UTC (`2026-11-22T05:40:12.345Z`).
    public var importedAt: String
    public var approximate: String?
    public var notes: [String]

    public init(
        name: String, title: String, geometryType: String, featureCount: Int, extent: BoundingBox?,
        source: String, sourceCRS: String, importedAt: String, approximate: String?, notes: [String]
    ) {
        self.name = name
        self.title = title
        self.geometryType = geometryType
        self.featureCount = featureCount
        self.extent = extent
        self.source = source
        self.sourceCRS = sourceCRS
        self.importedAt = importedAt
        self.approximate = approximate
        self.notes = notes
    }

    private enum CodingKeys: String, CodingKey {
        case name, title, geometryType, featureCount, extent, source, sourceCRS, importedAt, approximate, notes
    }

    /// `extent` is coded as `[minX, minY, maxX, maxY]` (GeoJSON bbox order) or null.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        title = try c.decode(String.self, forKey: .title)
        geometryType = try c.decode(String.self, forKey: .geometryType)
        featureCount = try c.decode(Int.self, forKey: .featureCount)
        if let box = try c.decodeIfPresent([Double].self, forKey: .extent) {
            guard box.count == 4 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .extent, in: c, debugDescription: "extent needs 4 numbers, found \(box.count)")
            }
            extent = BoundingBox(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3])
        } else {
            extent = nil
        }
        source = try c.decode(String.self, forKey: .source)
        sourceCRS = try c.decode(String.self, forKey: .sourceCRS)
        importedAt = try c.decode(String.self, forKey: .importedAt)
        approximate = try c.decodeIfPresent(String.self, forKey: .approximate)
        notes = try c.decode([String].self, forKey: .notes)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(title, forKey: .title)
        try c.encode(geometryType, forKey: .geometryType)
        try c.encode(featureCount, forKey: .featureCount)
        if let extent {
            try c.encode([extent.minX, extent.minY, extent.maxX, extent.maxY], forKey: .extent)
        } else {
            try c.encodeNil(forKey: .extent)
        }
        try c.encode(source, forKey: .source)
        try c.encode(sourceCRS, forKey: .sourceCRS)
        try c.encode(importedAt, forKey: .importedAt)
        try c.encodeIfPresent(approximate, forKey: .approximate)
        try c.encode(notes, forKey: .notes)
    }
}
