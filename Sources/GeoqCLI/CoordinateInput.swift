import Foundation
import GeoqCore

/// A coordinate given by a person that is not a WGS84 position; the message says which
/// number and why.
struct CoordinateInputError: Error, CustomStringConvertible {
    let description: String
}

/// Turns what people type into points, latitude first.
///
/// Accepted: `42.81 -1.64`, `42.81, -1.64` (as copied from a map), `42.81,-1.64`.
enum CoordinateInput {
    /// The position named by command-line words, which must hold exactly two numbers.
    static func point(fromArguments words: [String]) throws(CoordinateInputError) -> Point {
        let tokens = words.joined(separator: " ")
            .split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        if let option = tokens.first(where: { $0.hasPrefix("--") || ($0.hasPrefix("-") && Double($0) == nil) }) {
            throw CoordinateInputError(description: "unknown option '\(option)' (see geoq which-sector --help)")
        }
        switch tokens.count {
        case 0:
            throw CoordinateInputError(
                description: "missing LAT and LON: give a latitude and a longitude, e.g. 42.81 -1.64")
        case 1:
            throw CoordinateInputError(
                description: "missing LON: got only '\(tokens[0])'; give a latitude and a longitude, e.g. 42.81 -1.64")
        case 2: return try point(latitude: tokens[0], longitude: tokens[1])
        default:
            throw CoordinateInputError(
                description: "expected two numbers (LAT LON), got \(tokens.count): \(tokens.joined(separator: " "))")
        }
    }

    /// The position from two numbers as text, checked for range.
    static func point(latitude: String, longitude: String) throws(CoordinateInputError) -> Point {
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

    static func number(_ text: String, named name: String) throws(CoordinateInputError) -> Double {
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
