import GeoqCore
import Synchronization

/// A layer's features simplified once for a zoom, as tippecanoe simplifies a zoom level once:
/// every ring and line on the zoom's world grid (``GridShape``), at one unit, the kept
/// positions those of the source. A tile of that zoom then clips and rounds only what its zoom
/// can show: at zoom 0 the world's time zones keep some thousands of their 8.2 million
/// vertices, which every tile cut from the source clipped and simplified again.
///
/// Made on the first tile of each zoom and kept for the tiler's life (its snapshot's). Two tiles
/// of a new zoom at once may both make it; the result is the same.
final class ZoomGeometries: Sendable {
    private let made = Mutex<[Int: [GridShape?]]>([:])

    /// `features` simplified for `zoom`, made by this call when not made before; nil for a
    /// feature with nothing left to draw at that zoom.
    func shapes(_ features: [Feature], zoom: Int) -> [GridShape?] {
        if let kept = made.withLock({ $0[zoom] }) { return kept }
        let scale = Double(4096 << zoom)
        let simplified = features.map { Self.simplified($0.geometry, scale: scale) }
        made.withLock { $0[zoom] = simplified }
        return simplified
    }

    /// `geometry` on the world grid of a zoom whose world is `scale` units wide, lines and rings
    /// simplified at one unit; nil when nothing is left. A ring left with fewer than three
    /// corners is dropped, and a polygon with its shell.
    static func simplified(_ geometry: Geometry, scale: Double) -> GridShape? {
        func grid(_ p: Point) -> Point {
            Point(x: WebMercator.x(longitude: p.x) * scale, y: WebMercator.y(latitude: p.y) * scale)
        }
        func line(_ points: [Point]) -> [Point] {
            TileSimplifier.simplify(line: points.map(grid), tolerance: 1)
        }
        func ring(_ ring: Ring) -> [Point]? {
            let kept = TileSimplifier.simplify(ring: ring.points.dropLast().map(grid), tolerance: 1)
            return kept.count >= 3 ? kept : nil
        }
        func polygon(_ polygon: Polygon) -> [[Point]]? {
            guard let shell = ring(polygon.shell) else { return nil }
            return [shell] + polygon.holes.compactMap(ring)
        }
        func polygons(_ shapes: [Polygon]) -> GridShape? {
            let kept = shapes.compactMap(polygon)
            guard !kept.isEmpty else { return nil }
            return GridShape(kind: .polygon, parts: Array(kept.joined()), partsPerPolygon: kept.map(\.count))
        }
        switch geometry {
        case .point(let p): return GridShape(kind: .point, parts: [[grid(p)]])
        case .multiPoint(let ps): return GridShape(kind: .point, parts: [ps.map(grid)])
        case .lineString(let points): return GridShape(kind: .lineString, parts: [line(points)])
        case .multiLineString(let lines): return GridShape(kind: .lineString, parts: lines.map(line))
        case .polygon(let shape): return polygons([shape])
        case .multiPolygon(let shapes): return polygons(shapes.polygons)
        }
    }
}
