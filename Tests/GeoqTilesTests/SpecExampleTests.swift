import GeoqCore
import Testing

@testable import GeoqTiles

/// The geometry examples of the MVT 2.1 specification (§4.3.5), and the byte-exact tiles of
/// mapbox/mvt-fixtures 017–022, 038, 053, 054 and 056 (copied from the fixtures' tile.mvt files).
///
/// The fixtures leave the layer's extent out (4096 is proto2's default); MVT 2.1 §4.1 says a layer
/// MUST contain one, so the encoder writes it, and the expected bytes are each fixture's with the
/// field `extent: 4096` (28 80 20) appended to its one layer.
@Suite struct SpecExampleTests {
    /// `fixture` (one layer, its length a varint of one or two bytes) with the extent field appended.
    static func withExtent(_ fixture: String) -> [UInt8] {
        let tile = bytes(hex: fixture)
        precondition(tile[0] == 0x1a, "a fixture of one layer")
        let (length, header) = tile[1] < 0x80 ? (Int(tile[1]), 2) : (Int(tile[1] & 0x7f) | Int(tile[2]) << 7, 3)
        precondition(header + length == tile.count, "a fixture of one layer")
        let newLength = length + 3
        let varint: [UInt8] =
            newLength < 0x80 ? [UInt8(newLength)] : [UInt8(newLength & 0x7f | 0x80), UInt8(newLength >> 7)]
        return [0x1a] + varint + tile[header...] + [0x28, 0x80, 0x20]
    }

    static func helloLayer(_ geometry: TileGeometry) -> TileLayer {
        TileLayer(
            name: "hello",
            features: [
                TileFeature(
                    id: 1, attributes: [.init(key: "hello", value: .string("world"))], geometry: geometry)
            ])
    }

    static let cases: [(name: String, geometry: TileGeometry, commands: [UInt32], fixture: String)] = [
        (
            "4.3.5.1 point", TileGeometry(kind: .point, parts: [grid([(25, 17)])]), [9, 50, 34],
            "1a2878020a0568656c6c6f120d080112020000180122030932221a0568656c6c6f22070a05776f726c64"
        ),
        (
            "4.3.5.2 multipoint", TileGeometry(kind: .point, parts: [grid([(5, 7), (3, 2)])]), [17, 10, 14, 3, 9],
            "1a2a78020a0568656c6c6f120f08011202000018012205110a0e03091a0568656c6c6f22070a05776f726c64"
        ),
        (
            "4.3.5.3 linestring", TileGeometry(kind: .lineString, parts: [grid([(2, 2), (2, 10), (10, 10)])]),
            [9, 4, 4, 18, 0, 16, 16, 0],
            "1a2d78020a0568656c6c6f12120801120200001802220809040412001010001a0568656c6c6f22070a05776f726c64"
        ),
        (
            "4.3.5.4 multilinestring",
            TileGeometry(kind: .lineString, parts: [grid([(2, 2), (2, 10), (10, 10)]), grid([(1, 1), (3, 5)])]),
            [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8],
            "1a3378020a0568656c6c6f12180801120200001802220e09040412001010000911110a04081a0568656c6c6f22070a05776f"
                + "726c64"
        ),
        (
            "4.3.5.5 polygon", TileGeometry(kind: .polygon, parts: [grid([(3, 6), (8, 12), (20, 34)])]),
            [9, 6, 12, 18, 10, 12, 24, 44, 15],
            "1a2e78020a0568656c6c6f12130801120200001803220909060c120a0c182c0f1a0568656c6c6f22070a05776f726c64"
        ),
        (
            "4.3.5.6 multipolygon",
            TileGeometry(
                kind: .polygon,
                parts: [
                    grid([(0, 0), (10, 0), (10, 10), (0, 10)]), grid([(11, 11), (20, 11), (20, 20), (11, 20)]),
                    grid([(13, 13), (13, 17), (17, 17), (17, 13)]),
                ]),
            [
                9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0,
                0, 7, 15,
            ],
            "1a4678020a0568656c6c6f122b080112020000180322210900001a1400001413000f0916021a1200001211000f09040d1a0008"
                + "080000070f1a0568656c6c6f22070a05776f726c64"
        ),
    ]

