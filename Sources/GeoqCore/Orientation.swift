/// Exact orientation of three points: the one predicate point-in-polygon depends on.
///
/// A floating-point cross product can return the wrong sign when the points are almost
/// collinear, which is exactly the case of a point on a polygon's edge. This implementation
/// follows Shewchuk ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
/// Predicates", 1997): a cheap evaluation with a proven error bound, and an exact expansion
/// sum only when the cheap answer cannot be trusted. GEOS computes the same predicate in
/// double-double arithmetic (`CGAlgorithmsDD::orientationIndex`).
public enum Orientation {
    /// +1 when `q` lies to the left of the directed line `p1 -> p2` (counter-clockwise turn),
    /// -1 when to the right, 0 when the three points are exactly collinear.
    @inlinable
    public static func index(_ p1: Point, _ p2: Point, _ q: Point) -> Int {
        let detLeft = (p1.x - q.x) * (p2.y - q.y)
        let detRight = (p1.y - q.y) * (p2.x - q.x)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return sign(det) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return sign(det) }
            detSum = -detLeft - detRight
        } else {
            return sign(det)
        }
        // Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2^-53.
        let errorBound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53 * detSum
        if det >= errorBound || -det >= errorBound { return sign(det) }
        return exactIndex(p1, p2, q)
    }

    @inlinable
    static func sign(_ d: Double) -> Int { d > 0 ? 1 : (d < 0 ? -1 : 0) }

    /// The sign of (p1 - q) × (p2 - q), evaluated without rounding error.
    @usableFromInline
    static func exactIndex(_ p1: Point, _ p2: Point, _ q: Point) -> Int {
        let (acx, acxTail) = twoDiff(p1.x, q.x)
        let (acy, acyTail) = twoDiff(p1.y, q.y)
        let (bcx, bcxTail) = twoDiff(p2.x, q.x)
        let (bcy, bcyTail) = twoDiff(p2.y, q.y)
        // det = (acx + acxTail)(bcy + bcyTail) - (acy + acyTail)(bcx + bcxTail), expanded.
        var expansion = Expansion()
        for (a, b, s) in [
            (acx, bcy, 1.0), (acx, bcyTail, 1.0), (acxTail, bcy, 1.0), (acxTail, bcyTail, 1.0),
            (acy, bcx, -1.0), (acy, bcxTail, -1.0), (acyTail, bcx, -1.0), (acyTail, bcxTail, -1.0),
        ] {
            let (hi, lo) = twoProduct(a, b)
            expansion.add(s * lo)
            expansion.add(s * hi)
        }
        return expansion.sign
    }

    /// a - b = x + y exactly (Knuth / Dekker).
    @usableFromInline
    static func twoDiff(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a - b
        let bVirtual = a - x
        let aVirtual = x + bVirtual
        return (x, (a - aVirtual) + (bVirtual - b))
    }

    /// a + b = x + y exactly.
    @usableFromInline
    static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a + b
        let bVirtual = x - a
        let aVirtual = x - bVirtual
        return (x, (a - aVirtual) + (b - bVirtual))
    }

    /// a × b = x + y exactly, using a fused multiply-add for the error term.
    @usableFromInline
    static func twoProduct(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a * b
        return (x, (-x).addingProduct(a, b))
    }

    /// A non-overlapping expansion: a sum of doubles, smallest magnitude first, kept exact by
    /// Shewchuk's Grow-Expansion with zero elimination.
    @usableFromInline
    struct Expansion {
        var components: [Double] = []

        @usableFromInline init() {}

        mutating func add(_ b: Double) {
            var q = b
            var next: [Double] = []
            next.reserveCapacity(components.count + 1)
            for e in components {
                let (sum, error) = twoSum(q, e)
                q = sum
                if error != 0 { next.append(error) }
            }
            if q != 0 { next.append(q) }
            components = next
        }

        /// The sign of the exact sum: that of the largest component.
        var sign: Int { components.last.map { $0 > 0 ? 1 : -1 } ?? 0 }
    }
}
