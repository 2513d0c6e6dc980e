import CPROJ
import GeoqCore

/// Transforms positions from one coordinate reference system to another with PROJ.
///
/// Axis order: input and output are always x = easting or longitude, y = northing or latitude
/// (GeoJSON and GEOS order), whatever order the authority defines: the PROJ operation is
/// passed through `proj_normalize_for_visualization`, so `EPSG:4326` (latitude first for EPSG)
/// reads and writes longitude first here. Angles are in degrees, projected units as the CRS
/// says (metres for UTM).
///
/// Operation choice: `proj_create_crs_to_crs` semantics. When several transformations exist
/// (ED50 -> WGS84 has many), PROJ picks per position the most accurate one whose area of use
/// contains it among those available offline (network grids are off).
///
/// Ownership: owns one `PJ*` (freed with `proj_destroy`) and keeps its ``context`` alive.
/// Thread rule: like its context, one thread or task at a time; not `Sendable`.
public final class CoordinateTransformer {
    public let context: PROJContext
    /// The source CRS definition as given.
    public let source: String
    /// The target CRS definition as given.
    public let target: String
    let pointer: OpaquePointer

    /// Prepares a transformation from `source` to `target`.
    ///
    /// A definition is anything `proj_create` accepts as a CRS: `"EPSG:25830"`,
    /// `"urn:ogc:def:crs:EPSG::4326"`, `"OGC:CRS84"`, a PROJ string with `+type=crs`, or WKT
    /// (as in a shapefile's `.prj`). Surrounding whitespace is ignored.
    /// - Throws: ``PROJError`` naming the definition PROJ rejected (unknown code, not a CRS,
    ///   unparsable WKT) or when no transformation exists between the two.
    public init(context: PROJContext, from source: String, to target: String = "EPSG:4326") throws(PROJError) {
        self.context = context
        self.source = source
        self.target = target
        context.clearLog()
        let sourceCRS = try Self.makeCRS(context, source)
        defer { proj_destroy(sourceCRS) }
        let targetCRS = try Self.makeCRS(context, target)
        defer { proj_destroy(targetCRS) }
        let name = "\(source) -> \(target)"
        guard let operation = proj_create_crs_to_crs_from_pj(context.pointer, sourceCRS, targetCRS, nil, nil) else {
            throw context.error(
                crs: name, operation: "create transformation", errno: proj_context_errno(context.pointer),
                fallback: "PROJ found no transformation between these systems")
        }
        defer { proj_destroy(operation) }
        guard let normalized = proj_normalize_for_visualization(context.pointer, operation) else {
            throw context.error(
                crs: name, operation: "create transformation", errno: proj_context_errno(context.pointer),
                fallback: "PROJ could not normalise the axis order")
        }
        self.pointer = normalized
    }

    deinit {
        proj_destroy(pointer)
    }

    /// `proj_create` for a definition that must be a CRS; the caller destroys the result.
    private static func makeCRS(_ context: PROJContext, _ definition: String) throws(PROJError) -> OpaquePointer {
        let trimmed = definition.trimmingWhitespace
        guard let object = proj_create(context.pointer, trimmed) else {
            throw context.error(
                crs: definition, operation: "create CRS", errno: proj_context_errno(context.pointer),
                fallback: "PROJ does not recognise this definition")
        }
        guard proj_is_crs(object) == 1 else {
            proj_destroy(object)
            throw PROJError(
                crs: definition, operation: "create CRS",
                message: "PROJ reads this as an operation, not a coordinate reference system")
        }
        // A bare name is looked up approximately in proj.db ("foo" silently becomes
        // "Amersfoort"): accept a name only when PROJ found exactly that name.
        if isBareName(trimmed) {
            let found = proj_get_name(object).map { String(cString: $0) } ?? ""
            guard found.lowercased() == trimmed.lowercased() else {
                proj_destroy(object)
                throw PROJError(
                    crs: definition, operation: "create CRS",
                    message: "PROJ matched this name only approximately (to \"\(found)\"); "
                        + "give an authority code such as EPSG:25830")
            }
        }
        return object
    }

    /// Not an `authority:code`, URN or URL, WKT, PROJ string or PROJJSON: a CRS name.
    private static func isBareName(_ definition: String) -> Bool {
        !definition.contains(where: { ":[+={".contains($0) })
    }

    // MARK: - Transforming

    /// Transforms one position.
    /// - Throws: ``PROJError`` (with `pointIndex` 0) when PROJ gives no finite result, e.g. a
    ///   position outside the projection's domain.
    public func transform(_ point: Point) throws(PROJError) -> Point {
        context.clearLog()
        var x = point.x
        var y = point.y
        let size = MemoryLayout<Double>.stride
        proj_trans_generic(pointer, PJ_FWD, &x, size, 1, &y, size, 1, nil, 0, 0, nil, 0, 0)
        guard x.isFinite, y.isFinite else { throw failure(at: 0, input: point) }
        return Point(x: x, y: y)
    }

