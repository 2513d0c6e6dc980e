import Foundation
import GeoqCore

/// One GPS fix of a vehicle trace: where the device was, when, and how sure it was.
public struct TripFix: Hashable, Sendable {
    /// When the fix was taken, if the trace says (GPX `<time>`, CSV `time`).
    public var time: Date?
    /// The position, WGS84 degrees (`x` longitude, `y` latitude).
    public var point: Point
    /// Horizontal accuracy in metres (the radius of uncertainty), if known. A negative value
    /// is CoreLocation's "invalid position": such fixes are always dropped (see ``TripOptions``).
    public var accuracy: Double?
    /// Elevation in metres above the ellipsoid or sea level, as the trace gives it; not used in
    /// lengths (lengths are on the ellipsoid).
    public var elevation: Double?

    public init(time: Date? = nil, point: Point, accuracy: Double? = nil, elevation: Double? = nil) {
        self.time = time
        self.point = point
        self.accuracy = accuracy
        self.elevation = elevation
    }
}

/// A trace as read from a file: fixes in file order, in one or more segments.
///
/// A GPX file has one segment per `<trkseg>` (and per `<rte>`); a CSV file has one segment.
/// Lengths are summed per segment: the gap between the end of one segment and the start of the
/// next (a signal loss, the device off) is not bridged, because nothing is known of the path there.
public struct TripTrace: Hashable, Sendable {
    /// Non-empty segments, in file order.
    public var segments: [[TripFix]]

    public init(segments: [[TripFix]]) {
        self.segments = segments.filter { !$0.isEmpty }
    }

    /// Every fix, segment after segment.
    public var fixes: [TripFix] { segments.flatMap { $0 } }

    /// The number of fixes in all segments.
    public var fixCount: Int { segments.reduce(0) { $0 + $1.count } }
}
