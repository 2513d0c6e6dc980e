/// The geometries a layer can hold, in the Simple Features sense.
///
/// Lines are kept so that readers do not have to drop them silently; the polygon queries
/// (which-sector) use only the areal cases, see ``areal``.
public enum Geometry: Hashable, Sendable {
    case point(Point)
    case multiPoint([Point])
    case lineString([Point])
    case multiLineString([[Point]])
    case polygon(Polygon)
    case multiPolygon(MultiPolygon)

    /// The areal part as a multipolygon, or nil for points and lines.
    public var areal: MultiPolygon? {
        switch self {
        case .polygon(let p): MultiPolygon([p])
        case .multiPolygon(let mp): mp
        default: nil
        }
    }

    /// Simple Features type name, as used in GeoJSON and WKT.
    public var typeName: String {
        switch self {
        case .point: "Point"
        case .multiPoint: "MultiPoint"
        case .lineString: "LineString"
        case .multiLineString: "MultiLineString"
        case .polygon: "Polygon"
        case .multiPolygon: "MultiPolygon"
        }
    }

    /// The positions of the geometry, closing positions of rings included.
    public var vertexCount: Int {
        switch self {
        case .point: 1
        case .multiPoint(let points), .lineString(let points): points.count
        case .multiLineString(let lines): lines.reduce(0) { $0 + $1.count }
        case .polygon(let polygon): polygon.vertexCount
        case .multiPolygon(let shapes): shapes.vertexCount
        }
    }

    public var boundingBox: BoundingBox {
        switch self {
        case .point(let p): BoundingBox(around: [p])
        case .multiPoint(let ps), .lineString(let ps): BoundingBox(around: ps)
        case .multiLineString(let ls): BoundingBox(around: ls.joined())
        case .polygon(let p): p.boundingBox
        case .multiPolygon(let mp): mp.boundingBox
        }
    }

    /// Applies `transform` to every position (used to reproject).
    public func mapPoints(_ transform: (Point) throws -> Point) rethrows -> Geometry {
        func ring(_ r: Ring) throws -> Ring {
            // A transform maps the closing position exactly like the first, so closure holds;
            // `closing:` restores it if a non-deterministic transform ever broke it.
            try Ring(closing: r.points.map(transform))
        }
        func polygon(_ p: Polygon) throws -> Polygon {
            try Polygon(shell: ring(p.shell), holes: p.holes.map(ring))
        }
        switch self {
        case .point(let p): return .point(try transform(p))
        case .multiPoint(let ps): return .multiPoint(try ps.map(transform))
        case .lineString(let ps): return .lineString(try ps.map(transform))
        case .multiLineString(let ls): return .multiLineString(try ls.map { try $0.map(transform) })
        case .polygon(let p): return .polygon(try polygon(p))
        case .multiPolygon(let mp): return .multiPolygon(MultiPolygon(try mp.polygons.map(polygon)))
        }
    }
}
