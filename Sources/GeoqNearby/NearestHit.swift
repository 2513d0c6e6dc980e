/// One answer of a nearest-N query: an item of the index, how far it is and in which direction.
public struct NearestHit: Hashable, Sendable {
    /// The item's index in the array the ``PointIndex`` was built from.
    public var item: Int
    /// Geodesic distance from the query point to the item, in metres (Karney's algorithm
    /// through the ``GeodesicSolving`` given to the query).
    public var distance: Double
    /// Initial bearing of the geodesic at the query point towards the item, in degrees
    /// clockwise from true north, in [0, 360).
    public var bearing: Double

    public init(item: Int, distance: Double, bearing: Double) {
        self.item = item
        self.distance = distance
        self.bearing = bearing
    }
}
