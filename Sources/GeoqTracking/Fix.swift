import Foundation
import GeoqSchedule

/// One position report of one device: who, when, where (WGS84 degrees, latitude first in the
/// names), how sure (accuracy, metres) and how fast (m/s), as a phone reports it.
///
/// JSON: `{"device","time","lat","lon","accuracy"?,"speed"?}` with `time` in ISO 8601 with an
/// offset (`2026-03-02T09:00:00Z`, `…09:00:00.5+01:00`). Decoding validates ranges; for a batch
/// in which each bad fix gets its own error, use ``FixReader``.
public struct Fix: Codable, Hashable, Sendable {
    public var device: String
    public var time: Date
    /// Degrees north, in [-90, 90].
    public var latitude: Double
    /// Degrees east, in [-180, 180].
    public var longitude: Double
    /// Horizontal accuracy in metres (radius of the uncertainty circle), ≥ 0, if known.
    public var accuracy: Double?
    /// Speed over ground in m/s, ≥ 0, if the device measured it.
    public var speed: Double?

    public init(
        device: String, time: Date, latitude: Double, longitude: Double, accuracy: Double? = nil, speed: Double? = nil
    ) {
        self.device = device
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.speed = speed
    }

    enum CodingKeys: String, CodingKey {
        case device, time
        case latitude = "lat"
        case longitude = "lon"
        case accuracy, speed
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .time)
        guard let time = InternetTime.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .time, in: c, debugDescription: "'\(text)' is not an ISO 8601 time with an offset")
        }
        self.init(
            device: try c.decode(String.self, forKey: .device), time: time,
            latitude: try c.decode(Double.self, forKey: .latitude),
            longitude: try c.decode(Double.self, forKey: .longitude),
            accuracy: try c.decodeIfPresent(Double.self, forKey: .accuracy),
            speed: try c.decodeIfPresent(Double.self, forKey: .speed))
        if let problem = FixReader.problem(in: self) {
            throw DecodingError.dataCorruptedError(forKey: problem.key, in: c, debugDescription: problem.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(device, forKey: .device)
        try c.encode(FixTime.utc(time), forKey: .time)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encodeIfPresent(accuracy, forKey: .accuracy)
        try c.encodeIfPresent(speed, forKey: .speed)
    }
}

/// ISO 8601 times of fixes and events, without shared formatters (they are not Sendable).
enum FixTime {
    static func utc(_ time: Date) -> String { format(time, in: nil) }

    /// `2026-03-02T10:00:05+01:00` in `zone`, `…Z` for UTC (nil); milliseconds only when not whole.
    static func format(_ time: Date, in zone: TimeZone?) -> String {
        let offset = zone?.secondsFromGMT(for: time) ?? 0
        let shifted = time.timeIntervalSince1970 + Double(offset)
        let whole = shifted.rounded(.down)
        let millis = Int(((shifted - whole) * 1000).rounded())
        var seconds = Int(whole)
        var ms = millis
        if ms == 1000 {
            seconds += 1
            ms = 0
        }
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        let date = CivilDate(dayNumber: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(date.year)-\(two(date.month))-\(two(date.day))"
        text += "T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))"
        if ms != 0 { text += "." + String(String(ms + 1000).dropFirst()) }
        if zone == nil { return text + "Z" }
        let sign = offset < 0 ? "-" : "+"
        return text + "\(sign)\(two(abs(offset) / 3600)):\(two(abs(offset) % 3600 / 60))"
    }
}
