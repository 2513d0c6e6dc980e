import CFuzzerDriver
import Foundation
import GeoqCore

/// A layer's stored spatial index read back from its bytes, as the store reads it beside the
/// layer's rows: the first byte picks the layer (the bytes are read for its shapes), the rest
/// are the index's bytes. They are read twice, copied and in place in a blob as the store does,
/// with the same outcome; an index that reads back must then answer point and nearest queries
/// without reading outside its arrays. The seeds (`GEOQ_FUZZ_SEEDS=folder`) are each layer's
/// real bytes, with and without the sole-cover grid.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let shapes = layers[Int(start.load(as: UInt8.self)) % layers.count]
    let bytes = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    let copied = Result { () throws(IndexBytesError) in try PolygonIndex(storedBytes: bytes, shapes: shapes) }
    let blob = IndexBlob(count: bytes.count)
    if let base = bytes.baseAddress { blob.bytes.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
    blob.settle()
    let inPlace = Result { () throws(IndexBytesError) in try PolygonIndex(stored: blob, shapes: shapes) }
    switch (copied, inPlace) {
    case (.success(let index), .success(let other)):
        ask(index, shapes)
        ask(other, shapes)
    case (.failure, .failure): break
    default: fatalError("index bytes read copied and in place give different outcomes")
    }
    return 0
}

/// Every query of the service at every vertex of the layer and across its extent.
func ask(_ index: PolygonIndex, _ shapes: [MultiPolygon]) {
    var points: [Point] = []
    for shape in shapes {
        for polygon in shape.polygons {
            for ring in [polygon.shell] + polygon.holes { points += Array(ring.points) }
        }
    }
    for x in stride(from: -1.5, through: 8, by: 1.1) {
        for y in stride(from: -1.5, through: 5.5, by: 1.1) { points.append(Point(x: x, y: y)) }
    }
    for p in points {
        _ = index.covering(p)
        _ = index.firstCovering(p)
        index.forEachCovering(p) { _, _ in }
        _ = index.nearestByBoundary(to: p, metric: .planar, limit: 3)
        _ = index.nearestItemByBoundary(to: p, metric: .planar)
        for item in 0..<index.count {
            _ = index.locate(p, item: item)
            _ = index.nearestBoundaryPoint(to: p, item: item, metric: .planar)
        }
    }
}

func ring(_ xy: [(Double, Double)]) -> Ring { try! Ring(closing: xy.map { Point(x: $0.0, y: $0.1) }) }

func square(_ x: Double, _ y: Double, _ size: Double) -> Ring {
    ring([(x, y), (x, y + size), (x + size, y + size), (x + size, y)])
}

/// A 6 × 4 rectangle whose top edge zigzags down to y = 1 and back `teeth` times.
func comb(teeth: Int) -> Ring {
    var xy: [(Double, Double)] = [(0, 0), (0, 4)]
    for t in 1..<teeth {
        let x = 6 * Double(t) / Double(teeth)
        xy.append((x, 1))
        xy.append((x + 3 / Double(teeth), 4))
    }
    xy.append((6, 4))
    xy.append((6, 0))
    return ring(xy)
}

/// The layers whose indexes are read: a few small features (one with a hole, one of two
/// parts, one empty, as a point feature of a polygon layer has), and a comb whose many edges
/// cross many stripes.
let layers: [[MultiPolygon]] = [
    [
        MultiPolygon([Polygon(shell: square(0, 0, 1))]),
        MultiPolygon([Polygon(shell: square(2, 0, 2), holes: [square(2.5, 0.5, 0.5)])]),
        MultiPolygon([
            Polygon(shell: ring([(5, 0), (5, 1), (6, 0)])), Polygon(shell: ring([(5, 2), (6, 3), (6, 2)])),
        ]),
        MultiPolygon([]),
    ],
    [
        MultiPolygon([Polygon(shell: comb(teeth: 60))]),
        MultiPolygon([Polygon(shell: square(6.5, 0, 1), holes: [square(6.6, 0.1, 0.2), square(7, 0.5, 0.3)])]),
    ],
]

if let folder = ProcessInfo.processInfo.environment["GEOQ_FUZZ_SEEDS"] {
    for (number, shapes) in layers.enumerated() {
        for (name, grid) in [("built", PolygonIndex.soleCoverGridMinimumVertices), ("grid", 1)] {
            let bytes = [UInt8(number)] + PolygonIndex(shapes, gridFromVertices: grid).storedBytes()
            _ = FileManager.default.createFile(atPath: "\(folder)/layer\(number)-\(name)", contents: Data(bytes))
        }
    }
    exit(0)
}
exit(geoq_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
