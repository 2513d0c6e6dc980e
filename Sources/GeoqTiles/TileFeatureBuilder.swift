import GeoqCore

/// Turns features in longitude and latitude into features on one tile's grid: projected by
/// spherical Web Mercator, clipped to the tile and its buffer (``TileClipper``), simplified
/// (``TileSimplifier``), rounded to the grid, cleaned, and polygons wound as MVT 2.1 §4.3.4.4
/// says; attributes from the feature's properties, name and id.
///
/// Geometry contract of a built feature:
/// - every point lies in the buffered square (clipping happens before rounding, in `Double`);
/// - lines: repeated points removed; a line with fewer than 2 distinct points is dropped;
/// - rings: repeated points, collinear points and zero-area spikes removed; a ring with fewer
///   than 3 corners or an area below ``TileEncodingOptions/minimumRingArea`` is dropped, and a
///   polygon whose exterior ring is dropped goes with its holes; exterior rings have positive
///   shoelace area on the grid (y down) and holes negative, each exterior followed by its holes;
/// - points: those inside the buffered square, rounded; repeats of the point before removed.
///
/// Attributes: the properties in key order (so that equal features give equal bytes), `.null`
/// ones left out; then the name under ``TileEncodingOptions/nameAttribute`` and the text id
/// under ``TileEncodingOptions/idAttribute`` unless a property already has that key. The MVT
/// id is set when ``GeoqCore/Feature/id`` is a non-negative decimal integer that fits 64 bits.
///
/// Not thread-safe to share, cheap to make: it owns scratch buffers reused from one feature to
/// the next, so that building allocates only the arrays of the result once warm.
public struct TileFeatureBuilder: Sendable {
    /// What became of a feature.
    public enum Outcome: Hashable, Sendable {
        case feature(TileFeature)
        /// It met the tile but nothing drawable was left after simplifying and rounding.
        case tooSmall
        /// It does not meet the tile with its buffer.
        case outside
    }

    public let tile: TileID
    public let options: TileEncodingOptions
    public let clipper: TileClipper
    /// Grid units across the world at this zoom, and the tile's north-west corner in them.
    private let worldSize: Double
    private let originX: Double
    private let originY: Double

    private var projected: [Point] = []
    private var clipped: [Point] = []
    private var scratch: [Point] = []
    private var pieceEnds: [Int] = []
    private var workspace = TileSimplifier.Workspace()
    /// Whether a shape's runs beyond a side of the square are passed over (``GridShape``); off
    /// only to show that passing over them changes nothing.
    var passesOverRuns = true

    public init(tile: TileID, options: TileEncodingOptions = TileEncodingOptions()) {
        self.tile = tile
        self.options = options
        clipper = TileClipper(extent: options.extent, buffer: options.buffer)
        let extent = Double(options.extent)
        worldSize = Double(tile.tilesPerSide) * extent
        originX = Double(tile.x) * extent
        originY = Double(tile.y) * extent
    }

    /// `p` (longitude, latitude) in the tile's grid units, before rounding: x eastwards and y
    /// southwards from the tile's north-west corner.
    public func project(_ p: Point) -> Point {
        Point(
            x: WebMercator.x(longitude: p.x) * worldSize - originX,
            y: WebMercator.y(latitude: p.y) * worldSize - originY)
    }

    /// `box` (longitude, latitude) in grid units; y grows southwards, so north becomes minY.
    public func project(_ box: BoundingBox) -> BoundingBox {
        let northWest = project(Point(x: box.minX, y: box.maxY))
        let southEast = project(Point(x: box.maxX, y: box.minY))
        return BoundingBox(minX: northWest.x, minY: northWest.y, maxX: southEast.x, maxY: southEast.y)
    }

