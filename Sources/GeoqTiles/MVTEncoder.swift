/// Writes layers of grid features as a Mapbox Vector Tile 2.1 `Tile` message (vector_tile.proto
/// 2.1), by hand: no protobuf library.
///
/// Layout, byte for byte what the reference encoders write: each layer as `Tile.layers` (3),
/// its fields in the order version (15, always 2), name (1), features (2), keys (3), values (4),
/// extent (5); each feature's fields in the order id (1, when it has one), tags (2, packed, when
/// it has attributes), type (3), geometry (4, packed). Keys and values are deduplicated per
/// layer and numbered in the order their first feature uses them. A layer left without features
/// is not written (§4.1: a layer should have features).
///
/// Size cap: when the tile would be larger than `maximumBytes`, features are left out, densest
/// first, until it fits. A feature's density is the bytes of its geometry commands per square
/// grid unit of ``TileGeometry/coveredArea`` (for polygons their clipped area, for points and
/// lines their bounding box, at least 1), so that what goes first is what costs the most bytes
/// for the least visible surface: clusters of points and vertex-heavy small shapes before large
/// plain areas. Of equal densities, the later feature (later layer, then later in its layer)
/// goes first. The cap counts every byte of the message; keys and values used only by features
/// left out are not written.
public enum MVTEncoder {
    /// Tippecanoe's default cap on a tile, 500 kB.
    public static let defaultMaximumBytes = 500_000

    /// The tile of `layers`, and per layer the counts of features kept and left out. Without a
    /// cap (`maximumBytes` nil) every feature is written.
    public static func encode(_ layers: [TileLayer], maximumBytes: Int? = defaultMaximumBytes) throws(TileError)
        -> EncodedTile
    {
        var names = Set<String>()
        for layer in layers where !names.insert(layer.name).inserted { throw .duplicateLayerName(layer.name) }

        var prepared = layers.map { PreparedLayer($0) }
        var overCap = [Int](repeating: 0, count: layers.count)
        if let maximumBytes, tileSize(prepared) > maximumBytes {
            overCap = leaveOutDensest(&prepared, maximumBytes: maximumBytes)
        }

        var tile = ProtobufWriter(capacity: Swift.min(tileSize(prepared), maximumBytes ?? Int.max))
        var body = ProtobufWriter()
        for layer in prepared where layer.keptCount > 0 {
            body.bytes.removeAll(keepingCapacity: true)
            layer.writeKept(to: &body)
            tile.key(3, .lengthDelimited)
            tile.varint(UInt64(body.bytes.count))
            tile.bytes.append(contentsOf: body.bytes)
        }
        let reports = layers.indices.map { i in
            TileLayerReport(
                name: layers[i].name, featuresKept: prepared[i].keptCount, featuresTooSmall: layers[i].featuresTooSmall,
                featuresOverSizeCap: overCap[i], featuresOutside: layers[i].featuresOutside)
        }
        return EncodedTile(bytes: tile.bytes, layers: reports)
    }

    /// The bytes of the tile with every layer's kept features and all of its keys and values:
    /// at least what ``PreparedLayer/writeKept(to:)`` writes.
    static func tileSize(_ layers: [PreparedLayer]) -> Int {
        var size = 0
        for layer in layers where layer.keptCount > 0 { size += ProtobufWriter.embeddedSize(layer.bodySize) }
        return size
    }

    /// Leaves features out, densest first, until the tile fits in `maximumBytes`; the number
    /// left out of each layer.
    static func leaveOutDensest(_ layers: inout [PreparedLayer], maximumBytes: Int) -> [Int] {
        struct Candidate {
            var density: Double
            var layer: Int
            var feature: Int
        }
        var candidates: [Candidate] = []
        candidates.reserveCapacity(layers.reduce(0) { $0 + $1.features.count })
        for (l, layer) in layers.enumerated() {
            for f in layer.features.indices {
                candidates.append(Candidate(density: layer.density(of: f), layer: l, feature: f))
            }
        }
        candidates.sort {
            if $0.density != $1.density { return $0.density > $1.density }
            return ($0.layer, $0.feature) > ($1.layer, $1.feature)
        }
        var left = [Int](repeating: 0, count: layers.count)
        var size = tileSize(layers)
        for candidate in candidates {
            guard size > maximumBytes else { break }
            let before =
                layers[candidate.layer].keptCount > 0
                ? ProtobufWriter.embeddedSize(layers[candidate.layer].bodySize) : 0
            layers[candidate.layer].leaveOut(candidate.feature)
            let after =
                layers[candidate.layer].keptCount > 0
                ? ProtobufWriter.embeddedSize(layers[candidate.layer].bodySize) : 0
            size += after - before
            left[candidate.layer] += 1
        }
        return left
    }
}
