import GeoqCore
import Synchronization

/// A layer's features simplified once for a zoom, as tippecanoe simplifies a zoom level once:
/// every ring and line in the zoom's grid units (Web Mercator, 4096 units a tile), at one unit,
/// the kept positions those of the source. A tile of that zoom then clips and rounds only what
/// its zoom can show: at zoom 0 the world's time zones keep some thousands of their 8.2 million
/// vertices, which every tile cut from the source clipped and simplified again.
///
/// Made on the first tile of each zoom and kept for the tiler's life (its snapshot's). Two tiles
/// of a new zoom at once may both make it; the result is the same.
final class ZoomGeometries: Sendable {
    private let made = Mutex<[Int: [Feature?]]>([:])

    /// `features` simplified for `zoom`, made by this call when not made before; nil for a
    /// feature with nothing left to draw at that zoom.
    func features(_ features: [Feature], zoom: Int) -> [Feature?] {
        if let kept = made.withLock({ $0[zoom] }) { return kept }
        let scale = Double(4096 << zoom)
        let simplified = features.map { feature -> Feature? in
            guard let geometry = Self.simplified(feature.geometry, scale: scale) else { return nil }
            var copy = feature
            copy.geometry = geometry
            return copy
        }
        made.withLock { $0[zoom] = simplified }
        return simplified
    }

    /// `geometry` simplified at one grid unit of a zoom whose world is `scale` units wide; nil
    /// when nothing is left. A ring left with fewer than three corners is dropped, and a polygon
    /// with its shell.
    static func simplified(_ geometry: Geometry, scale: Double) -> Geometry? {
        func grid(_ p: Point) -> Point {
            Point(x: WebMercator.x(longitude: p.x) * scale, y: WebMercator.y(latitude: p.y) * scale)
        }
        func degrees(_ p: Point) -> Point {
            Point(x: WebMercator.longitude(x: p.x / scale), y: WebMercator.latitude(y: p.y / scale))
        }
        func line(_ points: [Point]) -> [Point] {
            TileSimplifier.simplify(line: points.map(grid), tolerance: 1).map(degrees)
        }
        func ring(_ ring: Ring) -> Ring? {
            let open = Array(ring.points.dropLast()).map(grid)
            let kept = TileSimplifier.simplify(ring: open, tolerance: 1)
            guard kept.count >= 3 else { return nil }
            return try? Ring(closing: kept.map(degrees))
        }
        func polygon(_ polygon: Polygon) -> Polygon? {
            guard let shell = ring(polygon.shell) else { return nil }
            return Polygon(shell: shell, holes: polygon.holes.compactMap(ring))
        }
        switch geometry {
        case .point, .multiPoint: return geometry
        case .lineString(let points): return .lineString(line(points))
        case .multiLineString(let lines): return .multiLineString(lines.map(line))
        case .polygon(let shape): return polygon(shape).map(Geometry.polygon)
        case .multiPolygon(let shapes):
            let kept = shapes.polygons.compactMap(polygon)
            return kept.isEmpty ? nil : .multiPolygon(MultiPolygon(kept))
        }
    }
}
