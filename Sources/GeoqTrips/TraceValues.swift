import Foundation
import GeoqCore
import GeoqSchedule

/// Field parsing shared by the CSV and GPX readers, so both give the same messages.
struct TraceValues {
    let file: String
    private var lastTime: (date: Date, line: Int)?

    init(file: String) {
        self.file = file
    }

    /// A time: ISO 8601 with a zone (`2026-03-01T08:00:00Z`, `…08:00:00.5+01:00`) or Unix
    /// seconds (`1772352000`, `1772352000.5`). Empty means unknown.
    func time(_ text: String, line: Int, field: String = "time") throws(TripReadError) -> Date? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return nil }
        if let seconds = Double(t) {
            guard seconds.isFinite else {
                throw TripReadError(
                    .badValue, file: file, line: line, field: field, message: "\(field) '\(t)' is not finite")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        if let d = InternetTime.parseToTheMillisecond(t) { return d }
        throw TripReadError(
            .badValue, file: file, line: line, field: field,
            message: "\(field) '\(t)' is neither an ISO 8601 time with a zone (2026-03-01T08:00:00Z) nor Unix seconds")
    }

    /// A finite number, or nil when `text` is empty and `required` is false.
    func number(_ text: String, line: Int, field: String, required: Bool) throws(TripReadError) -> Double? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty {
            if required {
                throw TripReadError(.badValue, file: file, line: line, field: field, message: "\(field) is missing")
            }
            return nil
        }
        guard let v = Double(t), v.isFinite else {
            throw TripReadError(
                .badValue, file: file, line: line, field: field, message: "\(field) '\(t)' is not a number")
        }
        return v
    }

    /// A WGS84 position from latitude and longitude text.
    func point(latitude: String, longitude: String, line: Int) throws(TripReadError) -> Point {
        let lat = try number(latitude, line: line, field: "lat", required: true)!
        let lon = try number(longitude, line: line, field: "lon", required: true)!
        guard (-90...90).contains(lat) else {
            throw TripReadError(
                .outOfRange, file: file, line: line, field: "lat", message: "lat \(lat) is outside [-90, 90]")
        }
        guard (-180...180).contains(lon) else {
            throw TripReadError(
                .outOfRange, file: file, line: line, field: "lon", message: "lon \(lon) is outside [-180, 180]")
        }
        return Point(latitude: lat, longitude: lon)
    }

    /// Refuses a fix earlier than the previous timed fix (equal times are accepted). The order of
    /// the fixes is the path: a trace whose times go backwards was merged or shuffled, and its
    /// length would be silently wrong, so this is an error, not a warning.
    mutating func checkOrder(_ time: Date?, line: Int) throws(TripReadError) {
        guard let time else { return }
        if let last = lastTime, time < last.date {
            throw TripReadError(
                .timeOrder, file: file, line: line, field: "time",
                message: "time \(Self.format(time)) is earlier than \(Self.format(last.date)) on line \(last.line)")
        }
        lastTime = (time, line)
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
