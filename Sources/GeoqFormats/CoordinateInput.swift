import Foundation
import GeoqCore

/// A coordinate given by a person that is not a WGS84 position; the message says which
/// number and why. `description` is the English the command line prints; `reason` keeps the
/// parts, for a caller that words it in other languages (the service's batch problems).
public struct CoordinateInputError: Error, CustomStringConvertible, Sendable {
    public enum Reason: Equatable, Sendable {
        /// The text given for `name` ("latitude" or "longitude") is not a number.
        case notANumber(name: String, text: String)
        /// The text given for `name` reads as an infinite or NaN number.
        case notFinite(name: String, text: String)
        /// A number outside its range; `likelySwapped` when a latitude beyond 90 comes with a
        /// partner that would be a valid latitude (the longitude was probably put first).
        case outOfRange(CoordinateRangeError, likelySwapped: Bool)
        /// A CSV batch line with `count` fields (2 or 3 are read).
        case fieldCount(Int)
        /// An NDJSON batch line that is not a JSON object.
        case notAJSONObject
        /// An NDJSON batch line without `field` ("lat" or "lon").
        case missingField(String)
        /// An NDJSON batch line whose "lat" or "lon" is not a JSON number.
        case fieldsNotNumbers
        /// A message of the caller's own, in English.
        case other(String)
    }

    public let reason: Reason
    /// The batch line the error was read on, when it comes from a batch.
    public let line: Int?

    public init(_ reason: Reason, line: Int? = nil) {
        self.reason = reason
        self.line = line
    }

    public init(description: String) { self.init(.other(description)) }

    /// The same error, said to be on batch line `line`.
    func onLine(_ line: Int) -> CoordinateInputError { CoordinateInputError(reason, line: line) }

    public var description: String {
        let what =
            switch reason {
            case .notANumber(let name, let text): "\(name) '\(text)' is not a number"
            case .notFinite(let name, let text): "\(name) '\(text)' is not a finite number"
            case .outOfRange(let error, let likelySwapped):
                error.description + (likelySwapped ? "; did you put the longitude first? geoq takes LAT LON" : "")
            case .fieldCount(let count): "expected 'lat,lon' or 'lat,lon,id', got \(count) fields"
            case .notAJSONObject: "not a JSON object"
            case .missingField(let field): "missing \"\(field)\""
            case .fieldsNotNumbers: "\"lat\" and \"lon\" must be numbers"
            case .other(let message): message
            }
        return line.map { "line \($0): \(what)" } ?? what
    }
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
            var likelySwapped = false
            if case .latitudeOutOfRange = error, abs(lon) <= 90, abs(lat) <= 180 { likelySwapped = true }
            throw CoordinateInputError(.outOfRange(error, likelySwapped: likelySwapped))
        }
    }

    public static func number(_ text: String, named name: String) throws(CoordinateInputError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed), !trimmed.lowercased().contains("x") else {
            throw CoordinateInputError(.notANumber(name: name, text: text))
        }
        guard value.isFinite else {
            throw CoordinateInputError(.notFinite(name: name, text: text))
        }
        return value
    }
}
