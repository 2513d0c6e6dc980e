import CPrefetch

/// A static packed R-tree over points of the ellipsoid, keyed by their Earth-centred cartesian
/// positions (metres): the spatial half of ``PointIndex``.
///
/// Why 3-D: the straight line between two points is never longer than the geodesic, and the
/// squared distance from a query to a box of positions is a few subtractions and
/// multiplications: a lower bound of the geodesic distance to every point inside, with no
/// trigonometry, no antimeridian and no pole to treat apart. Boxes and points are ranked by one
/// measure, the chord, so a point costs the search as little as a box.
///
/// Layout (implicit, as in flatbush): level 0 holds the points in tree order, and entry `j` of
/// level `L > 0` bounds entries `j·nodeSize ..< (j+1)·nodeSize` of level `L − 1` (fewer at the
/// end of a level). The top level has one entry. Tree order is a Hilbert curve over longitude and
/// latitude, which keeps each run of neighbours compact at every level.
///
/// Boxes are stored by sibling group, columns apart (as a structure of arrays): the eight
/// entries `8g ..< 8g + 8` of a level, the children of one node, are six `SIMD8<Float>` rows
/// (lower x, y, z, upper x, y, z), so that expanding a node keys its eight children in a few
/// vector operations and reads three cache lines. The points are stored the same way, a leaf's
/// eight as three `SIMD8<Double>` rows (x, y, z): a leaf's chords are a few vector operations
/// over three cache lines, and the caller's indices live apart, as they are read only for the
/// points within reach.
///
/// Invariants: `items[i]` is the caller's index of the point at tree position `i`, and
/// ``position(at:)`` its position; a box's lower and upper bounds hold the position of every
/// point under it, componentwise; the lanes of a group past the end of its level are empty
/// boxes (lower +∞, upper −∞), infinitely far from every query, and the lanes of a leaf past the
/// last point are NaN, within no reach.
struct PositionTree: Sendable {
    static let nodeSize = 8

    /// The points' positions in tree order, by leaf: the point at tree position `i` is lane
    /// `i % 8` of rows `leafRows[3 (i / 8) + r]`, r = 0, 1, 2 its x, y, z (metres).
    let leafRows: [SIMD8<Double>]
    /// The caller's index of the point at each tree position.
    let items: [Int32]
    /// The boxes of levels 1... up to the root, by sibling group, one level after the other:
    /// entry `j` of level `L` is lane `j % 8` of rows `boxes[6 (groupStarts[L] + j / 8) + r]`,
    /// r = 0, 1, 2 its lower and 3, 4, 5 its upper bounds in x, y, z (metres). Single precision,
    /// rounded outwards, so a box takes 24 bytes and still holds its points; the looser bound
    /// (half a metre at most) only makes the search look at a few more boxes.
    let boxes: [SIMD8<Float>]
    /// Where each level starts in the numbering of sibling groups (level 0, the points, has
    /// none); then one past the end.
    let groupStarts: [Int]
    /// Number of entries per level, level 0 (the points) first.
    let levelCounts: [Int]

    /// Builds the tree over `items`: (caller's index, latitude, longitude in degrees), all valid.
    init(_ items: [(index: Int, latitude: Double, longitude: Double)]) {
        var items = items
        Self.sortAlongHilbertCurve(&items)
        let positions = items.map { EllipsoidPosition(latitude: $0.latitude, longitude: $0.longitude) }
        self.items = items.map { Int32($0.index) }
        leafRows = Self.leaves(positions)
        var boxes: [SIMD8<Float>] = []
        var groupStarts = [0, 0]
        var levelCounts = [positions.count]
        var lower = positions
        var upper = lower
        while lower.count > 1 {
            var parentLower: [SIMD4<Double>] = [], parentUpper: [SIMD4<Double>] = []
            for start in stride(from: 0, to: lower.count, by: Self.nodeSize) {
                let end = Swift.min(start + Self.nodeSize, lower.count)
                var lo = lower[start], hi = upper[start]
                for j in (start + 1)..<end {
                    lo = pointwiseMin(lo, lower[j])
                    hi = pointwiseMax(hi, upper[j])
                }
                parentLower.append(lo)
                parentUpper.append(hi)
            }
            boxes += Self.groups(lower: parentLower, upper: parentUpper)
            levelCounts.append(parentLower.count)
            groupStarts.append(boxes.count / 6)
            lower = parentLower
            upper = parentUpper
        }
        self.boxes = boxes
        self.groupStarts = groupStarts
        self.levelCounts = levelCounts
    }

