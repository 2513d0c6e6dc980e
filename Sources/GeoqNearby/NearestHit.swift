/// One answer of a nearest-N query: an item of the index, how far it is and in which direction.
public struct NearestHit: Hashable, Sendable {
    /// The item's index in the array the ``PointIndex`` was built from.
    public var item: Int
    /// Geodesic distance from the query point to the item, in metres: Karney's (the
    /// ``GeodesicSolving`` given to the query) or, for lines under 100 km, the short-line
    /// formula's, within ``PointIndex/distanceTolerance`` of it.
    public var distance: Double
    /// Initial bearing of the geodesic at the query point towards the item, in degrees
    /// clockwise from true north, in [0, 360), within ``PointIndex/bearingTolerance``.
    public var bearing: Double

    public init(item: Int, distance: Double, bearing: Double) {
        self.item = item
        self.distance = distance
        self.bearing = bearing
    }
}

extension NearestHit {
    /// True when `exact` (Karney's answer for the same query, from a brute-force scan, say) is
    /// the same item, at the same distance and bearing within the tolerances of ``PointIndex``.
    public func agrees(with exact: NearestHit) -> Bool {
        let turn = (bearing - exact.bearing).magnitude
        return item == exact.item && (distance - exact.distance).magnitude <= PointIndex.distanceTolerance
            && Swift.min(turn, 360 - turn) <= PointIndex.bearingTolerance
    }
}

extension Array<NearestHit> {
    /// True when both lists hold the same items in the same order, each hit agreeing with its
    /// counterpart (see ``NearestHit/agrees(with:)``).
    public func agrees(with exact: [NearestHit]) -> Bool {
        count == exact.count && zip(self, exact).allSatisfy { $0.agrees(with: $1) }
    }
}
