import Synchronization

/// The open minute ranges of each day a ``Schedule`` has been asked about: a day's ranges
/// depend only on the schedule's rules and holiday calendar, which never change, so they are
/// worked out once. Answers walk many days (the next change, where a ticket's minutes run out,
/// its pauses) and the same days again for the next request.
///
/// Bounded: when it holds ``capacity`` days it starts again empty. Shared by every thread that
/// reads the schedule, under a lock held only to look up or insert.
final class OpenRangesByDay: Sendable {
    let capacity: Int
    private let days = Mutex<[Int: [Range<Int>]]>([:])

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The ranges kept for `date`, else `compute`'s, kept. A day `compute` refuses (a year the
    /// calendar does not cover) is not kept.
    func ranges(
        on date: CivilDate, compute: () throws(ScheduleError) -> [Range<Int>]
    ) throws(ScheduleError) -> [Range<Int>] {
        if let kept = days.withLock({ $0[date.dayNumber] }) { return kept }
        let ranges = try compute()
        days.withLock { days in
            if days.count >= capacity { days.removeAll(keepingCapacity: true) }
            days[date.dayNumber] = ranges
        }
        return ranges
    }

    /// How many days are kept now.
    var count: Int { days.withLock { $0.count } }
}
