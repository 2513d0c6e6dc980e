/// A public-holiday calendar made of layers (Spain, then Navarra, then Pamplona): a day is a
/// public holiday when any layer names it.
public struct HolidayCalendar: Hashable, Sendable {
    public struct Holiday: Hashable, Sendable {
        public var date: CivilDate
        public var name: LocalizedText
        /// The layer that names it (`es`, `es-nc`, `es-nc-pamplona`).
        public var layer: String
    }

    public let layers: [HolidayLayer]

    public init(layers: [HolidayLayer]) {
        precondition(!layers.isEmpty, "a calendar needs at least one layer")
        self.layers = layers
    }

    /// The years every layer covers.
    public var covers: ClosedRange<Int> {
        let low = layers.map(\.covers.lowerBound).max()!
        let high = layers.map(\.covers.upperBound).min()!
        return low...max(low, high)
    }

    /// True when some layer's official calendar for `year` is not yet reproduced: the answer
    /// follows the recurring rules and may change when the year's calendar is published.
    public func isProvisional(_ year: Int) -> Bool { layers.contains { year > $0.publishedThrough } }

    /// The holidays on `date`, in layer order.
    public func holidays(on date: CivilDate) throws(ScheduleError) -> [Holiday] {
        guard covers.contains(date.year) else { throw .yearNotCovered(year: date.year, covered: covers) }
        return layers.flatMap { layer in
            layer.names(on: date).map { Holiday(date: date, name: $0, layer: layer.id) }
        }
    }

    public func isHoliday(_ date: CivilDate) throws(ScheduleError) -> Bool { try !holidays(on: date).isEmpty }

    /// Every holiday of `year`, by date then layer.
    public func holidays(in year: Int) throws(ScheduleError) -> [Holiday] {
        guard let first = CivilDate(year: year, month: 1, day: 1) else { return [] }
        var all: [Holiday] = []
        let days = CivilDate.isLeap(year) ? 366 : 365
        for offset in 0..<days { all += try holidays(on: first.adding(days: offset)) }
        return all
    }
}
