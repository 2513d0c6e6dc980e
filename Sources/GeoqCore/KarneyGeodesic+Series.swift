/// The series of Karney's solution ("Algorithms for geodesics", J. Geodesy 87, 2013, eqs. 15–25,
/// to sixth order in the expansion parameter ε, as GeographicLib's geodesic.c): the scale
/// factors A₁, A₂, A₃ and the Fourier coefficients C₁, C₂, C₃ of the distance, the reduced
/// length and the longitude integrals.
///
/// C₁ and C₂ depend on ε alone; A₃ and C₃ also depend on the ellipsoid's third flattening n,
/// so their coefficients as polynomials in ε are worked out once per ellipsoid
/// (``init(thirdFlattening:)``), as `geod_init` does.
///
/// Coefficient sets travel in `SIMD8<Double>` with C[l] in lane l (lane 0 unused): a value of
/// fixed size, so a solve allocates nothing.
struct KarneySeries: Sendable {
    /// A₃'s coefficients of ε⁵, ε⁴, …, ε⁰ (lanes 0–5).
    let a3: SIMD8<Double>
    /// C₃[l]'s coefficients of ε⁵ down to ε^l, for l = 1…5 in turn (15 lanes used).
    let c3: SIMD16<Double>

    init(thirdFlattening n: Double) {
        // A₃: for ε^j, j = 5…0, a polynomial in n of order min(5 − j, j) over a denominator.
        let a3Table: [Double] = [
            -3, 128,
            -2, -3, 64,
            -1, -3, -1, 16,
            3, -1, -2, 8,
            1, -1, 2,
            1, 1,
        ]
        var a3 = SIMD8<Double>()
        var o = 0
        var k = 0
        for j in stride(from: 5, through: 0, by: -1) {
            let m = min(5 - j, j)
            a3[k] = Self.polynomial(order: m, a3Table, from: o, at: n) / a3Table[o + m + 1]
            k += 1
            o += m + 2
        }
        self.a3 = a3

        // C₃[l], l = 1…5: for ε^j, j = 5…l, a polynomial in n of order min(5 − j, j).
        let c3Table: [Double] = [
            3, 128,
            2, 5, 128,
            -1, 3, 3, 64,
            -1, 0, 1, 8,
            -1, 1, 4,
            5, 256,
            1, 3, 128,
            -3, -2, 3, 64,
            1, -3, 2, 32,
            7, 512,
            -10, 9, 384,
            5, -9, 5, 192,
            7, 512,
            -14, 7, 512,
            21, 2560,
        ]
        var c3 = SIMD16<Double>()
        o = 0
        k = 0
        for l in 1..<6 {
            for j in stride(from: 5, through: l, by: -1) {
                let m = min(5 - j, j)
                c3[k] = Self.polynomial(order: m, c3Table, from: o, at: n) / c3Table[o + m + 1]
                k += 1
                o += m + 2
            }
        }
        self.c3 = c3
    }

    /// p[o] xᴺ + p[o+1] xᴺ⁻¹ + … + p[o+N] by Horner's rule.
    static func polynomial(order: Int, _ p: [Double], from o: Int, at x: Double) -> Double {
        var y = p[o]
        if order > 0 {
            for i in 1...order { y = y * x + p[o + i] }
        }
        return y
    }

    /// A₃(ε), the mean rate of the longitude integral I₃.
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        ((((a3[0] * eps + a3[1]) * eps + a3[2]) * eps + a3[3]) * eps + a3[4]) * eps + a3[5]
    }

    /// C₃[1…5](ε) in lanes 1–5.
    @inline(__always)
    func c3(_ eps: Double) -> SIMD8<Double> {
        var c = SIMD8<Double>()
        let e2 = eps * eps, e3 = e2 * eps, e4 = e3 * eps, e5 = e4 * eps
        c[1] = eps * ((((c3[0] * eps + c3[1]) * eps + c3[2]) * eps + c3[3]) * eps + c3[4])
        c[2] = e2 * (((c3[5] * eps + c3[6]) * eps + c3[7]) * eps + c3[8])
        c[3] = e3 * ((c3[9] * eps + c3[10]) * eps + c3[11])
        c[4] = e4 * (c3[12] * eps + c3[13])
        c[5] = e5 * c3[14]
        return c
    }

    /// A₁(ε) − 1, the distance integral's mean rate less one.
    @inline(__always)
    static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁[1…6](ε) in lanes 1–6.
    @inline(__always)
    static func c1(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>()
        var d = eps
        c[1] = d * ((6 - e2) * e2 - 16) / 32
        d *= eps
        c[2] = d * ((64 - 9 * e2) * e2 - 128) / 2048
        d *= eps
        c[3] = d * (9 * e2 - 16) / 768
        d *= eps
        c[4] = d * (3 * e2 - 5) / 512
        d *= eps
        c[5] = -7 * d / 1280
        d *= eps
        c[6] = -7 * d / 2048
        return c
    }

    /// A₂(ε) − 1, the reduced-length integral's mean rate less one.
    @inline(__always)
    static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂[1…6](ε) in lanes 1–6.
    @inline(__always)
    static func c2(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>()
        var d = eps
        c[1] = d * ((e2 + 2) * e2 + 16) / 32
        d *= eps
        c[2] = d * ((35 * e2 + 64) * e2 + 384) / 2048
        d *= eps
        c[3] = d * (15 * e2 + 80) / 768
        d *= eps
        c[4] = d * (7 * e2 + 35) / 512
        d *= eps
        c[5] = 63 * d / 1280
        d *= eps
        c[6] = 77 * d / 2048
        return c
    }

    /// Σ c[l] sin(2lσ), l = 1…`count`, from sin σ and cos σ by Clenshaw summation.
    @inline(__always)
    static func sineSeries(_ sinx: Double, _ cosx: Double, _ c: SIMD8<Double>, count: Int) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2σ
        var k = count
        var y0 = 0.0
        var y1 = 0.0
        if count & 1 == 1 {
            y0 = c[k]
            k -= 1
        }
        var pairs = count / 2
        while pairs > 0 {
            y1 = ar * y0 - y1 + c[k]
            y0 = ar * y1 - y0 + c[k - 1]
            k -= 2
            pairs -= 1
        }
        return 2 * sinx * cosx * y0
    }
}
