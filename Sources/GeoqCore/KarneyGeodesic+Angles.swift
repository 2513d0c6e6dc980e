#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Angles in degrees handled with the care of Karney's solution: reductions done exactly in
/// degrees before any conversion to radians, so that 90°, 180° and the like give exact sines
/// and cosines, and longitude differences lose nothing near the antimeridian.
extension KarneyGeodesic {
    static let degree = Double.pi / 180
    /// √(smallest normal double): cos β is kept at least this at the poles.
    static let tiny = Double.leastNormalMagnitude.squareRoot()

    /// `x` reduced to (−180, 180].
    @inline(__always)
    static func normalizedAngle(_ x: Double) -> Double {
        // The IEEE remainder leaves these unchanged; most inputs are already in range.
        if x.magnitude < 180 { return x }
        let y = x.remainder(dividingBy: 360)
        return y != -180 ? y : 180
    }

    /// `u + v` rounded, and the rounding error (Knuth's two-sum: u + v = s + t exactly).
    @inline(__always)
    static func exactSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, -(up + vpp))
    }

    /// `y − x` reduced to [−180, 180], and the part of it below the rounding of the sum.
    @inline(__always)
    static func angleDifference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        let (sum, t) = exactSum(normalizedAngle(-x), normalizedAngle(y))
        let d = normalizedAngle(sum)
        let result = exactSum(d == 180 && t > 0 ? -180 : d, t)
        return (result.sum, result.error)
    }

    /// `x` with its smallest digits dropped (to 1/16 of 2⁻⁵² in effect): an angle this close to
    /// zero is taken as zero, which keeps nearly equatorial and meridional lines on the simple
    /// path.
    @inline(__always)
    static func roundedAngle(_ x: Double) -> Double {
        let z = 1.0 / 16
        if x == 0 { return 0 }
        var y = x.magnitude
        y = y < z ? z - (z - y) : y
        return x < 0 ? -y : y
    }

    /// sin and cos of `x` degrees, reduced exactly to [−45°, 45°] first.
    @inline(__always)
    static func sinCosDegrees(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        // fmod leaves |x| < 360 unchanged.
        var r = x.magnitude < 360 ? x : x.truncatingRemainder(dividingBy: 360)
        let q = Int((r / 90 + 0.5).rounded(.down))
        r -= 90 * Double(q)
        r *= degree
        let s = sin(r)
        let c = cos(r)
        var sinx: Double
        var cosx: Double
        switch q & 3 {
        case 0: (sinx, cosx) = (s, c)
        case 1: (sinx, cosx) = (c, -s)
        case 2: (sinx, cosx) = (-s, -c)
        default: (sinx, cosx) = (-c, s)
        }
        if x != 0 {
            // No negative zeros but for x = −0.
            sinx += 0
            cosx += 0
        }
        return (sinx, cosx)
    }

    /// atan2 in degrees, in [−180, 180], the quadrant found before the conversion.
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var x = x
        var y = y
        var q = 0
        if y.magnitude > x.magnitude {
            swap(&x, &y)
            q = 2
        }
        if x < 0 {
            x = -x
            q += 1
        }
        let angle = atan2(y, x) / degree
        switch q {
        case 1: return (y >= 0 ? 180 : -180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// (sin x, cos x) scaled to unit length.
    @inline(__always)
    static func normalized(_ s: Double, _ c: Double) -> (Double, Double) {
        let r = (s * s + c * c).squareRoot()
        return (s / r, c / r)
    }
}
