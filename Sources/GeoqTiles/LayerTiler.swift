import GeoqCore

/// A layer ready to be cut into tiles, the one way the service and `geoq tiles export` cut them:
/// each feature's bounds computed once (the work of a tile is then a pass over the bounds and
/// the vertices of the features that may meet it), the options of each zoom chosen here.
///
/// Immutable once made, so one tiler serves any number of tiles at once.
public struct LayerTiler: Sendable {
    /// The layer's name in the tiles.
    public let name: String
    /// The features with a geometry (one without is in no tile), in the layer's order.
    public let features: [Feature]
    /// Each feature's bounds, longitude and latitude.
    let bounds: [BoundingBox]
    /// The bounds of every feature (empty when there are none).
    public let extent: BoundingBox
    /// The zoom from which tiles keep every vertex.
    public let simplifiedBelow: Int
    /// The features simplified once per zoom, up to ``presimplifiedUpTo``.
    let zoomGeometries = ZoomGeometries()
    /// The last zoom whose features are simplified once for every tile, for a layer of more
    /// than ``presimplifiedVertices``: past it a zoom's copy would hold most of the source's
    /// vertices (and as much memory) for little gain. A smaller layer has every simplified zoom
    /// made once.
    public static let presimplifiedUpTo = 10
    public static let presimplifiedVertices = 2_000_000
    /// Every feature's vertices, counted once.
    let vertexCount: Int
    /// Every feature's attributes as tile values, numbered once (a row a feature).
    let attributes: TileAttributeTable
    /// Every feature's MVT id (``TileFeatureBuilder/numericID(_:)``).
    let ids: [UInt64?]

    /// - Parameter simplifiedBelow: tiles below this zoom are simplified at one grid unit
    ///   (``TileEncodingOptions/forZoom(_:maximumZoom:)``).
    public init(name: String, features: [Feature], simplifiedBelow: Int = 15) {
        self.name = name
        self.simplifiedBelow = simplifiedBelow
        var kept: [Feature] = []
        var bounds: [BoundingBox] = []
        kept.reserveCapacity(features.count)
        bounds.reserveCapacity(features.count)
        for feature in features {
            let box = feature.geometry.boundingBox
            guard !box.isEmpty else { continue }
            kept.append(feature)
            bounds.append(box)
        }
        self.features = kept
        self.bounds = bounds
        vertexCount = kept.reduce(0) { $0 + $1.geometry.vertexCount }
        // Every zoom's options name the id and the name alike (``options(zoom:)``).
        let attributeOptions = TileEncodingOptions.forZoom(0, maximumZoom: simplifiedBelow)
        ids = kept.map { TileFeatureBuilder.numericID($0.id) }
        attributes = TileAttributeTable(
            kept.lazy.map { TileFeatureBuilder.attributes(of: $0, options: attributeOptions) })
        extent = bounds.reduce(BoundingBox.empty) { $0.union($1) }
    }

    /// The options of a tile at `zoom`. A zoom simplified once (``presimplifiedUpTo``) is not
    /// simplified again in each tile.
    public func options(zoom: Int) -> TileEncodingOptions {
        var options = TileEncodingOptions.forZoom(zoom, maximumZoom: simplifiedBelow)
        if presimplified(zoom) { options.simplificationTolerance = 0 }
        return options
    }

    func presimplified(_ zoom: Int) -> Bool {
        zoom < simplifiedBelow && (zoom <= Self.presimplifiedUpTo || vertexCount <= Self.presimplifiedVertices)
    }

    /// The tile `tile` of the layer: the features whose bounds meet the tile and its buffer,
    /// clipped, simplified and encoded as ``VectorTileEncoder`` does, their attributes taken
    /// from the layer's table.
    public func tile(_ tile: TileID) throws(TileError) -> EncodedTile {
        let options = options(zoom: tile.z)
        let reach = Self.bufferedBounds(of: tile, options: options)
        let shapes = presimplified(tile.z) ? zoomGeometries.shapes(features, zoom: tile.z) : nil
        var builder = TileFeatureBuilder(tile: tile, options: options)
        var built: [TileFeature] = []
        var rows: [Int] = []
        var tooSmall = 0
        var outside = 0
        for index in bounds.indices where bounds[index].intersects(reach) {
            let outcome: TileFeatureBuilder.Outcome
            if let shapes {
                // Nothing left at this zoom: too small to draw, as a tile says.
                guard let shape = shapes[index] else {
                    tooSmall += 1
                    continue
                }
                outcome = builder.build(shape, id: ids[index])
            } else {
                outcome = builder.build(features[index], withAttributes: false)
            }
            switch outcome {
            case .feature(let feature):
                built.append(feature)
                rows.append(index)
            case .tooSmall: tooSmall += 1
            case .outside: outside += 1
            }
        }
        let layer = TileLayer(
            name: name, extent: options.extent, features: built, featuresTooSmall: tooSmall, featuresOutside: outside,
            sharedAttributes: TileLayer.SharedAttributes(table: attributes, rows: rows))
        return try MVTEncoder.encode([layer], maximumBytes: options.maximumTileBytes)
    }

    /// The tiles of `zoom` that cover the layer's extent (none when it has no feature).
    public func tiles(zoom: Int) throws(TileError) -> TileRange? {
        guard !extent.isEmpty else { return nil }
        return try TileID.tiles(covering: extent, zoom: zoom)
    }

    /// The tile's extent with the encoder's buffer, in longitude and latitude: the square
    /// widened by `buffer / extent` of a tile on each side in the projection, which stays a
    /// rectangle in degrees (Web Mercator maps x and y apart).
    public static func bufferedBounds(of tile: TileID, options: TileEncodingOptions) -> BoundingBox {
        let n = Double(tile.tilesPerSide)
        let margin = Double(options.buffer) / Double(options.extent)
        return BoundingBox(
            minX: WebMercator.longitude(x: (Double(tile.x) - margin) / n),
            minY: WebMercator.latitude(y: (Double(tile.y) + 1 + margin) / n),
            maxX: WebMercator.longitude(x: (Double(tile.x) + 1 + margin) / n),
            maxY: WebMercator.latitude(y: (Double(tile.y) - margin) / n))
    }
}