    /// Transforms every position in place, in one `proj_trans_generic` call over the array's
    /// own storage (no copy into a separate buffer).
    ///
    /// All or nothing: when any position has no finite result, `points` is left unchanged and
    /// the error names the first failing index.
    public func transform(_ points: inout [Point]) throws(PROJError) {
        guard !points.isEmpty else { return }
        context.clearLog()
        var result = points
        transformInPlace(&result)
        for i in result.indices where !(result[i].x.isFinite && result[i].y.isFinite) {
            throw failure(at: i, input: points[i])
        }
        points = result
    }

    /// Transforms every position of `geometry`, in bulk.
    ///
    /// A failing position is reported by its index in the order ``Geometry/mapPoints(_:)``
    /// visits positions (polygon by polygon, shell then holes, closing positions included).
    public func transform(_ geometry: Geometry) throws(PROJError) -> Geometry {
        var positions: [Point] = []
        _ = geometry.mapPoints { p in
            positions.append(p)
            return p
        }
        try transform(&positions)
        var next = 0
        return geometry.mapPoints { _ in
            defer { next += 1 }
            return positions[next]
        }
    }

    /// Runs `proj_trans_generic` over `points`' x and y fields, strided by `Point`'s size.
    private func transformInPlace(_ points: inout [Point]) {
        let count = points.count
        guard let xOffset = MemoryLayout<Point>.offset(of: \Point.x),
            let yOffset = MemoryLayout<Point>.offset(of: \Point.y)
        else {
            // Not stored properties any more: go through separate coordinate arrays.
            var xs = points.map(\.x)
            var ys = points.map(\.y)
            let size = MemoryLayout<Double>.stride
            proj_trans_generic(pointer, PJ_FWD, &xs, size, count, &ys, size, count, nil, 0, 0, nil, 0, 0)
            points = (0..<count).map { Point(x: xs[$0], y: ys[$0]) }
            return
        }
        let stride = MemoryLayout<Point>.stride
        points.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            proj_trans_generic(
                pointer, PJ_FWD,
                (base + xOffset).assumingMemoryBound(to: Double.self), stride, count,
                (base + yOffset).assumingMemoryBound(to: Double.self), stride, count,
                nil, 0, 0, nil, 0, 0)
        }
    }

    private func failure(at index: Int, input: Point) -> PROJError {
        let code = proj_errno(pointer)
        let base = context.error(
            crs: "\(source) -> \(target)", operation: "transform", errno: code,
            fallback: "no finite result", pointIndex: index)
        proj_errno_reset(pointer)
        return PROJError(
            crs: base.crs, operation: base.operation, message: "position \(input): \(base.message)",
            pointIndex: index)
    }
}

@available(*, unavailable, message: "A PROJ transformer belongs to its context's thread or task")
extension CoordinateTransformer: Sendable {}

// MARK: - Recognising WGS84

extension CoordinateTransformer {
    /// True when `crsDefinition` names WGS84 geographic coordinates, so that (with geoq's
    /// x = longitude convention) no reprojection is needed: `EPSG:4326`, `OGC:CRS84`, `CRS84`,
    /// `CRS:84`, the URNs `urn:ogc:def:crs:EPSG:[version]:4326` and
    /// `urn:ogc:def:crs:OGC:[version]:CRS84`, and the `http(s)://www.opengis.net/def/crs/...`
    /// URIs of both. Case and surrounding whitespace are ignored.
    ///
    /// A pure string test: WKT or PROJ strings describing WGS84 answer false, and transforming
    /// with them is then merely a no-op.
    public static func isGeographicWGS84(_ crsDefinition: String) -> Bool {
        let s = crsDefinition.trimmingWhitespace.uppercased()
        if ["EPSG:4326", "OGC:CRS84", "CRS84", "CRS:84"].contains(s) { return true }
        // urn:ogc:def:crs:{authority}:{version, possibly empty}:{code}
        let urn = s.split(separator: ":", omittingEmptySubsequences: false)
        if urn.count == 7, urn[0] == "URN", urn[1] == "OGC", urn[2] == "DEF", urn[3] == "CRS" {
            return Self.isWGS84Code(authority: urn[4], code: urn[6])
        }
        // http://www.opengis.net/def/crs/{authority}/{version}/{code}
        for prefix in ["HTTP://WWW.OPENGIS.NET/DEF/CRS/", "HTTPS://WWW.OPENGIS.NET/DEF/CRS/"] where s.hasPrefix(prefix)
        {
            let path = s.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            return path.count == 3 && Self.isWGS84Code(authority: path[0], code: path[2])
        }
        return false
    }

    private static func isWGS84Code(authority: Substring, code: Substring) -> Bool {
        (authority == "EPSG" && code == "4326") || (authority == "OGC" && code == "CRS84")
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, newlines and byte-order marks.
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
