#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A position on the WGS84 ellipsoid prepared for ``ShortGeodesic``: its Earth-centred
/// cartesian coordinates in metres (x towards 0° E on the equator, z north) in x, y, z, and in
/// w a tag the caller chooses (``PointIndex`` keeps the item's index there, so that one 32-byte
/// load brings all a query needs of a point; two points fit a cache line).
typealias EllipsoidPosition = SIMD4<Double>

extension SIMD4<Double> {
    /// The prepared position of latitude and longitude in degrees, tagged `tag`.
    init(latitude: Double, longitude: Double, tag: Double = 0) {
        self.init(normal: Self(normalAtLatitude: latitude, longitude: longitude), tag: tag)
    }

    /// The prepared position whose geodetic normal is the unit vector `normal`, tagged `tag`.
    init(normal: SIMD4<Double>, tag: Double = 0) {
        let primeVertical = ShortGeodesic.a / (1 - ShortGeodesic.e2 * normal.z * normal.z).squareRoot()
        self.init(
            primeVertical * normal.x, primeVertical * normal.y, primeVertical * (1 - ShortGeodesic.e2) * normal.z,
            tag)
    }

    /// The unit vector of the geodetic normal, (cos φ cos λ, cos φ sin λ, sin φ, 0).
    init(normalAtLatitude latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let cosPhi = cos(phi)
        self.init(cosPhi * cos(lambda), cosPhi * sin(lambda), sin(phi), 0)
    }
}

/// Distance and initial bearing of short WGS84 geodesics from one fixed start, without
/// iteration and without trigonometry beyond one arctangent: the fast path of ``PointIndex``'s
/// answers, with a bounded error. Lines longer than ``maximumChord`` are left to Karney's
/// algorithm (the caller's ``GeoqCore/GeodesicSolving``).
///
/// **Distance.** Let r(s) be the geodesic by arc length and c = |r(s/2) − r(−s/2)| the chord
/// between its ends. Taylor about the midpoint gives r(s/2) − r(−s/2) = s r′ + (s³/24) r‴ +
/// O(s⁵), and r′·r‴ = −|r″|² = −κ², where κ is the geodesic's curvature as a space curve. A
/// geodesic has no curvature within the surface, so κ is the surface's normal curvature in the
/// geodesic's direction α, by Euler's theorem κ = cos²α / M + sin²α / N (M meridional, N prime
/// vertical radius). Hence c = s (1 − κ²s²/24 + O(κ⁴s⁴)) and, inverting with the circle's
/// next term, s = c (1 + κ²c²/24 + 3κ⁴c⁴/640). κ is taken at the latitude of the chord's
/// midpoint and in the direction of the chord seen from the start: over
/// 100 km these move κ by less than 10⁻⁴ of itself, which moves s by less than 0.03 mm.
///
/// **Bearing.** The chord and the start's normal span the *normal section* from the start to
/// the end; its azimuth is exactly atan2(d·east, d·north) for the chord d. The geodesic leaves
/// slightly off it: α_geodesic = α_section − (e′²/12)(c/N)² cos²φ sin 2α to first order in e′²
/// (the geodesic runs between the two reciprocal normal sections, a third of the way from the
/// start's; see e.g. Bomford, *Geodesy*, 4th ed., §2.13).
///
/// **Error.** Both formulas drop terms of relative order (c/R)⁴ and e′²(c/R)³. On every line
/// of GeographicLib's GeodTest-short whose chord is at most ``maximumChord`` (and on random lines
/// at all latitudes), the distance is within ``distanceError`` of Karney's and the bearing
/// within ``bearingError`` degrees: the tests check both bounds.
struct ShortGeodesic {
    /// WGS84 equatorial radius, metres.
    static let a = 6_378_137.0
    /// WGS84 flattening.
    static let f = 1 / 298.257_223_563
    /// WGS84 polar radius a (1 − f), metres.
    static let b = a * (1 - f)
    /// First eccentricity squared, f (2 − f).
    static let e2 = f * (2 - f)
    /// Second eccentricity squared, e² / (1 − e²).
    static let ep2 = e2 / (1 - e2)

    /// Longest chord, in metres, answered here; longer lines go to Karney.
    static let maximumChord = 100_000.0
    /// Largest difference from Karney's distance, in metres, for chords up to ``maximumChord``.
    static let distanceError = 1e-4
    /// Shortest chord, in metres, answered here: below it the rounding of the cartesian
    /// coordinates (about a nanometre) would show in the bearing; Karney answers.
    static let minimumChord = 1.0
    /// Largest difference from Karney's initial azimuth, in degrees (for the shortest lines,
    /// mostly the rounding of the cartesian coordinates: 5·10⁻⁷° is 9 nm sideways at 1 m).
    static let bearingError = 5e-7

