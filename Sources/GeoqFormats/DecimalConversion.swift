/// Correctly rounded `Double` of a plain decimal `digits × 10^-fractionDigits`, without building
/// a `String` for `Double(String)` (whose `strtod` falls back to big-number arithmetic for the
/// 17-digit coordinates that float-printing exporters write, e.g. `-2.6259159999999997`).
///
/// Exact in two ways, else nil (the caller then uses `Double(String)`):
/// - Clinger's fast path: both `digits` (at most 2^53) and `10^fractionDigits` (at most 10^22)
///   are exact doubles, so one IEEE division rounds the quotient correctly;
/// - otherwise the quotient is computed in 128-bit integers to 56 or 57 significant bits with a
///   sticky remainder, then rounded to 53 bits, to nearest, ties to even.
struct DecimalConversion {
    /// The most fraction digits handled: 10^21 < 2^70 keeps the scaled dividend under 2^128.
    static let maximumFractionDigits = 21

    /// Held by each user, read without a lazy global's check on every number.
    let exactPowers = DecimalConversion.exactPowerTable
    let integerPowers = DecimalConversion.integerPowerTable
    /// 10^0 … 10^8: what an integer is multiplied by to append up to eight digits to it.
    let smallPowers = DecimalConversion.smallPowerTable

    private static let exactPowerTable: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }  // each product is an exact double up to 10^22
        return p
    }

    private static let smallPowerTable: [UInt64] = (0...8).map { k in
        var p: UInt64 = 1
        for _ in 0..<k { p *= 10 }
        return p
    }

    private static let integerPowerTable: [UInt128] = (0...maximumFractionDigits).map { k in
        var p: UInt128 = 1
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// `digits / 10^fractionDigits` rounded to the nearest double (ties to even), or nil when
    /// `fractionDigits` is beyond ``maximumFractionDigits``.
    @inline(__always)
    func double(digits: UInt64, fractionDigits: Int) -> Double? {
        if digits <= 1 << 53 {
            if fractionDigits <= 22 { return Double(digits) / exactPowers[fractionDigits] }
        }
        guard fractionDigits <= Self.maximumFractionDigits else { return nil }
        if fractionDigits == 0 { return Double(digits) }  // one conversion, correctly rounded
        return wide(digits: digits, fractionDigits: fractionDigits)
    }

    private func wide(digits: UInt64, fractionDigits: Int) -> Double {
        let divisor = integerPowers[fractionDigits]
        let digitBits = 64 - digits.leadingZeroBitCount
        let divisorBits = 128 - divisor.leadingZeroBitCount
        // dividend < 2^(56 + divisorBits) and >= 2^(55 + divisorBits), so the quotient has
        // 56 or 57 bits: 53 to keep, the rest to round with. Digits already long enough
        // (a 19-digit number over 10) are not shifted: the quotient then has up to 64 bits.
        let shift = max(0, 56 + divisorBits - digitBits)
        let dividend = UInt128(digits) << shift
        let (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
        let quotientBits = 128 - quotient.leadingZeroBitCount
        let dropped = quotientBits - 53
        var mantissa = UInt64(quotient >> dropped)
        let rest = UInt64(quotient & ((1 << dropped) - 1))
        let half = UInt64(1) << (dropped - 1)
        if rest > half || (rest == half && (remainder != 0 || mantissa & 1 == 1)) {
            mantissa += 1
        }
        // A carry to 2^53 is still exact as a double: no renormalising needed.
        return Double(sign: .plus, exponent: dropped - shift, significand: Double(mantissa))
    }
}
