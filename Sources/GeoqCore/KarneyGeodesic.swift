#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The inverse geodesic problem on an ellipsoid of revolution — the shortest path between two
/// points, its length and its azimuths — by Karney's algorithm (C. F. F. Karney, "Algorithms for
/// geodesics", J. Geodesy 87, 43–55, 2013), in Swift, following the design of GeographicLib's
/// geodesic.c: the auxiliary sphere, series to sixth order in ε, a starting azimuth from the
/// astroid for nearly antipodal points, and Newton's method on the longitude, bracketed.
///
/// Accurate to about 15 nanometres on WGS84 for every pair of points, antipodal ones included
/// (the test suite checks it on GeographicLib's GeodTest-short and against PROJ's
/// `geod_inverse`).
///
/// A plain value (the ellipsoid and its series coefficients, worked out once at ``init(equatorialRadius:flattening:)``),
/// so `Sendable`; a solve allocates nothing.
///
/// Conventions: positions are ``Point``s with x = longitude and y = latitude in degrees
/// (latitudes outside [−90, 90] give NaN); azimuths are degrees clockwise from north; distances
/// are metres. Only oblate ellipsoids and spheres (flattening in [0, 0.1)) are supported.
public struct KarneyGeodesic: GeodesicSolving {
    /// The ellipsoid's equatorial radius, in metres.
    public let equatorialRadius: Double
    /// The ellipsoid's flattening.
    public let flattening: Double

    let f1: Double
    let ep2: Double
    let n: Double
    let b: Double
    /// σ₁₂ below which the auxiliary-sphere solution needs no iteration.
    let etol2: Double
    let series: KarneySeries

    static let epsilon = Double.ulpOfOne
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    static let tol0 = epsilon
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2
    /// A residual of λ₁₂, and a step of α₁, below which one Newton step leaves less than tol0
    /// on lines with σ₁₂ in [0.01, 2.5] (64 km to 16,000 km on the auxiliary sphere): Newton's
    /// residual after a step from v is about K v² with K = |λ″| / (2 λ′²); measured, K stayed
    /// under 33 on 300,000 such lines (random ones, and the answers of nearest-10 queries
    /// uniform on the sphere), so from 10⁻¹⁰ the next residual is under 4·10⁻¹⁹, 500 times
    /// below tol0, and its evaluation would end the loop; that step is taken by a first-order
    /// correction instead (see ``solve(_:_:lastStep:)``). K grows as 1/σ₁₂ on short lines and without bound near the antipode,
    /// so those keep the full loop (GeodTest-short fails by up to 0.1 mm otherwise).
    static let quadraticResidual = 1e-10
    /// The largest residual of λ₁₂ (and step of α₁) from which ``LastStep/secondOrder`` takes
    /// the last step by correction. With ``thirdOrderBound`` that is right after the first
    /// evaluation on 75 % of the lines (σ₁₂ from 0.01 to 2.5) of nearest-10 answers to
    /// queries uniform on the sphere over GeoNames' cities, where ``quadraticResidual`` allows
    /// it on 1.5 %. The step's azimuth is then off by Newton's K v² (K under 33, above): at
    /// most 3.3·10⁻⁹ rad, measured at most 3·10⁻¹⁰ rad (1.6·10⁻⁸°) on random lines.
    static let secondOrderResidual = 1e-5
    /// ``LastStep/secondOrder`` takes its correction only where the end slides by u along
    /// its parallel with |u|³ ≤ this × m₁₂² (metres): the terms of third order it leaves out
    /// were measured at most 0.18 |u|³ / m₁₂² (on 5,632 lines where they exceed 20 nm), so
    /// under 0.4 nm here.
    static let thirdOrderBound = 2e-9

    /// How a solution takes its last Newton step.
    package enum LastStep: Sendable {
        /// By one more evaluation of the line, as geodesic.c does (for comparison in tests).
        case evaluated
        /// By a first-order correction of the length once the residual of λ₁₂ is under
        /// ``quadraticResidual``: the evaluated azimuths bit for bit, the length within
        /// rounding (4 ε (a + s)).
        case firstOrder
        /// By a second-order correction of the length from a residual up to
        /// ``secondOrderResidual``, usually right after the first evaluation (one evaluation
        /// of the line fewer): the length within a nanometre of the evaluated one, the azimuths
        /// within 3.3·10⁻⁹ rad. For ranking many lines (nearest-N), whose near-ties are solved
        /// again by ``firstOrder``.
        case secondOrder

        /// The largest residual from which the last step is taken by correction.
        var residual: Double {
            switch self {
            case .evaluated: 0
            case .firstOrder: KarneyGeodesic.quadraticResidual
            case .secondOrder: KarneyGeodesic.secondOrderResidual
            }
        }
    }

