#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The spherical Web Mercator projection (EPSG:3857) as fractions of the world square: x from
/// 0 at longitude -180 to 1 at +180, y from 0 at the northern limit to 1 at the southern one
/// (y grows southwards, as tile rows do).
///
/// Latitudes are clamped to ±``maximumLatitude``, where the square ends; longitudes are not
/// wrapped, so a longitude beyond ±180 lands outside 0...1.
public enum WebMercator {
    /// The latitude where the projected world is square: atan(sinh(π)) in degrees.
    public static let maximumLatitude = 85.0511287798066

    /// The x fraction of `longitude` (degrees).
    @inlinable
    public static func x(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    /// The y fraction of `latitude` (degrees), clamped to ±``maximumLatitude``.
    @inlinable
    public static func y(latitude: Double) -> Double {
        let clamped = Swift.min(Swift.max(latitude, -maximumLatitude), maximumLatitude)
        let s = sin(clamped * .pi / 180)
        // ln(tan φ + sec φ) written with the sine, which stays accurate near the equator.
        return 0.5 - log((1 + s) / (1 - s)) / (4 * .pi)
    }

    /// The longitude (degrees) of the x fraction `x`.
    @inlinable
    public static func longitude(x: Double) -> Double {
        x * 360 - 180
    }

    /// The latitude (degrees) of the y fraction `y`.
    @inlinable
    public static func latitude(y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }
}
