import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

@Suite struct SizeCapTests {
    /// A tile of one large square and many points clustered in a corner, over a cap that fits
    /// the square and some points: the points (densest: several bytes on an area of 1) go first,
    /// the square stays, and the tile ends under the cap.
    @Test func densestGoFirst() throws {
        var features: [TileFeature] = []
        let square = TileGeometry(kind: .polygon, parts: [grid([(0, 0), (4096, 0), (4096, 4096), (0, 4096)])])
        features.append(TileFeature(id: 0, attributes: [.init(key: "kind", value: .string("park"))], geometry: square))
        var random = SeededRandom(seed: 11)
        for i in 1...2000 {
            let p = GridPoint(
                x: Int32.random(in: 0...4096, using: &random), y: Int32.random(in: 0...4096, using: &random))
            features.append(
                TileFeature(
                    id: UInt64(i), attributes: [.init(key: "n", value: .int(Int64(i)))],
                    geometry: TileGeometry(kind: .point, parts: [[p]])))
        }
        let layer = TileLayer(name: "dense", features: features)
        let full = try MVTEncoder.encode([layer], maximumBytes: nil)
        #expect(full.layers[0].featuresKept == 2001)
        let cap = full.bytes.count / 4
        let capped = try MVTEncoder.encode([layer], maximumBytes: cap)
        #expect(capped.bytes.count <= cap)
        let report = capped.layers[0]
        #expect(report.featuresKept + report.featuresOverSizeCap == 2001)
        #expect(report.featuresOverSizeCap > 1000)
        #expect(capped.featuresOverSizeCap == report.featuresOverSizeCap)
        // The square survives: its density (about 11 bytes over 4096² units) is the lowest.
        let decodedIDs = try TestDecoder.featureIDs(capped.bytes)
        #expect(decodedIDs.contains(0))
        // Not too many went: one more feature would not have fitted, at most a few bytes of slack
        // per feature left out (the key and value tables shrink with them).
        #expect(capped.bytes.count > cap - 64)
    }

    /// Among points of equal density, the later ones go first, so the order of the input ranks
    /// what is kept.
    @Test func laterGoFirstAmongEquals() throws {
        let features = (0..<100).map { i in
            TileFeature(id: UInt64(i), geometry: TileGeometry(kind: .point, parts: [grid([(10, 10)])]))
        }
        let layer = TileLayer(name: "same", features: features)
        let full = try MVTEncoder.encode([layer], maximumBytes: nil).bytes.count
        let capped = try MVTEncoder.encode([layer], maximumBytes: full - 50)
        let ids = try TestDecoder.featureIDs(capped.bytes)
        #expect(ids == Array(0..<UInt64(ids.count)))
        #expect(ids.count < 100)
    }

    /// Encoding features from longitude and latitude under the default cap changes nothing for
    /// small tiles; duplicate layer names are refused.
    @Test func defaultsAndDuplicates() throws {
        let encoder = VectorTileEncoder()
        let f = Feature(id: "1", geometry: .point(Point(x: 0, y: 0)))
        let tile = try encoder.encode(try TileID(z: 0, x: 0, y: 0), layers: [VectorTileLayer(name: "a", features: [f])])
        #expect(tile.featuresKept == 1 && tile.featuresOverSizeCap == 0)
        #expect(throws: TileError.duplicateLayerName("a")) {
            try encoder.encode(
                try TileID(z: 0, x: 0, y: 0),
                layers: [VectorTileLayer(name: "a", features: [f]), VectorTileLayer(name: "a", features: [])])
        }
    }
}

/// A minimal reader of the encoder's own output, for the ids of the features kept; written from
/// the protobuf wire format, not from the encoder.
enum TestDecoder {
    struct Malformed: Error {}

    static func varint(_ b: [UInt8], _ i: inout Int) throws -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < b.count else { throw Malformed() }
            let byte = b[i]
            i += 1
            v |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return v }
            shift += 7
        }
    }

    /// The fields of a message: (field, wire type, varint value, bytes range).
    static func fields(_ b: [UInt8], _ range: Range<Int>) throws -> [(UInt64, UInt64, UInt64, Range<Int>)] {
        var out: [(UInt64, UInt64, UInt64, Range<Int>)] = []
        var i = range.lowerBound
        while i < range.upperBound {
            let key = try varint(b, &i)
            switch key & 7 {
            case 0: out.append((key >> 3, 0, try varint(b, &i), i..<i))
            case 2:
                let n = Int(try varint(b, &i))
                out.append((key >> 3, 2, 0, i..<i + n))
                i += n
            case 1: i += 8
            case 5: i += 4
            default: throw Malformed()
            }
        }
        return out
    }

    static func featureIDs(_ b: [UInt8]) throws -> [UInt64] {
        var ids: [UInt64] = []
        for (field, _, _, layer) in try fields(b, 0..<b.count) where field == 3 {
            for (f, _, _, feature) in try fields(b, layer) where f == 2 {
                for (g, _, v, _) in try fields(b, feature) where g == 1 { ids.append(v) }
            }
        }
        return ids
    }
}