    /// An ellipsoid with equatorial radius `equatorialRadius` metres and flattening `flattening`
    /// (0 ≤ f < 0.1).
    public init(equatorialRadius: Double, flattening: Double) {
        precondition(flattening >= 0 && flattening < 0.1, "only oblate ellipsoids with f < 0.1 are supported")
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        f1 = 1 - flattening
        let e2 = flattening * (2 - flattening)
        ep2 = e2 / (f1 * f1)
        n = flattening / (2 - flattening)
        b = equatorialRadius * f1
        etol2 = 0.1 * Self.tol2 / (max(0.001, flattening) * min(1, 1 - flattening / 2) / 2).squareRoot()
        series = KarneySeries(thirdFlattening: n)
    }

    /// The WGS84 ellipsoid: a = 6378137 m, f = 1/298.257223563.
    public static let wgs84 = KarneyGeodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

    /// The shortest geodesic from `start` to `end`: its length in metres, and the azimuths at
    /// the start and on arrival, in degrees in [−180, 180].
    public func inverse(from start: Point, to end: Point) -> (
        distance: Double, initialAzimuth: Double, finalAzimuth: Double
    ) {
        let r = solve(endpoint(start), endpoint(end))
        return (r.distance, Self.atan2Degrees(r.salp1, r.calp1), Self.atan2Degrees(r.salp2, r.calp2))
    }