    /// `feature` on the tile's grid, or why it is not there; without attributes when
    /// `withAttributes` is false (the caller numbered them once, see ``TileAttributeTable``).
    public mutating func build(_ feature: Feature, withAttributes: Bool = true) -> Outcome {
        let box = feature.geometry.boundingBox
        guard !box.isEmpty, clipper.meets(project(box)) else { return .outside }
        var points: [GridPoint] = []
        var ends: [Int] = []
        var sawTooSmall = false
        let kind: TileGeometry.Kind
        switch feature.geometry {
        case .point(let p):
            kind = .point
            addPoints(CollectionOfOne(p), to: &points)
        case .multiPoint(let ps):
            kind = .point
            points.reserveCapacity(ps.count)
            addPoints(ps, to: &points)
        case .lineString(let line):
            kind = .lineString
            sawTooSmall = addLine(line, to: &points, ends: &ends)
        case .multiLineString(let lines):
            kind = .lineString
            for line in lines where addLine(line, to: &points, ends: &ends) { sawTooSmall = true }
        case .polygon(let polygon):
            kind = .polygon
            sawTooSmall = addPolygon(polygon, to: &points, ends: &ends)
        case .multiPolygon(let parts):
            kind = .polygon
            for polygon in parts.polygons where addPolygon(polygon, to: &points, ends: &ends) { sawTooSmall = true }
        }
        if kind == .point, !points.isEmpty { ends = [points.count] }
        guard !points.isEmpty else { return sawTooSmall ? .tooSmall : .outside }
        return .feature(
            TileFeature(
                id: Self.numericID(feature.id),
                attributes: withAttributes ? Self.attributes(of: feature, options: options) : [],
                geometry: TileGeometry(kind: kind, points: points, partEnds: ends)))
    }

    // MARK: Geometry

    @inline(__always)
    private func rounded(_ p: Point) -> GridPoint {
        GridPoint(x: Int32(p.x.rounded()), y: Int32(p.y.rounded()))
    }

    private func addPoints<C: Collection<Point>>(_ ps: C, to points: inout [GridPoint]) {
        for p in ps {
            let q = project(p)
            guard clipper.contains(q) else { continue }
            let g = rounded(q)
            if points.last != g { points.append(g) }
        }
    }

    /// Adds the pieces of `line` inside the tile; true when a piece was dropped as too short.
    private mutating func addLine(_ line: [Point], to points: inout [GridPoint], ends: inout [Int]) -> Bool {
        guard !line.isEmpty else { return false }
        let box = line.withUnsafeBufferPointer { project($0[...]) }
        return addProjectedLine(box: box, to: &points, ends: &ends)
    }

