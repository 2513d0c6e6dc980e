import GeoqCore

/// Features in longitude and latitude in, one Mapbox Vector Tile 2.1 out: each feature
/// projected, clipped, simplified and rounded by ``TileFeatureBuilder``, the layers written by
/// ``MVTEncoder`` under the size cap.
///
/// The caller hands in the features that may meet the tile (from the spatial index); the others
/// are counted as outside. Work is proportional to the features' vertices; one builder's buffers
/// serve every feature of the call.
public struct VectorTileEncoder: Sendable {
    public var options: TileEncodingOptions

    public init(options: TileEncodingOptions = TileEncodingOptions()) {
        self.options = options
    }

    /// The tile `tile` of `layers`, with what each layer kept and left out.
    public func encode(_ tile: TileID, layers: [VectorTileLayer]) throws(TileError) -> EncodedTile {
        var names = Set<String>()
        for layer in layers where !names.insert(layer.name).inserted { throw .duplicateLayerName(layer.name) }
        var builder = TileFeatureBuilder(tile: tile, options: options)
        var tileLayers: [TileLayer] = []
        tileLayers.reserveCapacity(layers.count)
        for layer in layers {
            var features: [TileFeature] = []
            features.reserveCapacity(layer.features.count)
            var tooSmall = 0
            var outside = 0
            for feature in layer.features {
                switch builder.build(feature) {
                case .feature(let built): features.append(built)
                case .tooSmall: tooSmall += 1
                case .outside: outside += 1
                }
            }
            tileLayers.append(
                TileLayer(
                    name: layer.name, extent: options.extent, features: features, featuresTooSmall: tooSmall,
                    featuresOutside: outside))
        }
        return try MVTEncoder.encode(tileLayers, maximumBytes: options.maximumTileBytes)
    }
}
