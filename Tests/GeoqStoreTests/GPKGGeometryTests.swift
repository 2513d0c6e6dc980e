import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqStore

@Suite struct GPKGGeometryTests {
    static let samples: [Geometry] = [
        .point(Point(x: -1.6432, y: 42.8169)),
        .lineString([Point(x: 0, y: 0), Point(x: 1.5, y: -2.25), Point(x: 3, y: 4)]),
        .polygon(
            Polygon(shell: Fixtures.square(0, 0, 10), holes: [Fixtures.square(1, 1, 2), Fixtures.square(5, 5, 1)])),
        .multiPoint([Point(x: 1, y: 2), Point(x: -3, y: 4.5)]),
        .multiLineString([
            [Point(x: 0, y: 0), Point(x: 1, y: 1)], [Point(x: 2, y: 2), Point(x: 3, y: 1), Point(x: 4, y: 0)],
        ]),
        .multiPolygon(
            MultiPolygon([
                Polygon(shell: Fixtures.square(0, 0, 1)),
                Polygon(shell: Fixtures.square(2, 2, 3), holes: [Fixtures.square(3, 3, 1)]),
            ])),
        .multiPoint([]),
        .multiPolygon(MultiPolygon([])),
    ]

    @Test(arguments: samples)
    func roundTrip(_ geometry: Geometry) throws {
        let blob = GPKGGeometry.encode(geometry)
        #expect(try GPKGGeometry.decode(blob) == geometry)
    }

    /// Bytes written out by hand from the spec: "GP", version 0, flags 0x01 (little-endian, no
    /// envelope), srs_id 4326 = 0x10E6, then WKB Point(1.0 2.0).
    static let handWrittenPoint: [UInt8] =
        [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00]
        + [0x01, 0x01, 0x00, 0x00, 0x00]
        + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F]  // 1.0
        + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40]  // 2.0

    @Test func handWrittenPointDecodes() throws {
        #expect(try GPKGGeometry.decode(Self.handWrittenPoint) == .point(Point(x: 1, y: 2)))
    }

    @Test func pointIsEncodedExactlyAsTheSpecExample() {
        #expect(GPKGGeometry.encode(.point(Point(x: 1, y: 2))) == Self.handWrittenPoint)
    }

    @Test func polygonHeaderHasLittleEndianFlagAndXYEnvelope() {
        let blob = GPKGGeometry.encode(.polygon(Polygon(shell: Fixtures.square(-2, 3, 1))))
        #expect(Array(blob[0..<8]) == [0x47, 0x50, 0x00, 0x03, 0xE6, 0x10, 0x00, 0x00])
        // Envelope minx, maxx, miny, maxy = -2, -1, 3, 4.
        let envelope = (0..<4).map { i in
            Double(bitPattern: blob[(8 + 8 * i)..<(16 + 8 * i)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        #expect(envelope == [-2, -1, 3, 4])
        #expect(blob[40] == 0x01)  // WKB little-endian
        #expect(Array(blob[41..<45]) == [0x03, 0x00, 0x00, 0x00])  // Polygon
    }

    @Test func emptyGeometryHasEmptyFlagAndNoEnvelope() {
        let blob = GPKGGeometry.encode(.multiPolygon(MultiPolygon([])))
        #expect(blob[3] == 0x11)  // little-endian + empty flag (bit 4), envelope indicator 0
        #expect(blob.count == 8 + 9)
    }

    @Test func bigEndianHeaderAndWKBDecode() throws {
        let blob: [UInt8] =
            [0x47, 0x50, 0x00, 0x00, 0x00, 0x00, 0x10, 0xE6]
            + [0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02]  // big-endian LineString, 2 points
            + [0x3F, 0xF0, 0, 0, 0, 0, 0, 0] + [0x40, 0x00, 0, 0, 0, 0, 0, 0]  // 1, 2
            + [0xC0, 0x08, 0, 0, 0, 0, 0, 0] + [0x40, 0x10, 0, 0, 0, 0, 0, 0]  // -3, 4
        #expect(try GPKGGeometry.decode(blob) == .lineString([Point(x: 1, y: 2), Point(x: -3, y: 4)]))
    }

    @Test func xyzEnvelopeAndPointZAreAccepted() throws {
        // Envelope indicator 2 ([minx, maxx, miny, maxy, minz, maxz]): flags 0b0000_0101.
        var blob: [UInt8] = [0x47, 0x50, 0x00, 0x05, 0xE6, 0x10, 0x00, 0x00]
        blob += [UInt8](repeating: 0, count: 48)
        blob += [0x01, 0xE9, 0x03, 0x00, 0x00]  // Point Z (1001)
        blob += [0, 0, 0, 0, 0, 0, 0x08, 0x40]  // 3
        blob += [0, 0, 0, 0, 0, 0, 0x10, 0x40]  // 4
        blob += [0, 0, 0, 0, 0, 0, 0x14, 0x40]  // z = 5, dropped
        #expect(try GPKGGeometry.decode(blob) == .point(Point(x: 3, y: 4)))
    }

    @Test(
        arguments: [
            ("too short", [0x47, 0x50, 0x00]),
            ("wrong magic", [0x47, 0x51, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x01, 0x01, 0, 0, 0]),
            ("bad version", [0x47, 0x50, 0x01, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x01, 0x01, 0, 0, 0]),
            (
                "envelope indicator 5",
                [0x47, 0x50, 0x00, 0x0B, 0xE6, 0x10, 0x00, 0x00] + [UInt8](repeating: 0, count: 80)
            ),
            ("truncated point", Array(handWrittenPoint.dropLast(3))),
            ("bad WKB byte order", [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x07, 0x01, 0, 0, 0]),
            ("GeometryCollection", [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x01, 0x07, 0, 0, 0, 0, 0, 0, 0]),
            ("type 99", [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x01, 0x63, 0, 0, 0]),
            (
                "huge ring count",
                [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x01, 0x03, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
            ),
            (
                "polygon in multipoint",
                [
                    0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0, 0, 0x01, 0x04, 0, 0, 0, 1, 0, 0, 0, 0x01, 0x03, 0, 0, 0, 0,
                    0, 0, 0,
                ]
            ),
        ] as [(String, [UInt8])])
    func malformedBlobsThrow(_ label: String, _ blob: [UInt8]) {
        #expect(throws: StoreError.self, "\(label)") { try GPKGGeometry.decode(blob) }
        do {
            _ = try GPKGGeometry.decode(blob)
        } catch {
            #expect(error.code == .badGeometry, "\(label): \(error)")
        }
    }

    /// Every prefix of valid blobs, and random byte flips, throw or decode; none traps.
    @Test func truncationsAndCorruptionsNeverCrash() {
        var random = SeededRandom(seed: 0x6765_6F71)
        for geometry in Self.samples {
            let blob = GPKGGeometry.encode(geometry)
            for length in 0..<blob.count {
                #expect(throws: StoreError.self) { try GPKGGeometry.decode(Array(blob[0..<length])) }
            }
            for _ in 0..<500 {
                var corrupted = blob
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    corrupted[Int.random(in: 0..<corrupted.count, using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
                let cut = Int.random(in: 0...corrupted.count, using: &random)
                _ = try? GPKGGeometry.decode(Array(corrupted[0..<cut]))
            }
        }
    }
}