    /// Adds the pieces of the line in ``projected`` (whose bounds are `box`) inside the tile.
    private mutating func addProjectedLine(box: BoundingBox, to points: inout [GridPoint], ends: inout [Int]) -> Bool {
        guard clipper.meets(box) else { return false }
        clipped.removeAll(keepingCapacity: true)
        pieceEnds.removeAll(keepingCapacity: true)
        if clipper.contains(box) {
            clipped.append(contentsOf: projected)
            pieceEnds.append(clipped.count)
        } else {
            clipper.clip(line: projected, into: &clipped, pieceEnds: &pieceEnds)
        }
        var tooShort = false
        var start = 0
        for end in pieceEnds {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: clipped[start..<end])
            start = end
            TileSimplifier.simplify(
                &scratch, from: 0, tolerance: options.simplificationTolerance, closed: false, work: &workspace)
            let partStart = points.count
            for q in scratch {
                let g = rounded(q)
                if points.count == partStart || points[points.count - 1] != g { points.append(g) }
            }
            if points.count - partStart < 2 {
                points.removeLast(points.count - partStart)
                tooShort = true
            } else {
                ends.append(points.count)
            }
        }
        return tooShort
    }

    /// Replaces ``projected`` with `positions` (longitude, latitude) on the tile's grid; their
    /// bounds.
    private mutating func project(_ positions: Slice<UnsafeBufferPointer<Point>>) -> BoundingBox {
        // Locals, and the buffer moved out of `self`: a closure over `self` would copy the
        // builder, its buffers included, at every position.
        var out: [Point] = []
        swap(&out, &projected)
        out.removeAll(keepingCapacity: true)
        let (scale, originX, originY) = (worldSize, originX, originY)
        var box = BoundingBox.empty
        for p in positions {
            let q = Point(
                x: WebMercator.x(longitude: p.x) * scale - originX, y: WebMercator.y(latitude: p.y) * scale - originY)
            box.expand(toInclude: q)
            out.append(q)
        }
        swap(&out, &projected)
        return box
    }

    /// Replaces ``projected`` with part `part` of `shape` shifted onto the tile's grid, each run
    /// wholly beyond one side of the buffered square passed over with its first and last
    /// positions (see ``GridShape``); the bounds of what was kept.
    private mutating func shift(_ shape: GridShape, part: Int) -> BoundingBox {
        var out: [Point] = []
        swap(&out, &projected)
        out.removeAll(keepingCapacity: true)
        let (originX, originY, low, high, passesOverRuns) = (
            originX, originY, clipper.minimum, clipper.maximum, passesOverRuns
        )
        var box = BoundingBox.empty
        let range = shape.range(ofPart: part)
        shape.points.withUnsafeBufferPointer { ps in
            shape.runBoxes.withUnsafeBufferPointer { runs in
                var run = shape.firstRuns[part]
                var start = range.lowerBound
                while start < range.upperBound {
                    let end = Swift.min(start + GridShape.runLength, range.upperBound)
                    let r = runs[run]
                    let beyond = Self.lies(r, beyondASideOf: low...high, shiftedBy: originX, originY)
                    if beyond && passesOverRuns && end - start > 2 {
                        for i in [start, end - 1] {
                            let q = Point(x: ps[i].x - originX, y: ps[i].y - originY)
                            box.expand(toInclude: q)
                            out.append(q)
                        }
                    } else {
                        for i in start..<end {
                            let q = Point(x: ps[i].x - originX, y: ps[i].y - originY)
                            box.expand(toInclude: q)
                            out.append(q)
                        }
                    }
                    start = end
                    run += 1
                }
            }
        }
        swap(&out, &projected)
        return box
    }

    /// Adds the rings of `polygon` left inside the tile; true when a ring met the tile but was
    /// dropped as too small.
    private mutating func addPolygon(_ polygon: Polygon, to points: inout [GridPoint], ends: inout [Int]) -> Bool {
        addPolygon(rings: 1 + polygon.holes.count, to: &points, ends: &ends) { builder, i in
            // The closing point repeats the first: rings are clipped open.
            (i == 0 ? polygon.shell : polygon.holes[i - 1]).points.withUnsafeBufferPointer {
                builder.project($0.dropLast())
            }
        }
    }

    /// Adds a polygon's `rings`, the shell first, each put into ``projected`` by `project` (which
    /// returns its bounds): the holes only when the shell is kept. True when a ring met the tile
    /// but was dropped as too small.
    private mutating func addPolygon(
        rings: Int, to points: inout [GridPoint], ends: inout [Int],
        project: (inout TileFeatureBuilder, Int) -> BoundingBox
    ) -> Bool {
        switch addProjectedRing(box: project(&self, 0), exterior: true, to: &points, ends: &ends) {
        case .outside: return false
        case .tooSmall: return true
        case .kept: break
        }
        var tooSmall = false
        for hole in 1..<rings
        where addProjectedRing(box: project(&self, hole), exterior: false, to: &points, ends: &ends) == .tooSmall {
            tooSmall = true
        }
        return tooSmall
    }

    private enum RingOutcome { case kept, tooSmall, outside }

    /// Adds the ring in ``projected`` (whose bounds are `box`) as far as it is inside the tile.
    private mutating func addProjectedRing(
        box: BoundingBox, exterior: Bool, to points: inout [GridPoint], ends: inout [Int]
    ) -> RingOutcome {
        guard clipper.meets(box) else { return .outside }
        if clipper.contains(box) {
            swap(&projected, &clipped)
        } else {
            clipper.clip(ring: projected, into: &clipped, scratch: &scratch)
            // A ring that misses the square can leave a trace of no area along its border.
            guard Self.doubleArea(clipped) != 0 else { return .outside }
        }
        TileSimplifier.simplify(
            &clipped, from: 0, tolerance: options.simplificationTolerance, closed: true, work: &workspace)
        let start = points.count
        for q in clipped { points.append(rounded(q)) }
        GridGeometry.reduceRing(&points, from: start)
        let doubleArea = points.withUnsafeBufferPointer {
            GridGeometry.signedDoubleArea($0, start..<points.count)
        }
        guard points.count - start >= 3, Double(doubleArea.magnitude) / 2 >= options.minimumRingArea else {
            points.removeLast(points.count - start)
            return .tooSmall
        }
        // MVT 2.1 §4.3.4.4: exterior rings positive on the grid (y down), holes negative.
        if (doubleArea > 0) != exterior { points[start...].reverse() }
        ends.append(points.count)
        return .kept
    }

    // MARK: Shapes made once for a zoom

    /// Whether `run` (world grid), shifted by the tile's origin, lies wholly beyond one side of
    /// the square `square` × `square`. Subtraction is monotonic: the shifted bounds bound the
    /// shifted positions.
    @inline(__always)
    static func lies(
        _ run: BoundingBox, beyondASideOf square: ClosedRange<Double>, shiftedBy originX: Double, _ originY: Double
    ) -> Bool {
        run.maxX - originX < square.lowerBound || run.minX - originX > square.upperBound
            || run.maxY - originY < square.lowerBound || run.minY - originY > square.upperBound
    }

    /// `shape` (on this tile's zoom's world grid) on the tile's grid, with no attributes and
    /// the MVT id `id`, or why it is not there: what ``build(_:withAttributes:)`` gives the
    /// feature the shape was made from, had its geometry been the shape's.
    mutating func build(_ shape: GridShape, id: UInt64?) -> Outcome {
        let box = BoundingBox(
            minX: shape.box.minX - originX, minY: shape.box.minY - originY, maxX: shape.box.maxX - originX,
            maxY: shape.box.maxY - originY)
        guard !shape.box.isEmpty, clipper.meets(box) else { return .outside }
        var points: [GridPoint] = []
        var ends: [Int] = []
        var sawTooSmall = false
        switch shape.kind {
        case .point:
            for p in shape.points {
                let q = Point(x: p.x - originX, y: p.y - originY)
                guard clipper.contains(q) else { continue }
                let g = rounded(q)
                if points.last != g { points.append(g) }
            }
            if !points.isEmpty { ends = [points.count] }
        case .lineString:
            for part in shape.partEnds.indices where !shape.range(ofPart: part).isEmpty {
                let box = shift(shape, part: part)
                if addProjectedLine(box: box, to: &points, ends: &ends) { sawTooSmall = true }
            }
        case .polygon:
            var first = 0
            for polygonEnd in shape.polygonEnds {
                let shell = first
                first = polygonEnd
                if addPolygon(
                    rings: polygonEnd - shell, to: &points, ends: &ends, project: { $0.shift(shape, part: shell + $1) })
                {
                    sawTooSmall = true
                }
            }
        }
        guard !points.isEmpty else { return sawTooSmall ? .tooSmall : .outside }
        return .feature(
            TileFeature(
                id: id, attributes: [], geometry: TileGeometry(kind: shape.kind, points: points, partEnds: ends)))
    }

    /// Twice the shoelace area of an open ring in `Double`, sign included.
    private static func doubleArea(_ ring: [Point]) -> Double {
        guard let last = ring.last, ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = last
        for p in ring {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return sum
    }

    // MARK: Attributes

    /// The MVT id of a text id: its value when it is a non-negative decimal integer that fits
    /// 64 bits, else nil.
    public static func numericID(_ id: String) -> UInt64? {
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(id)
    }

    /// The attributes a tile gives `feature` with `options`.
    public static func attributes(of feature: Feature, options: TileEncodingOptions) -> [TileFeature.Attribute] {
        var attributes: [TileFeature.Attribute] = []
        attributes.reserveCapacity(feature.properties.count + 2)
        for key in feature.properties.keys.sorted() {
            if let value = TileValue(feature.properties[key]!) {
                attributes.append(TileFeature.Attribute(key: key, value: value))
            }
        }
        func isFree(_ key: String) -> Bool {
            guard let property = feature.properties[key] else { return true }
            return property == .null
        }
        if let key = options.nameAttribute, let name = feature.name, isFree(key) {
            attributes.append(TileFeature.Attribute(key: key, value: .string(name)))
        }
        if let key = options.idAttribute, isFree(key), key != options.nameAttribute || feature.name == nil {
            attributes.append(TileFeature.Attribute(key: key, value: .string(feature.id)))
        }
        return attributes
    }
}