    /// The rows of the leaves: each run of eight positions as x, y and z rows; lanes past the
    /// last position NaN.
    static func leaves(_ positions: [EllipsoidPosition]) -> [SIMD8<Double>] {
        var rows: [SIMD8<Double>] = []
        rows.reserveCapacity(3 * ((positions.count + Self.nodeSize - 1) / Self.nodeSize))
        for first in stride(from: 0, to: positions.count, by: Self.nodeSize) {
            var x = SIMD8<Double>(repeating: .nan), y = x, z = x
            for lane in 0..<Swift.min(Self.nodeSize, positions.count - first) {
                x[lane] = positions[first + lane].x
                y[lane] = positions[first + lane].y
                z[lane] = positions[first + lane].z
            }
            rows += [x, y, z]
        }
        return rows
    }

    /// The rows of one level's boxes by sibling group: single precision, each bound rounded
    /// outwards; lanes past the end are empty boxes.
    static func groups(lower: [SIMD4<Double>], upper: [SIMD4<Double>]) -> [SIMD8<Float>] {
        var rows: [SIMD8<Float>] = []
        for first in stride(from: 0, to: lower.count, by: Self.nodeSize) {
            var group = [SIMD8<Float>](repeating: SIMD8(repeating: .infinity), count: 3)
            group += [SIMD8<Float>](repeating: SIMD8(repeating: -.infinity), count: 3)
            for lane in 0..<Swift.min(Self.nodeSize, lower.count - first) {
                for axis in 0..<3 {
                    let lo = Float(lower[first + lane][axis]), hi = Float(upper[first + lane][axis])
                    group[axis][lane] = Double(lo) > lower[first + lane][axis] ? lo.nextDown : lo
                    group[axis + 3][lane] = Double(hi) < upper[first + lane][axis] ? hi.nextUp : hi
                }
            }
            rows += group
        }
        return rows
    }

    /// Number of points indexed.
    var count: Int { items.count }

    /// The position (w = 0) of the point at tree position `i`.
    @inline(__always)
    func position(at i: Int) -> EllipsoidPosition {
        leafRows.withUnsafeBufferPointer { Self.position(at: i, in: $0) }
    }

    /// The position (w = 0) of the point at tree position `i`, from the leaf rows lent by
    /// `leafRows.withUnsafeBufferPointer`.
    @inline(__always)
    static func position(at i: Int, in rows: UnsafeBufferPointer<SIMD8<Double>>) -> EllipsoidPosition {
        let row = rows.baseAddress! + 3 * (i / nodeSize)
        let lane = i % nodeSize
        return EllipsoidPosition(row[0][lane], row[1][lane], row[2][lane], 0)
    }

    /// The level of the root (0 when the tree holds a single point or none).
    var rootLevel: Int { levelCounts.count - 1 }

    /// The squared distance in square metres from `q` (w = 0) to the nearest point of the box
    /// of entry `j` at `level` (1 and up): never above the squared chord to any point under it.
    func squaredDistance(from q: SIMD4<Double>, level: Int, entry j: Int) -> Double {
        let keys = squaredDistances(from: q, level: level, group: j / Self.nodeSize)
        let lane = j % Self.nodeSize
        return lane < 4 ? keys.low[lane] : keys.high[lane - 4]
    }

    /// The squared distances in square metres from `q` (w = 0) to the eight boxes of sibling
    /// group `g` at `level` (1 and up), lanes 0–3 in `low` and 4–7 in `high`; infinity for
    /// lanes past the end of the level.
    @inline(__always)
    func squaredDistances(from q: SIMD4<Double>, level: Int, group g: Int) -> (low: SIMD4<Double>, high: SIMD4<Double>)
    {
        boxes.withUnsafeBufferPointer { rows in
            let row = rows.baseAddress! + 6 * (groupStarts[level] + g)
            // Per axis, how far q lies outside [lower, upper] (0 inside).
            @inline(__always)
            func gap(_ lower: SIMD4<Float>, _ upper: SIMD4<Float>, _ q: Double) -> SIMD4<Double> {
                let q = SIMD4<Double>(repeating: q)
                let below = SIMD4<Double>(lower) - q, above = q - SIMD4<Double>(upper)
                let outside = below.replacing(with: above, where: above .> below)
                return outside.replacing(with: 0, where: outside .< 0)
            }
            let lowX = gap(row[0].lowHalf, row[3].lowHalf, q.x), highX = gap(row[0].highHalf, row[3].highHalf, q.x)
            let lowY = gap(row[1].lowHalf, row[4].lowHalf, q.y), highY = gap(row[1].highHalf, row[4].highHalf, q.y)
            let lowZ = gap(row[2].lowHalf, row[5].lowHalf, q.z), highZ = gap(row[2].highHalf, row[5].highHalf, q.z)
            return (lowX * lowX + lowY * lowY + lowZ * lowZ, highX * highX + highY * highY + highZ * highZ)
        }
    }

