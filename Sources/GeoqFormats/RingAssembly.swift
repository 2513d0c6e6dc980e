import GeoqCore

/// Groups the rings of a shapefile polygon record into polygons.
///
/// In a shapefile, outer rings are clockwise and holes counter-clockwise (with y to the north),
/// and the parts of one record come in no particular order. Each hole goes to the smallest outer
/// ring that contains one of its vertices (tested with a bounding-box filter, then an even–odd
/// ray crossing). A counter-clockwise ring that no outer ring contains is taken as an outer ring
/// itself (writers that ignore the orientation rule produce these); degenerate rings of zero
/// area count as outer rings.
///
/// Complexity: O(h · o · n) for h holes, o outer rings and n vertices per tested outer ring, the
/// bounding-box filter skipping most pairs.
enum RingAssembly {
    struct Result {
        var polygons: [Polygon]
        /// Counter-clockwise rings that no outer ring contained, promoted to outer rings.
        var orphanHoles: Int
    }

    static func polygons(from rings: [Ring]) -> Result {
        struct Outer {
            var ring: Ring
            var box: BoundingBox
            var area: Double
            var holes: [Ring] = []
        }
        var outers: [Outer] = []
        var holes: [Ring] = []
        for ring in rings {
            let doubleArea = ring.signedDoubleArea
            if doubleArea > 0 {
                holes.append(ring)
            } else {
                outers.append(Outer(ring: ring, box: ring.boundingBox, area: -doubleArea))
            }
        }
        var orphans = 0
        for hole in holes {
            let box = hole.boundingBox
            // A vertex of the hole that lies strictly inside its candidate; the first will do for
            // well-formed data (holes touch their shell at most at a point).
            let probe = hole.points[0]
            var best: Int?
            for (i, outer) in outers.enumerated() {
                guard outer.box.contains(Point(x: box.minX, y: box.minY)),
                    outer.box.contains(Point(x: box.maxX, y: box.maxY))
                else {
                    continue
                }
                guard contains(outer.ring, probe) || contains(outer.ring, hole.points[hole.points.count / 2]) else {
                    continue
                }
                if let b = best, outers[b].area <= outer.area { continue }
                best = i
            }
            if let best {
                outers[best].holes.append(hole)
            } else {
                orphans += 1
                outers.append(Outer(ring: hole, box: box, area: hole.signedDoubleArea))
            }
        }
        return Result(polygons: outers.map { Polygon(shell: $0.ring, holes: $0.holes) }, orphanHoles: orphans)
    }

    /// Even–odd ray crossing: true when `p` is inside `ring` (boundary points may go either way).
    static func contains(_ ring: Ring, _ p: Point) -> Bool {
        let pts = ring.points
        var inside = false
        var j = pts.count - 1
        for i in 0..<pts.count {
            let a = pts[i], b = pts[j]
            if (a.y > p.y) != (b.y > p.y) {
                let xCross = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if p.x < xCross { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}
