/// The Dimensionally Extended 9-Intersection Model for a point against an area, which is
/// all that point-in-polygon needs: once the point's ``Location`` is known, every OGC
/// predicate between the two follows.
///
/// Matrices are 9 characters, rows Interior, Boundary, Exterior of the first geometry and
/// columns those of the second, as in WKT and GEOS's `GEOSRelate`.
public enum DE9IM {
    /// The matrix of a point (first) against a non-empty area (second) when the point has
    /// `location` relative to the area. A point has no boundary, so its B row is all F; the
    /// area's interior (2) and boundary (1) always meet the point's exterior.
    public static func pointAgainstArea(_ location: Location) -> String {
        switch location {
        case .interior: "0FFFFF212"
        case .boundary: "F0FFFF212"
        case .exterior: "FF0FFF212"
        }
    }

    /// The matrix with the two geometries exchanged.
    public static func transposed(_ matrix: String) -> String {
        let m = Array(matrix)
        precondition(m.count == 9, "a DE-9IM matrix has 9 entries")
        return String([m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]])
    }

    /// True when `matrix` satisfies `pattern` (`T` = any dimension, `F` = empty, `*` = any,
    /// `0`/`1`/`2` = that dimension).
    public static func matches(_ matrix: String, pattern: String) -> Bool {
        let m = Array(matrix), p = Array(pattern.uppercased())
        guard m.count == 9, p.count == 9 else { return false }
        return zip(m, p).allSatisfy { value, want in
            switch want {
            case "*": true
            case "T": value != "F"
            default: value == want
            }
        }
    }
}
