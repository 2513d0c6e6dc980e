import Foundation
import GeoqCore

/// Which fixes of a trace count towards a trip's length.
public struct TripOptions: Hashable, Sendable {
    /// The distance filter, in metres: a fix is kept only when it is at least this far (geodesic)
    /// from the last kept fix of its segment. 0 keeps every fix. The vehicle app recorded with
    /// 500 m (300 m before); applying the same filter to a dense trace reproduces its figures.
    public var minStep: Double
    /// Fixes whose accuracy is worse (larger) than this many metres are dropped before the
    /// distance filter. Nil keeps every accuracy. A fix with no accuracy is kept (unknown is not
    /// "worse"); a fix with a negative accuracy (CoreLocation's "invalid position") is always
    /// dropped.
    public var maxAccuracy: Double?

    public init(minStep: Double = 0, maxAccuracy: Double? = nil) {
        self.minStep = minStep
        self.maxAccuracy = maxAccuracy
    }
}

/// What a trip summary says.
public struct TripReport: Hashable, Sendable {
    /// Fixes in the file.
    public var fixesRead: Int
    /// Fixes that count: `fixesRead - droppedForAccuracy - droppedForStep`.
    public var fixesKept: Int
    public var droppedForAccuracy: Int
    public var droppedForStep: Int
    /// Sum over segments of the geodesic (Karney) distances between successive kept fixes.
    public var lengthMetres: Double
    /// Elapsed time from the first to the last timed kept fix (gaps between segments included),
    /// nil when fewer than two kept fixes have times.
    public var duration: TimeInterval?
    /// Time of the first and last timed kept fix.
    public var start: Date?
    public var end: Date?
    /// Segments with at least one kept fix.
    public var segments: Int
    /// A proven upper bound, in metres, on how much the distance filter shortened the length
    /// against the same fixes without it: `2 · minStep · droppedForStep` (see ``Trip``).
    public var stepFilterBound: Double

    public init(
        fixesRead: Int, fixesKept: Int, droppedForAccuracy: Int, droppedForStep: Int, lengthMetres: Double,
        duration: TimeInterval?, start: Date?, end: Date?, segments: Int, stepFilterBound: Double
    ) {
        self.fixesRead = fixesRead
        self.fixesKept = fixesKept
        self.droppedForAccuracy = droppedForAccuracy
        self.droppedForStep = droppedForStep
        self.lengthMetres = lengthMetres
        self.duration = duration
        self.start = start
        self.end = end
        self.segments = segments
        self.stepFilterBound = stepFilterBound
    }

    /// Average speed in metres per second over ``duration``; nil without a positive duration.
    public var averageSpeed: Double? {
        guard let duration, duration > 0 else { return nil }
        return lengthMetres / duration
    }
}

/// A trip: a trace and the options that choose its fixes.
///
/// **Filtering**, per segment and in order: fixes with bad accuracy are dropped (see
/// ``TripOptions/maxAccuracy``); the first remaining fix is kept; each later fix is kept when its
/// geodesic distance from the last kept fix is at least ``TripOptions/minStep`` (less
/// ``stepTolerance``). **The last remaining fix of each segment is always kept**, even if
/// closer: it is where the trip ended, and dropping it would lose up to `minStep` of every trip. (So 101 fixes 100 m apart on a line,
/// filtered at 500 m, keep 21 fixes and measure 10,000 m.)
///
/// **What a distance filter does to the length.** Let `L` be the length over the fixes that
/// pass the accuracy filter and `Lf` the length over the fixes the distance filter keeps.
/// - `Lf ≤ L`, always: each chord between two kept fixes is at most the sum of the geodesic
///   steps it replaces (triangle inequality; geodesic distance is a metric). A filter can only
///   shorten a trip: on curves the chord cuts the arc.
/// - `L − Lf ≤ 2 · minStep · droppedForStep` (strictly less when a fix was dropped): between two kept fixes `k` and `k′`, each of the
///   `m` dropped fixes is within `minStep` of `k`, so the first step is `< minStep`, each step
///   between dropped fixes `< 2·minStep`, and the last `< minStep + |k k′|`; the replaced path
///   exceeds the chord by less than `2m · minStep`. This bound is loose for smooth driving (it
///   is reached only by jitter back and forth) but it holds for any trace; it is
///   ``TripReport/stepFilterBound``.
/// - For smooth curves (computed, and tested on a 2 km circle): on a bend of radius `r` the
///   chord of an arc of length `s` is shorter by the factor `sin(θ/2)/(θ/2)`, `θ = s/r`, about
///   `θ²/24`: 0.26 % for 500 m steps on a 2 km radius, about 1 % on a 1 km radius. At a sharp
///   corner the chord between kept fixes `a` and `b` metres either side of a right angle cuts
///   `a + b − √(a² + b²) ≤ 0.29 (a + b)`; with a 500 m filter that is up to about 150–300 m per
///   corner, so a handful of sharp turns between fixes approach the 1 km error SPEC §4 accepted.
///
/// The original vehicle log recorded only the filtered fixes, so its unfiltered `L` is unknown;
/// the bounds above say how far a filtered length can be from a dense trace of the same drive.
public struct Trip: Sendable {
    public var trace: TripTrace
    public var options: TripOptions

