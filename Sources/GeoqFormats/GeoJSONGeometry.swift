import GeoqCore

/// A problem inside a geometry, before the reader adds the file and feature to it.
struct GeometryIssue: Error, Sendable {
    var code: FormatError.Code
    /// e.g. `geometry.coordinates[0][2]`.
    var path: String
    var message: String
}

/// GeoJSON geometry objects (RFC 7946 §3.1) to core geometries. Shared by the GeoJSON reader
/// and the CSV reader's `geo_shape` column.
///
/// Rules: positions need at least two numbers (a third and further ones — altitude, measure —
/// are ignored); polygon rings must be closed and hold at least 4 positions (RFC 7946 §3.1.6;
/// open rings are an error, not silently closed); lines need at least 2 positions; empty
/// coordinate arrays are errors; `GeometryCollection` is not supported.
public enum GeoJSONGeometry {
    static let supportedTypes = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]

    /// The geometry, or nil for a JSON `null` geometry.
    static func parse(_ json: JSONValue, path: String) throws(GeometryIssue) -> Geometry? {
        if json.isNull { return nil }
        guard let object = json.objectValue else {
            throw GeometryIssue(
                code: .invalidGeometry, path: path, message: "expected a geometry object, found \(json.summary)")
        }
        let dot = path.isEmpty ? "" : "."
        guard let typeValue = object["type"] else {
            throw GeometryIssue(code: .missingField, path: path, message: "geometry has no 'type' member")
        }
        guard let type = typeValue.stringValue else {
            throw GeometryIssue(
                code: .invalidGeometry, path: path + dot + "type",
                message: "geometry type must be a string, found \(typeValue.summary)")
        }
        if type == "GeometryCollection" {
            throw GeometryIssue(
                code: .unsupportedGeometry, path: path + dot + "type",
                message: "GeometryCollection is not supported; split it into one feature per geometry")
        }
        guard supportedTypes.contains(type) else {
            var message = "unknown geometry type '\(type)' (expected \(supportedTypes.joined(separator: ", ")))"
            if let fix = supportedTypes.first(where: { $0.lowercased() == type.lowercased() }) {
                message += "; type names are case-sensitive: did you mean '\(fix)'?"
            }
            throw GeometryIssue(code: .unsupportedGeometry, path: path + dot + "type", message: message)
        }
        guard let coordinates = object["coordinates"] else {
            throw GeometryIssue(code: .missingField, path: path, message: "\(type) has no 'coordinates' member")
        }
        let cpath = path + dot + "coordinates"
        switch type {
        case "Point":
            return .point(try position(coordinates, path: cpath))
        case "MultiPoint":
            return .multiPoint(try positions(coordinates, path: cpath, minimum: 1, what: "MultiPoint"))
        case "LineString":
            return .lineString(try positions(coordinates, path: cpath, minimum: 2, what: "LineString"))
        case "MultiLineString":
            let lines = try array(coordinates, path: cpath, what: "MultiLineString", of: "lines")
            var result: [[Point]] = []
            result.reserveCapacity(lines.count)
            for (i, line) in lines.enumerated() {
                result.append(try positions(line, path: "\(cpath)[\(i)]", minimum: 2, what: "line"))
            }
            return .multiLineString(result)
        case "Polygon":
            return .polygon(try polygon(coordinates, path: cpath))
        default:  // MultiPolygon
            let polygons = try array(coordinates, path: cpath, what: "MultiPolygon", of: "polygons")
            var result: [Polygon] = []
            result.reserveCapacity(polygons.count)
            for (i, p) in polygons.enumerated() {
                result.append(try polygon(p, path: "\(cpath)[\(i)]"))
            }
            return .multiPolygon(MultiPolygon(result))
        }
    }

    static func polygon(_ json: JSONValue, path: String) throws(GeometryIssue) -> Polygon {
        let rings = try array(json, path: path, what: "polygon", of: "rings")
        var built: [Ring] = []
        built.reserveCapacity(rings.count)
        for (i, r) in rings.enumerated() {
            let ringPath = "\(path)[\(i)]"
            let points = try positions(r, path: ringPath, minimum: 0, what: "ring")
            do {
                // `positions` gives finite numbers only.
                built.append(try Ring(finite: RingPoints(points)))
            } catch {
                let role = i == 0 ? "outer ring" : "hole \(i)"
                throw GeometryIssue(
                    code: .invalidGeometry, path: ringPath, message: RingMessages.describe(error, role: role))
            }
        }
        return Polygon(shell: built[0], holes: Array(built.dropFirst()))
    }

    /// The positions of an array of `[x, y]` pairs, every coordinate finite (else an error that
    /// names the position).
    static func positions(_ json: JSONValue, path: String, minimum: Int, what: String) throws(GeometryIssue) -> [Point]
    {
        if case .positions(let points) = json {
            // Finite by construction: the parser reads a pair too large to be one the general way.
            try check(count: points.count, path: path, minimum: minimum, what: what)
            return points
        }
        guard let items = json.arrayValue else {
            throw GeometryIssue(
                code: .invalidGeometry, path: path,
                message: "expected an array of [lon, lat] positions, found \(json.summary)")
        }
        try check(count: items.count, path: path, minimum: minimum, what: what)
        var points: [Point] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            // The path only when there is an error: building it for every position costs more
            // than reading the position.
            do { points.append(try position(item, path: "")) } catch {
                throw GeometryIssue(code: error.code, path: "\(path)[\(i)]", message: error.message)
            }
        }
        return points
    }

    private static func check(count: Int, path: String, minimum: Int, what: String) throws(GeometryIssue) {
        if count < minimum {
            throw GeometryIssue(
                code: .invalidGeometry, path: path,
                message: "\(what) has \(count) position\(count == 1 ? "" : "s"); at least \(minimum) needed")
        }
    }

    @inline(__always)
    static func position(_ json: JSONValue, path: String) throws(GeometryIssue) -> Point {
        if case .array(let pair) = json, pair.count >= 2, case .number(let x) = pair[0], case .number(let y) = pair[1] {
            guard x.isFinite, y.isFinite else {
                throw GeometryIssue(code: .invalidGeometry, path: path, message: "coordinate is not a finite number")
            }
            return Point(x: x, y: y)
        }
        throw GeometryIssue(
            code: .invalidGeometry, path: path, message: "expected [lon, lat] number pair, found \(json.summary)")
    }

    private static func array(_ json: JSONValue, path: String, what: String, of parts: String) throws(GeometryIssue)
        -> [JSONValue]
    {
        guard let items = json.arrayValue else {
            throw GeometryIssue(
                code: .invalidGeometry, path: path, message: "expected an array of \(parts), found \(json.summary)")
        }
        if items.isEmpty {
            throw GeometryIssue(code: .invalidGeometry, path: path, message: "\(what) is empty (no \(parts))")
        }
        return items
    }
}
