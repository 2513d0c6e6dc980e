import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTrips

/// Synthetic traces built with Karney's direct problem, so their true lengths are known by
/// construction (each consecutive pair is joined by a geodesic of the step's length).
enum Traces {
    static let pamplona = Point(latitude: 42.81, longitude: -1.64)
    static let t0 = Date(timeIntervalSince1970: 1_772_352_000)  // 2026-03-01T08:00:00Z

    /// `count` fixes, each `step` metres from the previous at `azimuth` (re-aimed at every fix),
    /// one second apart.
    static func line(count: Int, step: Double, azimuth: Double, from start: Point = pamplona) -> [TripFix] {
        var p = start
        var fixes: [TripFix] = []
        for i in 0..<count {
            if i > 0 { p = Geodesic.wgs84.direct(from: p, azimuth: azimuth, distance: step) }
            fixes.append(TripFix(time: t0.addingTimeInterval(Double(i)), point: p))
        }
        return fixes
    }

    /// Fixes `distance` metres from `centre` at azimuths 0, 360/n, …; `closed` repeats the first.
    static func circle(radius: Double, count: Int, closed: Bool, centre: Point = pamplona) -> [TripFix] {
        let n = closed ? count + 1 : count
        return (0..<n).map { i in
            let p = Geodesic.wgs84.direct(
                from: centre, azimuth: 360 * Double(i % count) / Double(count), distance: radius)
            return TripFix(time: t0.addingTimeInterval(Double(i)), point: p)
        }
    }

    static func trip(_ fixes: [TripFix], _ options: TripOptions = TripOptions()) -> Trip {
        Trip(trace: TripTrace(segments: [fixes]), options: options)
    }
}