    /// The start, and its normal (w = 0).
    let start: EllipsoidPosition
    let normal: SIMD4<Double>
    /// Unit vectors east and north at the start, in ECEF (w = 0).
    let east: SIMD4<Double>
    let north: SIMD4<Double>

    /// Latitude and longitude of the start in degrees.
    init(latitude: Double, longitude: Double) {
        let n = SIMD4<Double>(normalAtLatitude: latitude, longitude: longitude)
        start = EllipsoidPosition(normal: n)
        normal = n
        let horizontal = (n.x * n.x + n.y * n.y).squareRoot()
        if horizontal > 0 {
            east = SIMD4(-n.y / horizontal, n.x / horizontal, 0, 0)
            north = SIMD4(-n.z * n.x / horizontal, -n.z * n.y / horizontal, horizontal, 0)
        } else {
            // At a pole "east" is undefined; `distance(to:)` leaves lines from a pole to Karney.
            east = SIMD4(0, 1, 0, 0)
            north = SIMD4(-n.z, 0, 0, 0)
        }
    }

    /// The start-to-end vector in metres (w = 0).
    @inline(__always)
    func chord(to end: EllipsoidPosition) -> SIMD4<Double> {
        (end - start) * SIMD4(1, 1, 1, 0)
    }

    /// The squared straight-line distance to `end`, in square metres: a lower bound of the
    /// squared geodesic distance (the straight line is the shortest curve).
    @inline(__always)
    func squaredChord(to end: EllipsoidPosition) -> Double {
        let d = chord(to: end)
        return (d * d).sum()
    }

    /// What the bearing needs of a line whose distance was worked out: the chord's east and
    /// north components at the start, its squared length, and sin² of the mean latitude.
    struct Line {
        var distance: Double
        var east: Double
        var north: Double
        var squaredChord: Double
        var squaredSineOfMeanLatitude: Double
    }

    /// Distance in metres to `end` whose ``squaredChord(to:)`` is `c2`, or nil when the line
    /// is longer than ``maximumChord`` or shorter than ``minimumChord``, or starts at a pole
    /// (Karney answers those).
    @inline(__always)
    func distance(to end: EllipsoidPosition, squaredChord c2: Double) -> Double? {
        line(to: end, squaredChord: c2)?.distance
    }

    /// The line to `end` whose ``squaredChord(to:)`` is `c2`: its distance, and what
    /// ``bearing(of:)`` needs, so that a bearing asked later reads no position again; nil as
    /// for ``distance(to:squaredChord:)``.
    @inline(__always)
    func line(to end: EllipsoidPosition, squaredChord c2: Double) -> Line? {
        guard c2 <= Self.maximumChord * Self.maximumChord, c2 >= Self.minimumChord * Self.minimumChord,
            normal.z.magnitude < 1 - 1e-12
        else { return nil }
        let d = chord(to: end)
        let de = (d * east).sum(), dn = (d * north).sum()
        let h2 = de * de + dn * dn
        let sin2Phi = Self.squaredSineOfMeanLatitude(start, end)
        let w2 = 1 - Self.e2 * sin2Phi
        let w = w2.squareRoot()
        // κ = cos²α / M + sin²α / N with M = a (1 − e²) / W³ and N = a / W.
        let kappa = (dn * dn * w2 * w / (1 - Self.e2) + de * de * w) / (h2 * Self.a)
        let k2c2 = kappa * kappa * c2
        return Line(
            distance: c2.squareRoot() * (1 + k2c2 / 24 + 3 * k2c2 * k2c2 / 640), east: de, north: dn,
            squaredChord: c2, squaredSineOfMeanLatitude: sin2Phi)
    }

    /// sin² of the geodetic latitude at the chord's midpoint m. For a point on the ellipsoid
    /// tan φ = z / ((1 − e²) √(x² + y²)); the midpoint lies below the surface by the sagitta
    /// (under 200 m for 100 km), which moves φ by less than 10⁻⁷ rad. Scale-free, so the
    /// sum of the ends serves as well as their mean.
    @inline(__always)
    static func squaredSineOfMeanLatitude(_ a: EllipsoidPosition, _ b: EllipsoidPosition) -> Double {
        let m = a + b
        let z2 = m.z * m.z
        let p2 = (m.x * m.x + m.y * m.y) * (1 - e2) * (1 - e2)
        return z2 / (z2 + p2)
    }