    public func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double) {
        let r = solve(endpoint(a), endpoint(b))
        return (r.distance, Self.bearing(r.salp1, r.calp1))
    }

    /// Distance and bearing (in [0, 360)) between two prepared ends, made by ``endpoint(_:)`` of
    /// this ellipsoid.
    @inline(__always)
    package func distanceAndBearing(from a: Endpoint, to b: Endpoint) -> (distance: Double, bearing: Double) {
        let r = solve(a, b)
        return (r.distance, Self.bearing(r.salp1, r.calp1))
    }

    /// True when `other` is the same ellipsoid (so ends prepared by either serve both).
    package func hasSameEllipsoid(as other: KarneyGeodesic) -> Bool {
        equatorialRadius == other.equatorialRadius && flattening == other.flattening
    }

    /// An azimuth from its sine and cosine, in [0, 360).
    @inline(__always)
    static func bearing(_ s: Double, _ c: Double) -> Double {
        let azimuth = atan2Degrees(s, c)
        let bearing = azimuth < 0 ? azimuth + 360 : azimuth
        return bearing >= 360 ? bearing - 360 : bearing + 0
    }

    /// One end of a line prepared for the solution: what depends on that end alone (a nearest
    /// search prepares the query and every indexed point once, not once per line).
    package struct Endpoint: Sendable {
        /// Latitude in degrees, NaN outside [−90, 90], nearly-zero digits dropped.
        let latitude: Double
        /// Longitude in degrees, as given.
        let longitude: Double
        /// sin β and cos β of the reduced latitude of −|latitude| (the solution mirrors every
        /// line into the southern hemisphere first), cos β ≥ `tiny`.
        let sbet: Double
        let cbet: Double
        /// √(1 + e′² sin²β).
        let dn: Double
    }

    /// `point` (x = longitude, y = latitude) prepared for ``solve(_:_:)`` on this ellipsoid.
    @inline(__always)
    package func endpoint(_ point: Point) -> Endpoint {
        let latitude = Self.roundedAngle(point.latitude.magnitude > 90 ? .nan : point.latitude)
        var (s, c) = Self.sinCosDegrees(-latitude.magnitude)
        (s, c) = Self.normalized(s * f1, c)
        c = max(Self.tiny, c)
        return Endpoint(
            latitude: latitude, longitude: point.longitude, sbet: s, cbet: c, dn: (1 + ep2 * s * s).squareRoot())
    }

    /// The solution in sines and cosines of the azimuths, as the callers need it.
    package struct Solution {
        package var distance: Double
        /// sin and cos of the initial azimuth.
        package var salp1: Double
        package var calp1: Double
        /// sin and cos of the azimuth on arrival.
        package var salp2: Double
        package var calp2: Double
    }

    /// Karney's inverse solution (geodesic.c's `geod_geninverse_int`, distance and azimuths
    /// only).
    package func solve(_ p1: Endpoint, _ p2: Endpoint) -> Solution {
        solve(p1, p2, lastStep: .firstOrder)
    }

    /// The solution, its last Newton step taken as `lastStep` says (``solve(_:_:)`` takes it
    /// by ``LastStep/firstOrder``).
    ///
    /// The last step: once the residual v of λ₁₂ and the step of α₁ are under
    /// ``quadraticResidual``, the line at the current α₁ is a first-order correction away from
    /// the answer. It reaches the latitude of the far end at a longitude v from it, so its
    /// length moves by −v a cos β₂ sin α₂ when that end slides back along its parallel (of
    /// radius a cos β₂), and α₁ by the step −v / λ₁₂′, whose sine and cosine are the step and
    /// 1 in doubles (it is under 10⁻⁸); what this leaves out is of order v² a, under 10⁻¹¹ m
    /// on these lines. So the reduced length that gives the slope also gives the length
    /// (the distance integral is the sum that the reduced length's takes apart), and the
    /// evaluation at the new α₁, with its arctangent, square roots and the step's sine and
    /// cosine, is spared.
    ///
    /// By ``LastStep/secondOrder``, from a residual up to ``secondOrderResidual`` the length
    /// also takes the second-order term of the slide, ½ u² d″ for a slide of u = −v a cos β₂
    /// along the parallel: the distance from the start to a point moving along a curve has
    /// second derivative (M₂₁/m₁₂) cos²α₂ (the geodesic circle's curvature times the square of
    /// the motion across the line) plus the curve's own geodesic curvature times its component
    /// along the line, for a parallel sin φ₂ / (a cos β₂) times cos α₂.
    package func solve(_ p1: Endpoint, _ p2: Endpoint, lastStep: LastStep) -> Solution {
        // Longitude difference in [0, 180] after mirroring, computed exactly.
        var (lon12, lon12s) = Self.angleDifference(p1.longitude, p2.longitude)
        var lonsign: Double = lon12 >= 0 ? 1 : -1
        lon12 = lonsign * Self.roundedAngle(lon12)
        lon12s = Self.roundedAngle((180 - lon12) - lonsign * lon12s)
        let lam12 = lon12 * Self.degree
        var slam12: Double
        var clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = Self.sinCosDegrees(lon12s)
            clam12 = -clam12
        } else {
            (slam12, clam12) = Self.sinCosDegrees(lon12)
        }

        // The point of larger |latitude| first, and made southern.
        var e1 = p1
        var e2 = p2
        let swapp: Double = e1.latitude.magnitude < e2.latitude.magnitude ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&e1, &e2)
        }
        let latsign: Double = e1.latitude < 0 ? 1 : -1
        let lat1 = e1.latitude * latsign
        let lat2 = e2.latitude * latsign

        let sbet1 = e1.sbet, cbet1 = e1.cbet, dn1 = e1.dn
        var sbet2 = lat2 > 0 ? -e2.sbet : e2.sbet
        var cbet2 = e2.cbet
        var dn2 = e2.dn
        // Force β₂ = ±β₁ exactly where the quantities that measure their difference vanish.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 {
                sbet2 = sbet2 < 0 ? sbet1 : -sbet1
                dn2 = dn1
            }
        } else {
            if sbet2.magnitude == -sbet1 { cbet2 = cbet1 }
        }

        var s12x = 0.0
        var sig12 = 0.0
        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var meridian = lat1 == -90 || slam12 == 0

        if meridian {
            // Both ends on one full meridian: the geodesic may run along it.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let l = lengths(
                eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2,
                dn2: dn2, distance: true)
            if sig12 < 1 || l.m12b >= 0 {
                if sig12 < 3 * Self.tiny { sig12 = 0 }
                s12x = sig12 == 0 ? 0 : l.s12b * b
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (flattening <= 0 || lon12s >= flattening * 180) {
            // Along the equator.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = equatorialRadius * lam12
        } else if !meridian {
            let start = inverseStart(
                sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, lam12: lam12, slam12: slam12,
                clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            sig12 = start.sig12
            if sig12 >= 0 {
                // Short enough for the auxiliary sphere alone.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = sig12 * b * start.dnm
            } else {
                // Newton's method on λ₁₂(α₁) − λ₁₂ = 0, which has one root in (0, π), kept
                // inside a bracket that shrinks with every evaluation.
                var state = LambdaState()
                var numit = 0
                var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
                var tripn = false
                var tripb = false
                // Set by a Newton step from a residual so small that the next one is below tol0
                // for certain: the next evaluation only completes the line.
                var converged = false
                // Set when that last step was taken by correction (the line is complete).
                var corrected = false
                while numit < Self.maxit2 {
                    state = lambda12(
                        sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, salp1: salp1, calp1: calp1,
                        slam120: slam12, clam120: clam12, longitude: !converged)
                    if converged { break }
                    let v = state.lam12
                    if tripb || !(v.magnitude >= (tripn ? 8 : 1) * Self.tol0) { break }
                    if v > 0 && (numit > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (numit > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    numit += 1
                    // A residual from which the last step may be taken by correction: the
                    // slope then comes with the length.
                    let last =
                        v.magnitude <= lastStep.residual && v.magnitude > 16 * Self.tol0
                        && (0.01...2.5).contains(state.sig12)
                    // The slope only once the value says another step is needed (the last
                    // evaluation, which ends the loop, needs none).
                    let slope =
                        numit <= Self.maxit1
                        ? lambda12Derivative(state, sbet1: sbet1, dn1: dn1, cbet2: cbet2, dn2: dn2, distance: last)
                        : (derivative: 0, s12b: 0, m12b: 0, j12: 0)
                    let dlam12 = slope.derivative
                    if numit <= Self.maxit1 && dlam12 > 0 {
                        let dalp1 = -v / dlam12
                        // How far the end slides back along its parallel (metres).
                        let u = -v * equatorialRadius * cbet2
                        let m12 = slope.m12b * b
                        if last && dalp1.magnitude <= lastStep.residual && salp1 + calp1 * dalp1 > 0
                            && (lastStep != .secondOrder || u.magnitude * u * u <= Self.thirdOrderBound * m12 * m12)
                        {
                            s12x = slope.s12b * b + u * state.salp2
                            if lastStep == .secondOrder {
                                let t = ep2 * (cbet1 - cbet2) * (cbet1 + cbet2) / (dn1 + dn2)
                                let csig12 = state.csig1 * state.csig2 + state.ssig1 * state.ssig2
                                let m21 = csig12 - (t * state.ssig1 - state.csig1 * slope.j12) * state.ssig2 / dn2
                                let sphi2 = sbet2 / (sbet2 * sbet2 + f1 * f1 * cbet2 * cbet2).squareRoot()
                                let curvature =
                                    m21 / m12 * state.calp2 * state.calp2
                                    + sphi2 / (equatorialRadius * cbet2) * state.calp2
                                s12x += 0.5 * u * u * curvature
                            }
                            (salp1, calp1) = Self.normalized(salp1 + calp1 * dalp1, calp1 - salp1 * dalp1)
                            (salp2, calp2) = endAzimuth(
                                sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, salp1: salp1, calp1: calp1)
                            corrected = true
                            break
                        }
                        let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                        let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                        if nsalp1 > 0 && dalp1.magnitude < .pi {
                            calp1 = calp1 * cdalp1 - salp1 * sdalp1
                            salp1 = nsalp1
                            (salp1, calp1) = Self.normalized(salp1, calp1)
                            // Where the slope goes to zero convergence is not quadratic:
                            // stop on ε instead of √ε.
                            tripn = v.magnitude <= 16 * Self.tol0
                            converged =
                                v.magnitude <= Self.quadraticResidual && dalp1.magnitude <= Self.quadraticResidual
                                && !tripn && (0.01...2.5).contains(state.sig12)
                            continue
                        }
                    }
                    // Outside the bracket or a bad slope: bisect.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    (salp1, calp1) = Self.normalized(salp1, calp1)
                    tripn = false
                    tripb =
                        ((salp1a - salp1).magnitude + (calp1a - calp1) < Self.tolb
                            || (salp1 - salp1b).magnitude + (calp1 - calp1b) < Self.tolb)
                }
                if !corrected {
                    salp2 = state.salp2
                    calp2 = state.calp2
                    sig12 = state.sig12
                    s12x =
                        Self.distanceOverB(
                            eps: state.eps, sig12: sig12, ssig1: state.ssig1, csig1: state.csig1,
                            ssig2: state.ssig2, csig2: state.csig2) * b
                }
            }
        }

        // Undo the swap and the mirrorings.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return Solution(distance: 0 + s12x, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }

    /// The distance s₁₂/b (when `distance`) and the reduced length m₁₂/b along σ₁ … σ₂ of the
    /// geodesic with parameter ε (geodesic.c's `Lengths`).
    @inline(__always)
    func lengths(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double, ssig2: Double, csig2: Double,
        dn2: Double, distance: Bool
    ) -> (s12b: Double, m12b: Double, j12: Double) {
        let a1m1 = KarneySeries.a1m1(eps)
        let c1 = KarneySeries.c1(eps)
        let a2m1 = KarneySeries.a2m1(eps)
        let c2 = KarneySeries.c2(eps)
        let m0 = a1m1 - a2m1
        let a1 = 1 + a1m1
        let a2 = 1 + a2m1
        var s12b = 0.0
        let j12: Double
        if distance {
            let b1 =
                KarneySeries.sineSeries(ssig2, csig2, c1, count: 6)
                - KarneySeries.sineSeries(ssig1, csig1, c1, count: 6)
            s12b = a1 * (sig12 + b1)
            let b2 =
                KarneySeries.sineSeries(ssig2, csig2, c2, count: 6)
                - KarneySeries.sineSeries(ssig1, csig1, c2, count: 6)
            j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
        } else {
            let cb = a1 * c1 - a2 * c2
            j12 =
                m0 * sig12
                + (KarneySeries.sineSeries(ssig2, csig2, cb, count: 6)
                    - KarneySeries.sineSeries(ssig1, csig1, cb, count: 6))
        }
        // The parentheses keep the cancellation exact for coincident points.
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b, j12)
    }

    /// s₁₂/b alone, as ``lengths(eps:sig12:ssig1:csig1:dn1:ssig2:csig2:dn2:distance:)`` computes it.
    @inline(__always)
    static func distanceOverB(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    ) -> Double {
        let a1 = 1 + KarneySeries.a1m1(eps)
        let c1 = KarneySeries.c1(eps)
        let b1 =
            KarneySeries.sineSeries(ssig2, csig2, c1, count: 6) - KarneySeries.sineSeries(ssig1, csig1, c1, count: 6)
        return a1 * (sig12 + b1)
    }

    /// Solves k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 for its positive root (geodesic.c's
    /// `Astroid`): the starting azimuth of nearly antipodal lines.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        // Zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // The sign that avoids cancellation; u is the same either way.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    /// The starting azimuth for Newton's method (geodesic.c's `InverseStart`), and the whole
    /// solution when the line is short enough for the auxiliary sphere (then `sig12 ≥ 0`).
    @inline(__always)
    func inverseStart(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double, lam12: Double, slam12: Double,
        clam12: Double
    ) -> (sig12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double, dnm: Double) {
        var sig12 = -1.0
        var salp2 = 0.0
        var calp2 = 0.0
        var dnm = 0.0
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double
        var comg12: Double
        if shortline {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = (salp1 * salp1 + calp1 * calp1).squareRoot()
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // Really short lines.
            salp2 = cbet1 * somg12
            calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            (salp2, calp2) = Self.normalized(salp2, calp2)
            sig12 = atan2(ssig12, csig12)
        } else if n.magnitude > 0.1 || csig12 >= 0 || ssig12 >= 6 * n.magnitude * .pi * cbet1 * cbet1 {
            // The spherical estimate took ω₁₂ = λ₁₂. To first order in f, λ₁₂ = ω₁₂ −
            // f A₃ sin α₀ σ₁₂ (as in `lambda12`, without the periodic terms): estimate again
            // with ω₁₂ from that, an error of order f² instead of f, which spares Newton's
            // method about one step.
            if !shortline {
                let (s1, c1) = Self.normalized(salp1, calp1)
                let salp0 = s1 * cbet1
                let calp0 = (c1 * c1 + (s1 * sbet1) * (s1 * sbet1)).squareRoot()
                let k2 = calp0 * calp0 * ep2
                let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
                let omg12 = lam12 + flattening * series.a3(eps) * salp0 * atan2(ssig12, csig12)
                somg12 = sin(omg12)
                comg12 = cos(omg12)
                salp1 = cbet2 * somg12
                calp1 =
                    comg12 >= 0
                    ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
                    : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        } else {
            // Nearly antipodal: scale to coordinates where the antipode is the origin and the
            // singular point is (−1, 0).
            let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = flattening * cbet1 * series.a3(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                // Strip near the cut.
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                // ω₁₂ from the astroid, then the spherical formula for α₁ (fewer Newton steps
                // than taking α₁ from the astroid directly).
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // A check written so that NaN passes through.
        if !(salp1 <= 0) {
            (salp1, calp1) = Self.normalized(salp1, calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return (sig12, salp1, calp1, salp2, calp2, dnm)
    }

    /// What one evaluation of λ₁₂(α₁) leaves for the next step and the final lengths.
    struct LambdaState {
        var lam12 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var sig12 = 0.0
        var ssig1 = 0.0
        var csig1 = 0.0
        var ssig2 = 0.0
        var csig2 = 0.0
        var eps = 0.0
    }

    /// λ₁₂(α₁) − λ₁₂ for the azimuth (`salp1`, `calp1`) at the start (geodesic.c's `Lambda12`;
    /// the derivative is ``lambda12Derivative(_:sbet1:dn1:cbet2:dn2:distance:)``).
    /// With `longitude` false, only what the lengths need: `lam12` is left 0.
    @inline(__always)
    func lambda12(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double, salp1: Double, calp1: Double, slam120: Double,
        clam120: Double, longitude: Bool = true
    ) -> LambdaState {
        var s = LambdaState()
        // Breaks the degeneracy of the equatorial line (handled before).
        let calp1 = sbet1 == 0 && calp1 == 0 ? -Self.tiny : calp1
        let salp0 = salp1 * cbet1
        let calp0 = (calp1 * calp1 + (salp1 * sbet1) * (salp1 * sbet1)).squareRoot()

        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        (s.ssig1, s.csig1) = Self.normalized(sbet1, comg1)

        (s.salp2, s.calp2) = Self.endAzimuth(
            sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, salp1: salp1, calp1: calp1, salp0: salp0)
        let somg2 = salp0 * sbet2
        let comg2 = s.calp2 * cbet2
        (s.ssig2, s.csig2) = Self.normalized(sbet2, comg2)

        s.sig12 = atan2(max(0, s.csig1 * s.ssig2 - s.ssig1 * s.csig2), s.csig1 * s.csig2 + s.ssig1 * s.ssig2)
        let k2 = calp0 * calp0 * ep2
        s.eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        guard longitude else { return s }
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let c3 = series.c3(s.eps)
        let b312 =
            KarneySeries.sineSeries(s.ssig2, s.csig2, c3, count: 5)
            - KarneySeries.sineSeries(s.ssig1, s.csig1, c3, count: 5)
        let domg12 = -flattening * series.a3(s.eps) * salp0 * (s.sig12 + b312)
        s.lam12 = eta + domg12
        return s
    }

    /// sin α₂ and cos α₂ at the latitude of the far end of the line that starts at azimuth α₁
    /// (as `Lambda12` works them out; `salp0` is sin α₁ cos β₁).
    @inline(__always)
    static func endAzimuth(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double, salp1: Double, calp1: Double, salp0: Double
    ) -> (salp2: Double, calp2: Double) {
        // Symmetries kept exact where |β₂| = −β₁.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2 =
            cbet2 != cbet1 || sbet2.magnitude != -sbet1
            ? ((calp1 * cbet1) * (calp1 * cbet1)
                + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)))
                .squareRoot() / cbet2
            : calp1.magnitude
        return (salp2, calp2)
    }

    /// ``endAzimuth(sbet1:cbet1:sbet2:cbet2:salp1:calp1:salp0:)`` for the azimuth α₁ alone.
    @inline(__always)
    func endAzimuth(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double, salp1: Double, calp1: Double
    ) -> (Double, Double) {
        let calp1 = sbet1 == 0 && calp1 == 0 ? -Self.tiny : calp1
        return Self.endAzimuth(
            sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, salp1: salp1, calp1: calp1,
            salp0: salp1 * cbet1)
    }

    /// dλ₁₂/dα₁ at the evaluation `s` (from the reduced length, as in `Lambda12`), and with
    /// `distance` the length s₁₂/b along it (else 0), with the reduced length m₁₂/b and the
    /// integral J₁₂ that gives it.
    @inline(__always)
    func lambda12Derivative(
        _ s: LambdaState, sbet1: Double, dn1: Double, cbet2: Double, dn2: Double, distance: Bool
    ) -> (derivative: Double, s12b: Double, m12b: Double, j12: Double) {
        let l = lengths(
            eps: s.eps, sig12: s.sig12, ssig1: s.ssig1, csig1: s.csig1, dn1: dn1, ssig2: s.ssig2, csig2: s.csig2,
            dn2: dn2, distance: distance)
        if s.calp2 == 0 { return (-2 * f1 * dn1 / sbet1, l.s12b, l.m12b, l.j12) }
        return (l.m12b * f1 / (s.calp2 * cbet2), l.s12b, l.m12b, l.j12)
    }
}
