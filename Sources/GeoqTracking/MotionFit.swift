import Foundation
import GeoqCore

/// A least-squares fit of a run of fixes: where they are on average (the anchor of a stay)
/// and how fast they move together (the slope of position over time).
///
/// Why a fit and not the speed between two fixes: with 15 m of noise, two fixes of a parked
/// phone a second apart are often 30 m apart, while the slope over a minute of fixes has a
/// noise of about 0.1 m/s. A car crawling at 1 m/s, whose fixes a speed threshold or a radius
/// alone would call a stop, fits at 1 m/s.
///
/// Kept as running sums (constant size, whatever the run's length), in metres east and north of
/// the run's first fix (the local metric there: runs span at most a few kilometres) and seconds
/// since it.
public struct MotionFit: Codable, Hashable, Sendable {
    public let originLatitude: Double
    public let originLongitude: Double
    public let start: Date
    /// The last fix added.
    public private(set) var last: Date
    private var count = 0.0
    private var sumT = 0.0, sumTT = 0.0
    private var sumX = 0.0, sumY = 0.0
    private var sumTX = 0.0, sumTY = 0.0

    public init(first fix: Fix) {
        originLatitude = fix.latitude
        originLongitude = fix.longitude
        start = fix.time
        last = fix.time
        add(fix)
    }

    public mutating func add(_ fix: Fix) {
        let (x, y) = offset(of: fix)
        let t = fix.time.timeIntervalSince(start)
        count += 1
        sumT += t
        sumTT += t * t
        sumX += x
        sumY += y
        sumTX += t * x
        sumTY += t * y
        last = max(last, fix.time)
    }

    /// How many fixes the run has.
    public var fixes: Int { Int(count) }

    /// Seconds from the first fix to the last.
    public var duration: Double { last.timeIntervalSince(start) }

    /// The mean position, latitude first.
    public var anchor: (latitude: Double, longitude: Double) {
        let metric = metric
        return (
            originLatitude + sumY / count / metric.metresPerDegreeY,
            originLongitude + sumX / count / metric.metresPerDegreeX
        )
    }

    /// Metres from the mean position to `fix`.
    public func distanceFromAnchor(to fix: Fix) -> Double {
        let (x, y) = offset(of: fix)
        let dx = x - sumX / count, dy = y - sumY / count
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The run's speed in m/s: the magnitude of the least-squares velocity; 0 while the fixes
    /// span no time. Not the mean of the fixes' own speeds: a run that starts as the car slows
    /// down would carry its driving speeds for minutes, where their positions weigh little.
    public var speed: Double {
        let spread = count * sumTT - sumT * sumT
        guard spread > 0 else { return 0 }
        let vx = (count * sumTX - sumT * sumX) / spread
        let vy = (count * sumTY - sumT * sumY) / spread
        return (vx * vx + vy * vy).squareRoot()
    }

    private var metric: LocalMetric { LocalMetric(wgs84AtLatitude: originLatitude) }

    private func offset(of fix: Fix) -> (x: Double, y: Double) {
        let metric = metric
        return (
            (fix.longitude - originLongitude) * metric.metresPerDegreeX,
            (fix.latitude - originLatitude) * metric.metresPerDegreeY
        )
    }
}

// The fit's part of a stored track (see `DeviceTrack.storage`): its origin, start and sums.
extension MotionFit {
    func write(to out: inout TrackRecordWriter) {
        for value in [originLatitude, originLongitude, count, sumT, sumTT, sumX, sumY, sumTX, sumTY] {
            out.double(value)
        }
        out.date(start)
        out.date(last)
    }

    init(from input: inout TrackRecordReader) throws {
        originLatitude = try input.double()
        originLongitude = try input.double()
        count = try input.double()
        sumT = try input.double()
        sumTT = try input.double()
        sumX = try input.double()
        sumY = try input.double()
        sumTX = try input.double()
        sumTY = try input.double()
        start = try input.date()
        last = try input.date()
    }
}
