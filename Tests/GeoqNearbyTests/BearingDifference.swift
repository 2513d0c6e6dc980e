/// The difference between two bearings in degrees, across 0°/360° (0 to 180), as the solvers'
/// bearings are compared with Karney's.
func bearingDifference(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 360).magnitude
    return min(d, 360 - d)
}
