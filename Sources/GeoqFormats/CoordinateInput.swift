import Foundation
import GeoqCore

/// A coordinate given by a person that is not a WGS84 position; the message says which
/// number and why.
public struct CoordinateInputError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(description: String) { self.description = description }
}

/// Turns what people type into points, latitude first: two numbers as text, checked for
/// range (the command line splits `42.81 -1.64`, `42.81, -1.64` and `42.81,-1.64` into them).
public enum CoordinateInput {
    /// The position from two numbers as text, checked for range.
    public static func point(latitude: String, longitude: String) throws(CoordinateInputError) -> Point {
        let lat = try number(latitude, named: "latitude")
        let lon = try number(longitude, named: "longitude")
        do {
            return try Point(latitude: lat, longitude: lon).validatedGeographic()
        } catch {
            var message = error.description
            // A latitude beyond 90 whose partner is a valid latitude: probably swapped.
            if case .latitudeOutOfRange = error, abs(lon) <= 90, abs(lat) <= 180 {
                message += "; did you put the longitude first? geoq takes LAT LON"
            }
            throw CoordinateInputError(description: message)
        }
    }

    public static func number(_ text: String, named name: String) throws(CoordinateInputError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed), !trimmed.lowercased().contains("x") else {
            throw CoordinateInputError(description: "\(name) '\(text)' is not a number")
        }
        guard value.isFinite else {
            throw CoordinateInputError(description: "\(name) '\(text)' is not a finite number")
        }
        return value
    }
}