    public init(trace: TripTrace, options: TripOptions = TripOptions()) {
        self.trace = trace
        self.options = options
    }

    /// The kept fixes of each segment (segments left empty are omitted). O(n) geodesic solves.
    public func keptSegments(geodesic: some GeodesicSolving) -> [[TripFix]] {
        filtered(geodesic: geodesic).segments
    }

    /// The summed geodesic length in metres of the kept fixes, segment by segment.
    public func length(geodesic: some GeodesicSolving) -> Double {
        report(geodesic: geodesic).lengthMetres
    }

    /// The summary: counts, length, times.
    public func report(geodesic: some GeodesicSolving) -> TripReport {
        let f = filtered(geodesic: geodesic)
        var length = 0.0
        for segment in f.segments {
            length += Self.pathLength(segment.map(\.point), geodesic: geodesic)
        }
        let times = f.segments.joined().compactMap(\.time)
        let start = times.min()
        let end = times.max()
        let duration: TimeInterval? =
            if let start, let end, times.count >= 2 { end.timeIntervalSince(start) } else { nil }
        let kept = f.segments.reduce(0) { $0 + $1.count }
        return TripReport(
            fixesRead: trace.fixCount, fixesKept: kept, droppedForAccuracy: f.droppedForAccuracy,
            droppedForStep: f.droppedForStep, lengthMetres: length, duration: duration, start: start, end: end,
            segments: f.segments.count, stepFilterBound: 2 * options.minStep * Double(f.droppedForStep))
    }

    /// Fixes this much closer than `minStep` still count as `minStep` away (1 µm), so that fixes
    /// placed exactly `minStep` apart are kept despite rounding in the geodesic solution.
    public static let stepTolerance = 1e-6

    /// The sum of geodesic distances between successive points (0 for fewer than two).
    public static func pathLength(_ points: [Point], geodesic: some GeodesicSolving) -> Double {
        guard points.count > 1 else { return 0 }
        var sum = 0.0
        for i in 1..<points.count {
            sum += geodesic.distanceAndBearing(from: points[i - 1], to: points[i]).distance
        }
        return sum
    }

    private func filtered(geodesic: some GeodesicSolving) -> (
        segments: [[TripFix]], droppedForAccuracy: Int, droppedForStep: Int
    ) {
        var out: [[TripFix]] = []
        var droppedForAccuracy = 0
        var droppedForStep = 0
        for segment in trace.segments {
            let accurate = segment.filter { fix in
                guard let a = fix.accuracy else { return true }
                if a < 0 { return false }
                if let limit = options.maxAccuracy, a > limit { return false }
                return true
            }
            droppedForAccuracy += segment.count - accurate.count
            guard let first = accurate.first else { continue }
            var kept = [first]
            if accurate.count > 1 {
                for (i, fix) in accurate.enumerated().dropFirst() {
                    let isLast = i == accurate.count - 1
                    if isLast
                        || options.minStep <= 0
                        || geodesic.distanceAndBearing(from: kept[kept.count - 1].point, to: fix.point).distance
                            >= options.minStep - Self.stepTolerance
                    {
                        kept.append(fix)
                    } else {
                        droppedForStep += 1
                    }
                }
            }
            out.append(kept)
        }
        return (out, droppedForAccuracy, droppedForStep)
    }
}
