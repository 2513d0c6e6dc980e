import Foundation
import GeoqCore

/// One input line of `which-sector --batch`: a point, or why the line is not one.
public struct BatchItem: Sendable {
    public let line: Int
    public let id: String?
    public let result: Result<Point, CoordinateInputError>
}

/// Reads points, one per line: CSV `lat,lon[,id]` (an optional header names the columns, and
/// `lon,lat` in a header is honoured) or NDJSON objects `{"lat": .., "lon": .., "id": ..}`
/// (`latitude`/`longitude`/`lng` are accepted too). Blank lines and lines starting with `#`
/// are skipped. Lines are numbered from 1 as in the input.
public struct BatchReader {
    private var longitudeFirst = false
    private var sawData = false

    /// The item for one line, or nil for a line that carries no point (blank, comment, header).
    public init() {}

    public mutating func item(line text: String, number: Int) -> BatchItem? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        if trimmed.hasPrefix("{") { return jsonItem(trimmed, number: number) }
        let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if !sawData, let header = headerOrder(fields) {
            longitudeFirst = header
            return nil
        }
        sawData = true
        guard fields.count == 2 || fields.count == 3 else {
            return BatchItem(line: number, id: nil, result: .failure(.init(.fieldCount(fields.count), line: number)))
        }
        let (lat, lon) = longitudeFirst ? (fields[1], fields[0]) : (fields[0], fields[1])
        let id = fields.count == 3 ? fields[2] : nil
        do {
            return BatchItem(
                line: number, id: id, result: .success(try CoordinateInput.point(latitude: lat, longitude: lon)))
        } catch {
            return BatchItem(line: number, id: id, result: .failure(error.onLine(number)))
        }
    }

    /// For a header line, whether longitude comes first; nil if the line is data.
    private func headerOrder(_ fields: [String]) -> Bool? {
        guard fields.count >= 2, Double(fields[0]) == nil, Double(fields[1]) == nil else { return nil }
        let names = fields.map { $0.lowercased() }
        let latitude = ["lat", "latitude", "latitud"], longitude = ["lon", "lng", "long", "longitude", "longitud"]
        if latitude.contains(names[0]) && longitude.contains(names[1]) { return false }
        if longitude.contains(names[0]) && latitude.contains(names[1]) { return true }
        return nil
    }

    /// A JSON number as JSONSerialization gives it, or nil for anything else. A JSON boolean is
    /// an NSNumber too, of its own class; `is Bool` cannot tell them apart, as on Linux the
    /// numbers 0 and 1 cast to Bool as well (`{"lat": 0, "lon": 0}` was refused that way).
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, type(of: number) != booleanClass else { return nil }
        return number.doubleValue
    }
    private static let booleanClass = type(of: NSNumber(value: true))

    private func jsonItem(_ text: String, number: Int) -> BatchItem {
        func fail(_ reason: CoordinateInputError.Reason) -> BatchItem {
            BatchItem(line: number, id: nil, result: .failure(.init(reason, line: number)))
        }
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return fail(.notAJSONObject) }
        func value(_ keys: [String]) -> Any? { keys.lazy.compactMap { object[$0] }.first }
        let id: String? = (value(["id"]) as? String) ?? (value(["id"]) as? NSNumber).map { "\($0)" }
        guard let lat = value(["lat", "latitude"]) else { return fail(.missingField("lat")) }
        guard let lon = value(["lon", "lng", "longitude"]) else { return fail(.missingField("lon")) }
        guard let latitude = Self.number(lat), let longitude = Self.number(lon) else {
            return fail(.fieldsNotNumbers)
        }
        do {
            let p = try Point(latitude: latitude, longitude: longitude).validatedGeographic()
            return BatchItem(line: number, id: id, result: .success(p))
        } catch {
            return BatchItem(
                line: number, id: id, result: .failure(.init(.outOfRange(error, likelySwapped: false), line: number)))
        }
    }
}