    /// Distance in metres to `end`, or nil (see ``distance(to:squaredChord:)``).
    func distance(to end: EllipsoidPosition) -> Double? {
        distance(to: end, squaredChord: squaredChord(to: end))
    }

    /// Initial bearing in degrees [0, 360) to `end`, for an `end` whose distance is not nil.
    func bearing(to end: EllipsoidPosition) -> Double {
        let d = chord(to: end)
        let de = (d * east).sum(), dn = (d * north).sum()
        return bearing(
            of: Line(
                distance: 0, east: de, north: dn, squaredChord: (d * d).sum(),
                squaredSineOfMeanLatitude: Self.squaredSineOfMeanLatitude(start, end)))
    }

    /// Initial bearing in degrees [0, 360) of a line made by ``line(to:squaredChord:)``.
    @inline(__always)
    func bearing(of line: Line) -> Double {
        let de = line.east, dn = line.north, sin2Phi = line.squaredSineOfMeanLatitude
        let h2 = de * de + dn * dn
        // (c/N)² cos²φ sin 2α, with (1/N)² = W² / a², cos²φ = 1 − sin²φ, sin 2α = 2 de dn / h².
        let skew =
            Self.ep2 / 6 / (Self.a * Self.a) * line.squaredChord * (1 - Self.e2 * sin2Phi) * (1 - sin2Phi) * de
            * dn / h2
        let bearing = (Self.azimuth(east: de, north: dn) - skew) * (180 / .pi)
        // Only a line a hair from north falls outside [0, 360): a branch that is predicted.
        if bearing < 0 { return bearing + 360 }
        return bearing >= 360 ? bearing - 360 : bearing
    }

    /// The angle in radians clockwise from north of the horizontal vector (`east`, `north`),
    /// not both zero: atan2(east, north) taken into [0, 2π] (2π only where the rounding of
    /// 2π − θ for a vector a hair west of north gives it), within 2·10⁻¹⁵ rad of it.
    ///
    /// Why not `atan2`: the library's branches on the quadrant and the octant are decided by
    /// the data (a nearest search asks for ten bearings in every direction), so each call pays
    /// mispredictions. Here every case is a select: the octant reduction t = min/max, then
    /// t > tan(π/8) is taken to (t − 1)/(t + 1) (one division either way), atan of what is left
    /// (|u| ≤ tan(π/8)) by a polynomial in u² (Chebyshev fit of atan(u)/u on [0, tan²(π/8)],
    /// relative error under 10⁻¹⁵), and the octant put back.
    @inline(__always)
    static func azimuth(east: Double, north: Double) -> Double {
        let ax = north.magnitude, ay = east.magnitude
        let small = Swift.min(ax, ay), large = Swift.max(ax, ay)
        // The selects are written as arithmetic on 0 or 1 (flags the processor sets without a
        // jump): the compiler may turn a select of doubles into a branch.
        let beyondEighth = Self.flag(small > 0.414_213_562_373_095_03 * large)
        let u = (small - beyondEighth * large) / (large + beyondEighth * small)
        // Estrin's scheme: four short chains side by side rather than one of nine steps.
        let s = u * u, s2 = s * s, s4 = s2 * s2, s8 = s4 * s4
        let p01 = 0.999_999_999_999_999 - 0.333_333_333_332_214_3 * s
        let p23 = 0.199_999_999_783_926_63 - 0.142_857_126_616_847_93 * s
        let p45 = 0.111_110_488_537_512_96 - 0.090_895_299_565_623_07 * s
        let p67 = 0.076_735_354_281_832_85 - 0.065_059_829_671_708_4 * s
        let p89 = 0.050_247_621_189_401_28 - 0.025_316_479_573_776_477 * s
        let p = (p01 + s2 * p23) + s4 * (p45 + s2 * p67) + s8 * p89
        var angle = u * p + beyondEighth * (Double.pi / 4)  // atan(small / large)
        let steep = Self.flag(ay > ax), south = Self.flag(north < 0), west = Self.flag(east < 0)
        angle = steep * (Double.pi / 2) + (1 - 2 * steep) * angle  // atan(|east| / |north|)
        angle = south * Double.pi + (1 - 2 * south) * angle
        return west * (2 * Double.pi) + (1 - 2 * west) * angle
    }

    /// 1 for true and 0 for false, by a flag set from the comparison rather than a jump.
    @inline(__always)
    static func flag(_ condition: Bool) -> Double {
        Double(unsafeBitCast(condition, to: UInt8.self))
    }
}
