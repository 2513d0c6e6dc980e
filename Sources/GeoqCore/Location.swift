/// Where a point lies relative to an areal geometry (the OGC / DE-9IM notion).
public enum Location: String, Hashable, Sendable, Codable {
    case interior
    case boundary
    case exterior

    /// `covers` semantics: a point on the boundary belongs to the area. This is geoq's
    /// policy for sectors: a car parked exactly on a sector's edge is in that sector.
    @inlinable public var isCovered: Bool { self != .exterior }
}
