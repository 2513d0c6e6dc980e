import GeoqCore

/// Parsing and checking of latitude/longitude written as text, shared by the XML feed readers
/// (``GeoRSSPointReader``, ``ServicesXMLReader``). Positions are WGS84 degrees, latitude first as
/// GeoRSS and people write them.
enum GeographicPosition {
    /// A decimal number, or nil. With `decimalComma`, a single comma and no dot is read as the
    /// decimal separator ("39,4699" is 39.4699), as Spanish sources write it. Not finite -> nil.
    static func decimal(_ text: String, decimalComma: Bool = false) -> Double? {
        var s = text.trimmingWhitespace()
        if decimalComma, !s.contains("."), s.filter({ $0 == "," }).count == 1 {
            s = String(s.map { $0 == "," ? "." : $0 })
        }
        guard !s.isEmpty, let value = Double(s), value.isFinite else { return nil }
        return value
    }

    /// Why `latitude`, `longitude` is not a position, or nil when it is: latitude must be in
    /// [-90, 90] and longitude in [-180, 180]. When only the exchanged numbers are in range, the
    /// message says that the order looks swapped (`order` names the expected order).
    static func problem(latitude: Double, longitude: Double, order: String) -> String? {
        let latitudeOK = (-90...90).contains(latitude)
        let longitudeOK = (-180...180).contains(longitude)
        if latitudeOK && longitudeOK { return nil }
        var problems: [String] = []
        if !latitudeOK { problems.append("latitude \(format(latitude)) is outside [-90, 90]") }
        if !longitudeOK { problems.append("longitude \(format(longitude)) is outside [-180, 180]") }
        var message = problems.joined(separator: " and ")
        if (-90...90).contains(longitude) && (-180...180).contains(latitude) {
            message +=
                "; the order looks swapped: \(order), so it should read latitude \(format(longitude)), "
                + "longitude \(format(latitude))"
        }
        return message
    }

    /// `39.47` for 39.47, `120` for 120.0.
    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
