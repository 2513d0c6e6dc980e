/// Whether a geometry meets a box: the one test behind "the features in this bbox" and "the
/// features in this tile", so that an OGC items query and a vector tile select the same
/// features.
///
/// Exact, as GEOS's `intersects` against the box's polygon: a geometry that only touches the
/// box's border meets it. The box is closed. A point is tested against the box's bounds; a line
/// meets the box when one of its segments does; a polygon when one of its rings' edges does,
/// or else when it holds the box (no edge meets it, so the box is wholly inside or wholly
/// outside: one corner tells which). Segments are tested with the exact ``Orientation``, so a
/// vertex exactly on the border is never lost to rounding. O(vertices).
extension Geometry {
    public func intersects(_ box: BoundingBox) -> Bool {
        guard !box.isEmpty else { return false }
        switch self {
        case .point(let point): return box.contains(point)
        case .multiPoint(let points): return points.contains { box.contains($0) }
        case .lineString(let points): return Self.line(points, meets: box)
        case .multiLineString(let lines): return lines.contains { Self.line($0, meets: box) }
        case .polygon(let polygon): return polygon.intersects(box)
        case .multiPolygon(let shapes): return shapes.polygons.contains { $0.intersects(box) }
        }
    }

    static func line(_ points: some Collection<Point>, meets box: BoundingBox) -> Bool {
        guard var previous = points.first else { return false }
        if points.count == 1 { return box.contains(previous) }
        for point in points.dropFirst() {
            if Segment(previous, point).intersects(box) { return true }
            previous = point
        }
        return false
    }
}

extension Polygon {
    /// Whether the polygon (its area and its boundary) meets the closed box.
    public func intersects(_ box: BoundingBox) -> Bool {
        guard boundingBox.intersects(box) else { return false }
        for ring in rings where ring.boundingBox.intersects(box) {
            var previous = ring.points[0]
            for index in 1..<ring.points.count {
                let point = ring.points[index]
                if Segment(previous, point).intersects(box) { return true }
                previous = point
            }
        }
        return locate(Point(x: box.minX, y: box.minY)) != .exterior
    }
}

extension Segment {
    /// Whether the segment meets the closed box: their bounds overlap and the box's corners do
    /// not all lie strictly on one side of the segment's line (the box is convex, so then the
    /// line crosses it within the overlap of the bounds).
    public func intersects(_ box: BoundingBox) -> Bool {
        guard boundingBox.intersects(box) else { return false }
        let corners = [
            Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY), Point(x: box.maxX, y: box.maxY),
            Point(x: box.minX, y: box.maxY),
        ]
        var left = false
        var right = false
        for corner in corners {
            switch Orientation.index(start, end, corner) {
            case 1: left = true
            case -1: right = true
            default: return true
            }
            if left && right { return true }
        }
        return false
    }
}
