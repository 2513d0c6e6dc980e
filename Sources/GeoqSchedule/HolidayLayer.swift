/// One layer of a public-holiday calendar — a country, a region or a town — as data
/// (data/holidays/*.json).
///
/// A layer has recurring rules (a fixed month-day, or an offset from Easter Sunday), optionally
/// limited to some years or skipping some, and one-off days (a holiday moved to a Monday).
/// Years up to ``publishedThrough`` reproduce the official calendar; later years follow the
/// rules only and are *provisional* (the official list is published in the autumn before).
public struct HolidayLayer: Hashable, Sendable {
    public struct Rule: Hashable, Sendable {
        public enum When: Hashable, Sendable {
            /// Every year on this month and day.
            case monthDay(month: Int, day: Int)
            /// Easter Sunday plus this many days (−3 Maundy Thursday, +1 Easter Monday).
            case easter(offset: Int)
        }
        public var when: When
        public var name: LocalizedText
        /// Only these years, when given.
        public var onlyYears: Set<Int>?
        /// Not in these years (the day was moved or dropped).
        public var exceptYears: Set<Int>

        public func date(in year: Int) -> CivilDate? {
            if let onlyYears, !onlyYears.contains(year) { return nil }
            if exceptYears.contains(year) { return nil }
            switch when {
            case .monthDay(let month, let day): return CivilDate(year: year, month: month, day: day)
            case .easter(let offset): return Easter.sunday(of: year).adding(days: offset)
            }
        }
    }

    public var id: String
    public var title: String
    public var source: String
    /// The years this layer answers for.
    public var covers: ClosedRange<Int>
    /// The last year whose official calendar the layer reproduces.
    public var publishedThrough: Int
    public var rules: [Rule]
    /// Days that hold only once: `(date, name)`.
    public var oneOff: [CivilDate: LocalizedText]

    public init(
        id: String, title: String, source: String, covers: ClosedRange<Int>, publishedThrough: Int,
        rules: [Rule], oneOff: [CivilDate: LocalizedText]
    ) {
        self.id = id
        self.title = title
        self.source = source
        self.covers = covers
        self.publishedThrough = publishedThrough
        self.rules = rules
        self.oneOff = oneOff
    }

    /// The names of this layer's holidays on `date` (usually none or one).
    public func names(on date: CivilDate) -> [LocalizedText] {
        var names: [LocalizedText] = []
        for rule in rules where rule.date(in: date.year) == date { names.append(rule.name) }
        if let name = oneOff[date] { names.append(name) }
        return names
    }
}
