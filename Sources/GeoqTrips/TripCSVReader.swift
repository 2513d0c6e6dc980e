import Foundation
import GeoqCore

/// Reads a CSV trace: `time,lat,lon[,accuracy]`, latitude first.
///
/// - The header is optional. The first line is a header when its `lat` column is not a number;
///   its names then give the column order (`time`/`timestamp`, `lat`/`latitude`,
///   `lon`/`lng`/`longitude`, `accuracy`/`acc`; other columns are ignored). Without a header
///   the order is `time,lat,lon[,accuracy]`.
/// - `time` is ISO 8601 with a zone or Unix seconds, and may be empty (unknown).
/// - `accuracy` is the horizontal accuracy in metres, and may be empty.
/// - Blank lines are skipped; fields may be quoted with `"`; CRLF line ends and a BOM are accepted.
/// - Errors name the line and field; times going backwards are an error (see ``TraceValues``).
public struct TripCSVReader: Sendable {
    public init() {}

    public func read(_ text: String, source: String) throws(TripReadError) -> TripTrace {
        var values = TraceValues(file: source)
        var columns = (time: 0, lat: 1, lon: 2, accuracy: Optional(3))
        var fixes: [TripFix] = []
        var sawFirst = false
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // "\r\n" is one Character, and a newline: CRLF, LF and CR all end a line.
        for (index, line) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let fields = Self.fields(line)
            if !sawFirst {
                sawFirst = true
                if fields.count > 1, Double(fields[1]) == nil {
                    columns = try Self.columns(header: fields, file: source, line: number)
                    continue
                }
            }
            let needed = max(columns.time, columns.lat, columns.lon) + 1
            guard fields.count >= needed else {
                throw TripReadError(
                    .badValue, file: source, line: number,
                    message: "expected at least \(needed) fields (time,lat,lon[,accuracy]), found \(fields.count)")
            }
            let time = try values.time(fields[columns.time], line: number)
            let point = try values.point(latitude: fields[columns.lat], longitude: fields[columns.lon], line: number)
            var accuracy: Double?
            if let a = columns.accuracy, a < fields.count {
                accuracy = try values.number(fields[a], line: number, field: "accuracy", required: false)
            }
            try values.checkOrder(time, line: number)
            fixes.append(TripFix(time: time, point: point, accuracy: accuracy))
        }
        guard !fixes.isEmpty else {
            throw TripReadError(.noFixes, file: source, message: "no fixes (expected lines time,lat,lon[,accuracy])")
        }
        return TripTrace(segments: [fixes])
    }

    private static func fields(_ line: Substring) -> [String] {
        line.split(separator: ",", omittingEmptySubsequences: false).map { raw in
            var f = raw.trimmingCharacters(in: .whitespaces)
            if f.count >= 2, f.hasPrefix("\""), f.hasSuffix("\"") { f = String(f.dropFirst().dropLast()) }
            return f
        }
    }

    private static func columns(header: [String], file: String, line: Int) throws(TripReadError) -> (
        time: Int, lat: Int, lon: Int, accuracy: Int?
    ) {
        func find(_ names: Set<String>) -> Int? {
            header.firstIndex { names.contains($0.lowercased()) }
        }
        guard let lat = find(["lat", "latitude"]), let lon = find(["lon", "lng", "long", "longitude"]) else {
            throw TripReadError(
                .invalidSyntax, file: file, line: line,
                message:
                    "header '\(header.joined(separator: ","))' names no lat and lon columns (expected time,lat,lon[,accuracy])"
            )
        }
        guard let time = find(["time", "timestamp", "date"]) else {
            throw TripReadError(
                .invalidSyntax, file: file, line: line, field: "time",
                message:
                    "header '\(header.joined(separator: ","))' names no time column (expected time,lat,lon[,accuracy])")
        }
        return (time, lat, lon, find(["accuracy", "acc", "horizontal_accuracy"]))
    }
}
