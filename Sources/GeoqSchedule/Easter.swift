/// Easter Sunday on the Gregorian calendar, the anchor of the movable holidays (Maundy Thursday
/// = Easter − 3, Good Friday − 2, Holy Saturday − 1, Easter Monday + 1).
///
/// The "anonymous Gregorian algorithm" (Meeus/Jones/Butcher; Meeus, *Astronomical Algorithms*,
/// ch. 8), valid for every Gregorian year.
public enum Easter {
    public static func sunday(of year: Int) -> CivilDate {
        let a = year % 19
        let b = year / 100, c = year % 100
        let d = b / 4, e = b % 4
        let f = (b + 8) / 25
        let g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate(year: year, month: month, day: day)!
    }
}
