import Foundation

/// Trip lengths totalled by calendar month, the input of ``MaintenanceForecast``.
///
/// A trip counts in the month of its start, in the given time zone (a trip across midnight on
/// the last day of a month counts whole in the month it began). Trips with no time are totalled
/// apart, as ``undatedMetres``.
public struct MonthlyDistance: Hashable, Sendable {
    /// A calendar month.
    public struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
        public var year: Int
        /// 1 = January.
        public var month: Int

        public init(year: Int, month: Int) {
            self.year = year
            self.month = month
        }

        public static func < (a: Month, b: Month) -> Bool { (a.year, a.month) < (b.year, b.month) }

        /// `2026-03`.
        public var description: String { "\(year)-" + (month < 10 ? "0\(month)" : "\(month)") }
    }

    /// Metres driven in each month that has trips.
    public var metres: [Month: Double]
    /// Metres of trips with no start time.
    public var undatedMetres: Double

    public init(_ reports: [TripReport], timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var metres: [Month: Double] = [:]
        var undated = 0.0
        for report in reports {
            guard let start = report.start else {
                undated += report.lengthMetres
                continue
            }
            let c = calendar.dateComponents([.year, .month], from: start)
            metres[Month(year: c.year ?? 0, month: c.month ?? 0), default: 0] += report.lengthMetres
        }
        self.metres = metres
        undatedMetres = undated
    }

    /// The mean over the months from the first to the last month with trips, months without
    /// trips counting as 0 km; nil without dated trips. In kilometres, for ``MaintenanceForecast``.
    public var meanMonthlyKilometres: Double? {
        guard let first = metres.keys.min(), let last = metres.keys.max() else { return nil }
        let span = (last.year - first.year) * 12 + (last.month - first.month) + 1
        return metres.values.reduce(0, +) / 1000 / Double(span)
    }
}
