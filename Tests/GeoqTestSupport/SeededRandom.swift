import Foundation

/// A small deterministic generator (SplitMix64) so that randomised tests are repeatable:
/// a failing seed can be replayed exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// A position uniform on the sphere, made by `position` from its latitude and longitude in
    /// degrees: the latitude asin(2u − 1), so that equal areas are equally likely, the longitude
    /// uniform in [-180, 180].
    public mutating func positionOnSphere<Position>(
        _ position: (_ latitude: Double, _ longitude: Double) -> Position
    ) -> Position {
        let latitude = asin(2 * uniform(0...1) - 1) * 180 / .pi
        return position(latitude, uniform(-180...180))
    }
}
