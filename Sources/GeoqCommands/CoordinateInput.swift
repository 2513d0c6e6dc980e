import GeoqCore
import GeoqFormats

extension CoordinateInput {
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
}
