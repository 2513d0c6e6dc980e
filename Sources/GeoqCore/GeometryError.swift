/// Why a list of coordinates is not a usable ring or polygon.
///
/// Positions are zero-based indices so that a reader can name the offending ring exactly
/// (for example "feature 3, polygon 0, ring 1").
public enum GeometryError: Error, Equatable, Sendable {
    /// A ring needs at least 4 positions (a triangle plus the closing point).
    case tooFewPoints(count: Int)
    /// The last position must repeat the first.
    case notClosed(first: Point, last: Point)
    /// NaN or infinity in a coordinate.
    case nonFiniteCoordinate(index: Int)
}

extension GeometryError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .tooFewPoints(let n):
            "ring has \(n) positions; a closed ring needs at least 4"
        case .notClosed(let first, let last):
            "ring is not closed: first position \(first) differs from last \(last)"
        case .nonFiniteCoordinate(let i):
            "position \(i) has a coordinate that is not a finite number"
        }
    }
}