    /// Asks the CPU to fetch what expanding entry `j` of `level` (1 and up) will read: its
    /// children's boxes (one sibling group, 192 bytes), or its points at level 1 (their rows,
    /// 192 bytes, and their indices).
    @inline(__always)
    func prefetch(level: Int, entry j: Int) {
        if level == 1 {
            leafRows.withUnsafeBufferPointer { rows in
                let base = UnsafeRawPointer(rows.baseAddress! + 3 * j)
                for line in stride(from: 0, to: 3 * 64, by: 64) { geoq_prefetch(base + line) }
            }
            items.withUnsafeBufferPointer { geoq_prefetch($0.baseAddress! + j * Self.nodeSize) }
        } else {
            boxes.withUnsafeBufferPointer { b in
                let base = UnsafeRawPointer(b.baseAddress! + 6 * (groupStarts[level - 1] + j))
                for line in stride(from: 0, to: 6 * 32, by: 64) { geoq_prefetch(base + line) }
            }
        }
    }

    /// Orders items along a Hilbert curve over longitude and latitude (a 2¹⁶ × 2¹⁶ grid), as
    /// flatbush does: every run of consecutive items, at every level, is then compact.
    static func sortAlongHilbertCurve(_ items: inout [(index: Int, latitude: Double, longitude: Double)]) {
        let side = Double(UInt32(1) << 16 - 1)
        let keyed = items.map { item in
            let x = UInt32(((item.longitude + 180) / 360 * side).rounded())
            let y = UInt32(((item.latitude + 90) / 180 * side).rounded())
            return (key: hilbert(x, y), item: item)
        }
        items = keyed.sorted { ($0.key, $0.item.index) < ($1.key, $1.item.index) }.map(\.item)
    }

    /// Position of (x, y), both below 2¹⁶, along the Hilbert curve ("Fast Hilbert curve
    /// generation, sorting, and range queries" by rawrunprotected, public domain, as used by
    /// flatbush).
    static func hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var a = x ^ y
        var b = 0xFFFF ^ a
        var c = 0xFFFF ^ (x | y)
        var d = x & (y ^ 0xFFFF)
        var A = a | (b >> 1)
        var B = (a >> 1) ^ a
        var C = ((c >> 1) ^ (b & (d >> 1))) ^ c
        var D = ((a & (c >> 1)) ^ (d >> 1)) ^ d

        a = A; b = B; c = C; d = D
        A = ((a & (a >> 2)) ^ (b & (b >> 2)))
        B = ((a & (b >> 2)) ^ (b & ((a ^ b) >> 2)))
        C ^= ((a & (c >> 2)) ^ (b & (d >> 2)))
        D ^= ((b & (c >> 2)) ^ ((a ^ b) & (d >> 2)))

        a = A; b = B; c = C; d = D
        A = ((a & (a >> 4)) ^ (b & (b >> 4)))
        B = ((a & (b >> 4)) ^ (b & ((a ^ b) >> 4)))
        C ^= ((a & (c >> 4)) ^ (b & (d >> 4)))
        D ^= ((b & (c >> 4)) ^ ((a ^ b) & (d >> 4)))

        a = A; b = B; c = C; d = D
        C ^= ((a & (c >> 8)) ^ (b & (d >> 8)))
        D ^= ((b & (c >> 8)) ^ ((a ^ b) & (d >> 8)))

        a = C ^ (C >> 1)
        b = D ^ (D >> 1)

        var i0 = x ^ y
        var i1 = b | (0xFFFF ^ (i0 | a))

        i0 = (i0 | (i0 << 8)) & 0x00FF_00FF
        i0 = (i0 | (i0 << 4)) & 0x0F0F_0F0F
        i0 = (i0 | (i0 << 2)) & 0x3333_3333
        i0 = (i0 | (i0 << 1)) & 0x5555_5555

        i1 = (i1 | (i1 << 8)) & 0x00FF_00FF
        i1 = (i1 | (i1 << 4)) & 0x0F0F_0F0F
        i1 = (i1 | (i1 << 2)) & 0x3333_3333
        i1 = (i1 | (i1 << 1)) & 0x5555_5555

        return (i1 << 1) | i0
    }
}
