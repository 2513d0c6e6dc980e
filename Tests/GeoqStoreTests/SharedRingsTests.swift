import GeoqTestSupport
import Testing

@testable import GeoqCore
@testable import GeoqStore

/// Rings decoded from a store share one buffer (``PointArena``), back to back in layer order,
/// and decode to the same geometry as rings of their own: with room to spare, with too little
/// room (the rest fall back to arrays), and with rings stored open.
@Suite struct SharedRingsTests {
    /// A WKB polygon (little-endian, 2D) of `rings` written as given (closed or not), in a
    /// GeoPackage blob without envelope.
    static func blob(polygon rings: [[(Double, Double)]]) -> [UInt8] {
        var bytes: [UInt8] = [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00, 0x01, 0x03, 0, 0, 0]
        func uint32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { bytes += $0 } }
        func double(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        uint32(rings.count)
        for ring in rings {
            uint32(ring.count)
            for (x, y) in ring {
                double(x)
                double(y)
            }
        }
        return bytes
    }

    static let shell = [(0.0, 0.0), (10, 0), (10, 10), (0, 10), (0, 0)]
    static let openHole = [(2.0, 2.0), (4, 2), (4, 4), (2, 4)]

    @Test(arguments: GPKGGeometryTests.samples)
    func sharedRingsDecodeAsOwnRings(_ geometry: Geometry) throws {
        let blob = GPKGGeometry.encode(geometry)
        let arena = PointArena(capacity: blob.count / 16)
        let shared = try blob.withUnsafeBytes { try GPKGGeometry.decode($0, rings: arena) }
        #expect(shared == geometry)
        #expect(shared.hashValue == geometry.hashValue)
        // Every ring of a polygon went into the arena, and nothing else did.
        let ringPositions = geometry.areal?.vertexCount ?? 0
        #expect(arena.count == ringPositions)
    }

    @Test func openRingsAreClosedInTheArenaAsInArrays() throws {
        let blob = Self.blob(polygon: [Self.shell, Self.openHole])
        let own = try GPKGGeometry.decode(blob)
        let arena = PointArena(capacity: 100)
        let shared = try blob.withUnsafeBytes { try GPKGGeometry.decode($0, rings: arena) }
        #expect(shared == own)
        guard case .polygon(let polygon) = shared else {
            Issue.record("not a polygon")
            return
        }
        #expect(
            polygon.holes[0].points.array
                == [(2.0, 2.0), (4, 2), (4, 4), (2, 4), (2, 2)].map { Point(x: $0.0, y: $0.1) })
        #expect(arena.count == 5 + 5)
        #expect(polygon.holes[0].points.range(in: arena) == 5..<10)
    }

    /// Room for the shell (5 positions, and one spare in case it needs closing) but not the
    /// hole and its closing position: the hole falls back to an array, later rings too (so
    /// that the arena's rings stay back to back), and the geometry is the same.
    @Test(arguments: [6, 9])
    func tooLittleRoomFallsBackToArrays(capacity: Int) throws {
        let blob = Self.blob(polygon: [Self.shell, Self.openHole, Self.shell.map { ($0.0 / 2 + 1, $0.1 / 2 + 1) }])
        let own = try GPKGGeometry.decode(blob)
        let arena = PointArena(capacity: capacity)
        let shared = try blob.withUnsafeBytes { try GPKGGeometry.decode($0, rings: arena) }
        #expect(shared == own)
        guard case .polygon(let polygon) = shared else {
            Issue.record("not a polygon")
            return
        }
        #expect(polygon.shell.points.range(in: arena) == 0..<5)
        #expect(polygon.holes.allSatisfy { $0.points.range(in: arena) == nil })
        #expect(arena.count == 5)
    }

    @Test func badRingsInTheArenaAreStillRefused() {
        let tooShort = Self.blob(polygon: [[(0, 0), (1, 0), (0, 0)]])
        let notFinite = Self.blob(polygon: [[(0, 0), (.nan, 0), (1, 1), (0, 0)]])
        for blob in [tooShort, notFinite] {
            let arena = PointArena(capacity: 100)
            #expect(throws: StoreError.self) { try blob.withUnsafeBytes { try GPKGGeometry.decode($0, rings: arena) } }
            #expect(throws: StoreError.self) { try GPKGGeometry.decode(blob) }
        }
    }

    /// A layer read from a store: every ring of every feature in one arena, in layer order, so
    /// that its polygon index takes the arena as its vertex buffer instead of a copy.
    @Test func aStoredLayersRingsLieBackToBackInOneArena() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.path("rings.gpkg")
        let package = try GeoPackage.open(at: path, create: true)
        let features = (0..<40).map { i in
            let x = Double(i % 8) * 3, y = Double(i / 8) * 3
            let square = Polygon(
                shell: Fixtures.square(x, y, 2), holes: i % 3 == 0 ? [Fixtures.square(x + 0.5, y + 0.5, 0.5)] : [])
            let geometry: Geometry =
                i % 2 == 0
                ? .polygon(square)
                : .multiPolygon(MultiPolygon([square, Polygon(shell: Fixtures.square(x, y + 2.2, 0.3))]))
            return Feature(id: "f\(i)", geometry: geometry)
        }
        try package.replaceLayer(Fixtures.input("squares", features))
        let read = try GeoPackage.open(at: path, create: false, readOnly: true).features(of: "squares")
        #expect(read == features)
        let shapes = read.map { $0.geometry.areal! }
        guard case .shared(let arena, _) = shapes[0].polygons[0].shell.points.storage else {
            Issue.record("the first ring is not in an arena")
            return
        }
        var next = 0
        for ring in shapes.flatMap({ (shape: MultiPolygon) in shape.polygons.flatMap { $0.rings } }) {
            #expect(ring.points.range(in: arena) == next..<next + ring.points.count)
            next += ring.points.count
        }
        #expect(next == arena.count)
    }
}
