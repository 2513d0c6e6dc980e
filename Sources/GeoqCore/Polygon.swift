/// A polygon: one outer ring (the shell) and zero or more holes.
///
/// The core does not check that holes lie inside the shell or that rings do not cross:
/// that is validity in the OGC sense, and GEOS checks it when a layer is loaded
/// (see `GeoqGEOS.GEOSContext.validity(of:)`).
public struct Polygon: Hashable, Sendable {
    public let shell: Ring
    public let holes: [Ring]

    public init(shell: Ring, holes: [Ring] = []) {
        self.shell = shell
        self.holes = holes
    }

    /// Shell first, then holes.
    public var rings: [Ring] { [shell] + holes }

    public var boundingBox: BoundingBox { shell.boundingBox }

    public var vertexCount: Int { shell.points.count + holes.reduce(0) { $0 + $1.points.count } }
}

/// One or more polygons that together make one feature (a country with islands, a census
/// section published in several parts).
public struct MultiPolygon: Hashable, Sendable {
    public let polygons: [Polygon]

    public init(_ polygons: [Polygon]) {
        self.polygons = polygons
    }

    public var boundingBox: BoundingBox {
        polygons.reduce(BoundingBox.empty) { $0.union($1.boundingBox) }
    }

    public var vertexCount: Int { polygons.reduce(0) { $0 + $1.vertexCount } }
}
