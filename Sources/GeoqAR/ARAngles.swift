import Foundation

/// Angle arithmetic in degrees, as compasses and people give angles.
public enum ARAngles {
    /// `degrees` reduced to [0, 360): a bearing or heading.
    public static func normalized(_ degrees: Double) -> Double {
        let r = fmod(degrees, 360)
        let n = r < 0 ? r + 360 : r
        return n >= 360 ? n - 360 : n
    }

    /// `degrees` wrapped to (−180, 180]: a signed turn, positive clockwise (to the right).
    /// 190 → −170, −180 → 180.
    public static func wrapped(_ degrees: Double) -> Double {
        var r = fmod(degrees, 360)
        if r > 180 { r -= 360 }
        if r <= -180 { r += 360 }
        return r
    }

    /// The true heading from a magnetic one: true = magnetic + declination, declination in
    /// degrees, east positive (Valencia 2026: about +1°). Result in [0, 360).
    public static func trueHeading(magnetic: Double, declination: Double) -> Double {
        normalized(magnetic + declination)
    }

    @inlinable static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    @inlinable static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
