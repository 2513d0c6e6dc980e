import GeoqSchedule
import Testing

/// Table-driven, in the style of opening_hours.js's tests: expression, instant, expected state
/// and next change.
@Suite struct OpeningHoursTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var expression: String
        var at: String
        var open: Bool
        /// nil: no change within the search horizon.
        var next: String?
        var testDescription: String { "\(expression) @ \(at)" }
    }

    static let pamplona = Pamplona.regulatedHours

    static let cases: [Case] = [
        // Pamplona (SPEC §1) on an ordinary week.
        Case(expression: pamplona, at: "2026-11-23 10:00", open: true, next: "2026-11-23 14:00"),
        Case(expression: pamplona, at: "2026-11-23 13:59", open: true, next: "2026-11-23 14:00"),
        Case(expression: pamplona, at: "2026-11-23 14:00", open: false, next: "2026-11-23 16:00"),
        Case(expression: pamplona, at: "2026-11-23 08:29", open: false, next: "2026-11-23 08:30"),
        Case(expression: pamplona, at: "2026-11-23 20:00", open: false, next: "2026-11-24 08:30"),
        Case(expression: pamplona, at: "2026-11-28 13:00", open: true, next: "2026-11-28 14:00"),
        // Saturday afternoon → Sunday → Monday 30 November (San Saturnino moved) → Tuesday.
        Case(expression: pamplona, at: "2026-11-28 14:30", open: false, next: "2026-12-01 08:30"),
        Case(expression: pamplona, at: "2026-11-22 12:00", open: false, next: "2026-11-23 08:30"),
        // 3 December (Navarra), 8 December (Spain).
        Case(expression: pamplona, at: "2026-12-03 10:00", open: false, next: "2026-12-04 08:30"),
        Case(expression: pamplona, at: "2026-12-08 10:00", open: false, next: "2026-12-09 08:30"),
        // Holy week 2026: Thursday, Friday, Holy Saturday (tariff exemption), Sunday, Easter Monday.
        Case(expression: pamplona, at: "2026-04-01 19:00", open: true, next: "2026-04-01 20:00"),
        Case(expression: pamplona, at: "2026-04-04 10:00", open: false, next: "2026-04-07 08:30"),
        Case(expression: pamplona, at: "2027-03-27 10:00", open: false, next: "2027-03-30 08:30"),
        // San Fermín: 6–25 July free, 26 July paid.
        Case(expression: pamplona, at: "2026-07-06 10:00", open: false, next: "2026-07-27 08:30"),
        Case(expression: pamplona, at: "2025-07-25 10:00", open: false, next: "2025-07-26 08:30"),
        Case(expression: pamplona, at: "2025-07-26 10:00", open: true, next: "2025-07-26 14:00"),
        Case(expression: pamplona, at: "2024-07-26 17:00", open: true, next: "2024-07-26 20:00"),
        Case(expression: pamplona, at: "2024-07-05 19:59", open: true, next: "2024-07-05 20:00"),
        // Saturday San Saturnino 2025.
        Case(expression: pamplona, at: "2025-11-29 10:00", open: false, next: "2025-12-01 08:30"),
        // The clock-change weekends (the wall clock does not care).
        Case(expression: pamplona, at: "2026-03-28 13:30", open: true, next: "2026-03-28 14:00"),
        Case(expression: pamplona, at: "2026-03-29 12:00", open: false, next: "2026-03-30 08:30"),
        Case(expression: pamplona, at: "2026-10-25 12:00", open: false, next: "2026-10-26 08:30"),

        // General opening_hours.
        Case(expression: "24/7", at: "2026-11-23 03:00", open: true, next: nil),
        Case(expression: "Mo-Fr 08:00-12:00", at: "2026-11-28 09:00", open: false, next: "2026-11-30 08:00"),
        Case(expression: "Fr-Mo 10:00-11:00", at: "2026-11-22 10:30", open: true, next: "2026-11-22 11:00"),
        Case(expression: "Fr-Mo 10:00-11:00", at: "2026-11-24 10:30", open: false, next: "2026-11-27 10:00"),
        Case(expression: "Mo,We 10:00-11:00", at: "2026-11-24 10:30", open: false, next: "2026-11-25 10:00"),
        // Open across midnight: the next change is the closing on Tuesday, not midnight.
        Case(
            expression: "Mo 20:00-24:00; Tu 00:00-02:00", at: "2026-11-23 21:00", open: true, next: "2026-11-24 02:00"),
        Case(expression: "Mo 20:00-24:00", at: "2026-11-23 21:00", open: true, next: "2026-11-24 00:00"),
        // Later rules override earlier ones for the days they match.
        Case(
            expression: "10:00-12:00; Dec 24-Jan 06 off", at: "2026-12-31 11:00", open: false, next: "2027-01-07 10:00"),
        Case(
            expression: "Dec 24-Jan 06 off; 10:00-12:00", at: "2026-12-31 11:00", open: true, next: "2026-12-31 12:00"),
        Case(
            expression: "Mo-Sa 09:00-13:00; Jul 06-25 off", at: "2026-07-25 09:30", open: false,
            next: "2026-07-27 09:00"),
        Case(expression: "Mo-Sa 09:00-13:00; Aug off", at: "2026-08-31 09:30", open: false, next: "2026-09-01 09:00"),
        Case(expression: "Su 10:00-12:00; easter off", at: "2026-04-05 10:30", open: false, next: "2026-04-12 10:00"),
        Case(
            expression: "Su 10:00-12:00; easter +7 days off", at: "2026-04-12 10:30", open: false,
            next: "2026-04-19 10:00"),
        Case(expression: "PH 10:00-12:00", at: "2026-12-08 10:30", open: true, next: "2026-12-08 12:00"),
        Case(expression: "Mo-Fr,PH 10:00-12:00", at: "2026-11-30 09:00", open: false, next: "2026-11-30 10:00"),
        Case(expression: "Mo-Fr 08:00-09:00 closed", at: "2026-11-23 08:30", open: false, next: nil),
        Case(expression: "Mo-Fr", at: "2026-11-23 23:59", open: true, next: "2026-11-28 00:00"),
    ]

    @Test(arguments: cases)
    func stateAndNextChange(_ c: Case) throws {
        let schedule = Schedule(hours: try OpeningHours(c.expression), calendar: Pamplona.calendar)
        let at = local(c.at)
        #expect(try schedule.isOpen(at: at) == c.open)
        #expect(try schedule.nextChange(after: at) == c.next.map(local))
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var expression: String
        /// The offending character's offset (0-based).
        var offset: Int
        var message: String
        var testDescription: String { expression }
    }

    static let bad: [Bad] = [
        Bad(expression: "Mo-Fr 08:30-14:00; Sa 8:30-14:00", offset: 22, message: "expected a time HH:MM"),
        Bad(
            expression: "Mo-Fr 08:30-14:00 || Sa 10:00-12:00", offset: 18,
            message: "fallback rules ('||') are not supported"),
        Bad(expression: "Mo-Xx 10:00-12:00", offset: 3, message: "expected a weekday (Mo Tu We Th Fr Sa Su) after '-'"),
        Bad(expression: "Mo-Fr 25:00-26:00", offset: 6, message: "25:00 is not a time of day"),
        Bad(
            expression: "Mo-Fr 14:00-08:30", offset: 12,
            message: "the end time must be after the start (times past midnight are not supported)"),
        Bad(expression: "SH off", offset: 0, message: "school holidays ('SH') are not supported"),
        Bad(expression: "Jul 32 off", offset: 4, message: "day 32 does not exist in Jul"),
        Bad(expression: "", offset: 0, message: "the expression is empty"),
        Bad(expression: "Mo-Fr 08:00-12:00;", offset: 18, message: "a rule is missing after ';'"),
        Bad(expression: "Mo-Fr 08:00-12:00 open please", offset: 23, message: "unexpected 'p'"),
        Bad(
            expression: "Mo-Fr 08:00-12:00; sunrise-sunset", offset: 19,
            message: "expected a weekday, 'PH', a time, or 'off' here, found 'sunrise'"),
        Bad(expression: "easter -1 off", offset: 10, message: "expected 'day' or 'days'"),
        Bad(expression: "Mo[1] 10:00-12:00", offset: 2, message: "nth-weekday selectors ('[1]') are not supported"),
        Bad(
            expression: "10:00-12:00,11:00-13:00", offset: 12,
            message: "time ranges must be in order and must not overlap"),
    ]

    @Test(arguments: bad)
    func errorsPointAtTheOffendingCharacter(_ b: Bad) {
        #expect(throws: ScheduleError.openingHours(expression: b.expression, offset: b.offset, message: b.message)) {
            try OpeningHours(b.expression)
        }
    }

    @Test func errorMessageShowsACaret() {
        do {
            _ = try OpeningHours("Mo-Fr 25:00-26:00")
            Issue.record("accepted a bad time")
        } catch {
            #expect(
                error.description
                    == "opening_hours: 25:00 is not a time of day at character 7\n  Mo-Fr 25:00-26:00\n        ^")
        }
    }
}
