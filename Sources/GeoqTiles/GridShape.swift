import GeoqCore

/// A feature's geometry on one zoom's world grid: spherical Web Mercator, 4096 units a tile, x
/// eastwards and y southwards from the world's north-west corner. Made once for a zoom
/// (``ZoomGeometries``), so that a tile of that zoom only shifts it onto its own grid instead of
/// projecting every position again.
///
/// Each part's positions are kept in runs of ``runLength`` with their bounds. A tile passes
/// over a run that lies wholly beyond one side of its buffered square with the run's first
/// and last positions only: the chord stays beyond that side with the run (a half-plane is
/// convex), so what lies inside the square, and what the clipper makes of it, is unchanged,
/// while a zone as large as Russia no longer costs each of its tiles all its positions.
struct GridShape: Sendable {
    /// Positions in a run; the bounds of a run cost 32 bytes, one a position.
    static let runLength = 32

    let kind: TileGeometry.Kind
    /// Every part's positions, part after part; rings open (the first position not repeated).
    let points: [Point]
    /// The end (exclusive) of each part in ``points``.
    let partEnds: [Int]
    /// For polygons, the end (exclusive, in parts) of each polygon: its first part is its
    /// shell, the others its holes.
    let polygonEnds: [Int]
    /// The bounds of each run, part after part.
    let runBoxes: [BoundingBox]
    /// The index in ``runBoxes`` of each part's first run.
    let firstRuns: [Int]
    /// The bounds of every position.
    let box: BoundingBox

    /// A shape of `kind` from its parts (each an array of grid positions, rings open), and for
    /// polygons the number of parts of each polygon (a shell and its holes).
    init(kind: TileGeometry.Kind, parts: [[Point]], partsPerPolygon: [Int] = []) {
        self.kind = kind
        var points: [Point] = []
        points.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        var partEnds: [Int] = []
        var runBoxes: [BoundingBox] = []
        var firstRuns: [Int] = []
        var box = BoundingBox.empty
        for part in parts {
            firstRuns.append(runBoxes.count)
            var start = 0
            while start < part.count {
                let end = Swift.min(start + Self.runLength, part.count)
                var run = BoundingBox.empty
                for p in part[start..<end] { run.expand(toInclude: p) }
                runBoxes.append(run)
                box = box.union(run)
                start = end
            }
            points.append(contentsOf: part)
            partEnds.append(points.count)
        }
        var polygonEnds: [Int] = []
        var parts = 0
        for count in partsPerPolygon {
            parts += count
            polygonEnds.append(parts)
        }
        self.points = points
        self.partEnds = partEnds
        self.polygonEnds = polygonEnds
        self.runBoxes = runBoxes
        self.firstRuns = firstRuns
        self.box = box
    }

    /// The range of ``points`` part `i` occupies.
    func range(ofPart i: Int) -> Range<Int> {
        (i == 0 ? 0 : partEnds[i - 1])..<partEnds[i]
    }
}
