import GeoqCore

/// Wording of ``GeometryError`` for a ring with a known role (`outer ring`, `hole 2`, `part 3`).
enum RingMessages {
    static func describe(_ error: GeometryError, role: String) -> String {
        switch error {
        case .tooFewPoints(let n):
            return "\(role) has \(n) position\(n == 1 ? "" : "s"); a closed ring needs at least 4"
        case .notClosed(let first, let last):
            return "\(role) is not closed: first position \(first) differs from last \(last)"
        case .nonFiniteCoordinate(let i):
            return "\(role): position \(i) has a coordinate that is not a finite number"
        }
    }
}
