/// When the next service falls due (SPEC §4): services every 10,000 km, a larger one every
/// 20,000 km and the largest every 40,000 km, all counted from 0 on the odometer.
///
/// The next milestone is the first multiple of 10,000 km strictly above the odometer (a vehicle
/// exactly on a milestone is taken as just serviced). The services due there are those whose
/// interval divides it: 40,000 km brings all three. Months until it assume the given monthly
/// distance stays constant (e.g. the mean of recent months' trip lengths).
public struct MaintenanceForecast: Hashable, Sendable {
    /// Service intervals, in kilometres.
    public static let intervals: [Double] = [10_000, 20_000, 40_000]

    /// The odometer reading at the next milestone, in kilometres.
    public var milestoneKilometres: Double
    /// The intervals of the services due there (10,000 always; 20,000 and 40,000 when they divide it).
    public var servicesDue: [Double]
    /// Kilometres left to the milestone (> 0).
    public var kilometresToGo: Double
    /// Months until the milestone at the monthly distance; nil when the monthly distance is not
    /// positive (the vehicle does not move: no forecast).
    public var months: Double?
    /// ``months`` rounded up: the month (1 = this coming month) in which it falls due.
    public var wholeMonths: Int? { months.map { Int($0.rounded(.up)) } }

    /// Nil when the odometer is negative or either number is not finite.
    public init?(odometerKilometres: Double, monthlyKilometres: Double) {
        guard odometerKilometres.isFinite, monthlyKilometres.isFinite, odometerKilometres >= 0 else { return nil }
        let step = Self.intervals[0]
        let milestone = ((odometerKilometres / step).rounded(.down) + 1) * step
        milestoneKilometres = milestone
        servicesDue = Self.intervals.filter { milestone.truncatingRemainder(dividingBy: $0) == 0 }
        kilometresToGo = milestone - odometerKilometres
        months = monthlyKilometres > 0 ? kilometresToGo / monthlyKilometres : nil
    }
}
