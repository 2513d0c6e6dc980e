import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

/// A layer's attributes numbered once (``TileAttributeTable``) must give the bytes each
/// feature's own attributes give, whichever way a tile renumbers them.
@Suite struct SharedAttributesTests {
    /// Seeded squares around Valencia with text, integer, negative, fractional, boolean and
    /// null properties, some values shared by many features, ids numeric or not, names or none.
    static func features(count: Int, seed: UInt64) -> [Feature] {
        var random = SeededRandom(seed: seed)
        let districts = ["Ciutat Vella", "l'Eixample", "Extramurs", "Campanar", "la Saïdia"]
        return (0..<count).map { i in
            let x = Double.random(in: -0.42 ... -0.32, using: &random)
            let y = Double.random(in: 39.42...39.50, using: &random)
            let side = Double.random(in: 0.0005...0.01, using: &random)
            let shell = try! Ring(closing: [
                Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side),
            ])
            var properties: [String: PropertyValue] = [
                "district": .string(districts[Int.random(in: 0..<districts.count, using: &random)]),
                "population": .number(Double(Int.random(in: 0...5000, using: &random))),
                "change": .number(Double(Int.random(in: -50...50, using: &random))),
                "share": .number(Double.random(in: 0...1, using: &random)),
                "protected": .bool(Bool.random(using: &random)),
            ]
            if i % 7 == 0 { properties["note"] = .null }
            if i % 5 == 0 { properties["code"] = .string("S\(i)") }
            return Feature(
                id: i % 3 == 0 ? "sec-\(i)" : "\(i)", name: i % 4 == 0 ? nil : "Section \(i)",
                geometry: .polygon(Polygon(shell: shell)), properties: properties)
        }
    }

    /// Every seeded tile of a layer has the bytes the general encoder gives the same features,
    /// each carrying its own attributes (every zoom cut from the source: no zoom's shapes made
    /// once, which the general encoder does not make).
    @Test func layerTilesEqualTheGeneralEncoders() throws {
        let tiler = LayerTiler(name: "sections", features: Self.features(count: 400, seed: 3), simplifiedBelow: 0)
        var random = SeededRandom(seed: 5)
        for zoom in 6...16 {
            for _ in 0..<6 {
                let feature = tiler.features[Int.random(in: 0..<tiler.features.count, using: &random)]
                let tile = try TileID.containing(feature.geometry.boundingBox.center, zoom: zoom)
                let options = tiler.options(zoom: tile.z)
                let reach = LayerTiler.bufferedBounds(of: tile, options: options)
                #expect(!tiler.presimplified(zoom))
                let candidates = tiler.features.filter { $0.geometry.boundingBox.intersects(reach) }
                let general = try VectorTileEncoder(options: options).encode(
                    tile, layers: [VectorTileLayer(name: "sections", features: candidates)])
                let shared = try tiler.tile(tile)
                #expect(shared.bytes == general.bytes, "tile \(tile)")
                #expect(shared.featuresKept == general.featuresKept, "tile \(tile)")
                #expect(!shared.bytes.isEmpty || zoom < 8)
            }
        }
    }

    /// A tile numbers the table's keys and values over an array or a dictionary alike, with
    /// every feature kept and after some are left out for a size cap.
    @Test func denseAndSparseNumberingAgree() throws {
        let features = Self.features(count: 120, seed: 9)
        let tile = try TileID.containing(Point(x: -0.37, y: 39.46), zoom: 11)
        var builder = TileFeatureBuilder(tile: tile, options: TileEncodingOptions(simplificationTolerance: 0))
        var built: [TileFeature] = []
        var rows: [Int] = []
        for (row, feature) in features.enumerated() {
            if case .feature(let f) = builder.build(feature, withAttributes: false) {
                built.append(f)
                rows.append(row)
            }
        }
        #expect(built.count > 20)
        let table = TileAttributeTable(features.map { TileFeatureBuilder.attributes(of: $0, options: builder.options) })
        // Every other feature only: a tile uses part of its layer's table.
        let half = built.indices.filter { $0 % 2 == 0 }
        let layer = TileLayer(
            name: "sections", features: half.map { built[$0] },
            sharedAttributes: TileLayer.SharedAttributes(table: table, rows: half.map { rows[$0] }))
        var dense = PreparedLayer(layer, numberDensely: true)
        var sparse = PreparedLayer(layer, numberDensely: false)
        #expect(written(dense) == written(sparse))
        #expect(dense.bodySize == sparse.bodySize)
        for f in stride(from: 1, to: half.count, by: 3) {
            dense.leaveOut(f)
            sparse.leaveOut(f)
        }
        #expect(written(dense) == written(sparse))
        #expect(dense.bodySize == sparse.bodySize)
        #expect(written(dense).count <= dense.bodySize)
        // The same layer with each feature's own attributes.
        let own = TileLayer(
            name: "sections",
            features: half.map {
                var f = built[$0]
                f.attributes = table.attributes(ofRow: rows[$0])
                return f
            })
        #expect(written(PreparedLayer(own)) == written(PreparedLayer(layer)))
    }

    private func written(_ layer: PreparedLayer) -> [UInt8] {
        var out = ProtobufWriter()
        layer.writeKept(to: &out)
        return out.bytes
    }
}
