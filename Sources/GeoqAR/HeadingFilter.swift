import Foundation

/// Exponential smoothing of compass headings on the unit circle, so that the wrap at north
/// does no harm: 359° and 1° average to 0°, not 180°.
///
/// Each reading ψ is the unit vector (sin ψ, cos ψ); the filter keeps s ← (1 − α)·s + α·sin ψ
/// and c ← (1 − α)·c + α·cos ψ (the first reading sets s and c), and the smoothed heading is
/// atan2(s, c) in [0, 360). When the readings cancel out exactly (s = c = 0, e.g. 0° then 180° with
/// α = ½) the previous smoothed heading is kept. Constant readings converge geometrically:
/// the error shrinks by the factor (1 − α) per reading.
public struct HeadingFilter: Hashable, Sendable {
    /// Weight of a new reading, in (0, 1]; 1 = no smoothing.
    public let alpha: Double
    private var s = 0.0
    private var c = 0.0
    /// The smoothed heading in [0, 360), nil before the first reading.
    public private(set) var heading: Double?

    public init(alpha: Double = 0.3) {
        precondition(alpha > 0 && alpha <= 1, "HeadingFilter alpha must be in (0, 1]")
        self.alpha = alpha
    }

    /// Adds a reading (degrees) and returns the smoothed heading. Non-finite readings are ignored.
    @discardableResult
    public mutating func update(_ reading: Double) -> Double {
        guard reading.isFinite else { return heading ?? 0 }
        let r = reading * .pi / 180
        if heading == nil {
            s = sin(r)
            c = cos(r)
        } else {
            s = (1 - alpha) * s + alpha * sin(r)
            c = (1 - alpha) * c + alpha * cos(r)
        }
        if s * s + c * c > 1e-24 || heading == nil {
            heading = ARAngles.normalized(atan2(s, c) * 180 / .pi)
        }
        return heading!
    }

    /// Forgets every reading.
    public mutating func reset() {
        s = 0
        c = 0
        heading = nil
    }
}