    @Test(arguments: cases.indices)
    func specGeometryCommands(_ i: Int) throws {
        let c = Self.cases[i]
        #expect(c.geometry.commands == c.commands, "\(c.name)")
        let tile = try MVTEncoder.encode([Self.helloLayer(c.geometry)])
        #expect(tile.bytes == Self.withExtent(c.fixture), "\(c.name)")
        #expect(
            tile.layers == [
                TileLayerReport(
                    name: "hello", featuresKept: 1, featuresTooSmall: 0, featuresOverSizeCap: 0, featuresOutside: 0)
            ])
    }

    /// The spec's multipolygon: the exteriors have positive area on the grid, the hole negative.
    @Test func specMultipolygonWinding() {
        let g = Self.cases[5].geometry
        #expect(g.signedDoubleArea(ofPart: 0) == 200)
        #expect(g.signedDoubleArea(ofPart: 1) == 162)
        #expect(g.signedDoubleArea(ofPart: 2) == -32)
    }

    /// Fixture 038: every kind of value, in the order of the fixture's keys.
    @Test func allValueTypes() throws {
        let values: [(String, TileValue)] = [
            ("string_value", .string("ello")), ("bool_value", .bool(true)), ("int_value", .int(6)),
            ("double_value", .double(1.23)), ("float_value", .float(3.1)), ("sint_value", .sint(-87948)),
            ("uint_value", .uint(87948)),
        ]
        let feature = TileFeature(
            id: 1, attributes: values.map { .init(key: $0.0, value: $0.1) },
            geometry: TileGeometry(kind: .point, parts: [grid([(25, 17)])]))
        let tile = try MVTEncoder.encode([TileLayer(name: "hello", features: [feature])])
        let expected =
            "1aaa0178020a0568656c6c6f12190801120e0000010102020303040405050606180122030932221a0c737472696e675f7661"
            + "6c75651a0a626f6f6c5f76616c75651a09696e745f76616c75651a0c646f75626c655f76616c75651a0b666c6f61745f7661"
            + "6c75651a0a73696e745f76616c75651a0a75696e745f76616c756522060a04656c6c6f2202380122022006220919ae47e1"
            + "7a14aef33f2205156666464022043097de0a2204288caf05"
        #expect(tile.bytes == Self.withExtent(expected))
    }

    /// Fixtures 053, 054 and 056: a square covering the tile plus 0, 1 and 200 units.
    @Test(arguments: [
        (
            0, "exact extent",
            "1a4278020a0e636c69707065642d73717561726512180801120200001803220e0900001a804000008040ff3f000f1a04747970"
                + "65220e0a0c657861637420657874656e74"
        ),
        (
            1, "one unit buffer",
            "1a4578020a0e636c69707065642d73717561726512180801120200001803220e0901011a8440000084408340000f1a04747970"
                + "6522110a0f6f6e6520756e697420627566666572"
        ),
        (
            200, "large 200 unit buffer",
            "1a4d78020a0e636c69707065642d737175617265121a08011202000018032210098f038f031aa0460000a0469f46000f1a0474"
                + "79706522170a156c617267652032303020756e697420627566666572"
        ),
    ])
    func clippedSquares(buffer: Int32, label: String, fixture: String) throws {
        let (lo, hi) = (-buffer, 4096 + buffer)
        let square = TileGeometry(kind: .polygon, parts: [grid([(lo, lo), (hi, lo), (hi, hi), (lo, hi)])])
        let feature = TileFeature(id: 1, attributes: [.init(key: "type", value: .string(label))], geometry: square)
        let tile = try MVTEncoder.encode([TileLayer(name: "clipped-square", features: [feature])])
        #expect(tile.bytes == Self.withExtent(fixture))
    }

    /// Fixture 001: no layers, no bytes; a layer whose features all went is not written.
    @Test func emptyTile() throws {
        #expect(try MVTEncoder.encode([]).bytes == [])
        let tile = try MVTEncoder.encode([TileLayer(name: "empty", features: [], featuresTooSmall: 2)])
        #expect(tile.bytes == [])
        #expect(tile.layers.first?.featuresTooSmall == 2)
    }
}
