import Foundation

/// Dates as the traffic app shows them: `dd/mm/yyyy hh:mm:ss` in the city's time zone.
public enum IncidentDates {
    public static func display(_ date: Date, timeZone: String = "Europe/Madrid") -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(c.day))/\(two(c.month))/\(c.year ?? 0) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }
}
