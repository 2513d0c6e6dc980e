import Foundation
import GeoqSchedule
import Testing

@Suite struct HolidayCalendarTests {
    /// The layered calendar against the PyPI `holidays` package (Spain, subdivision NC) for the
    /// years whose official calendars are published. Sundays are left out: the package drops a
    /// holiday that falls on a Sunday, and Sundays are free anyway. Pamplona's local days are not
    /// in the package and are checked separately.
    @Test(.enabled(if: PythonOracle.available, PythonOracle.missing), arguments: [2024, 2025, 2026])
    func spainAndNavarraMatchThePublishedCalendar(year: Int) throws {
        let lines = try PythonOracle.run(
            """
            import holidays
            for d in sorted(holidays.country_holidays('ES', subdiv='NC', years=\(year))): print(d.isoformat())
            """)
        let expected = Set(lines.compactMap { CivilDate(iso: $0) }.filter { $0.weekday != .sunday })
        let regional = HolidayCalendar(layers: Array(Pamplona.calendar.layers.prefix(2)))
        let ours = Set(try regional.holidays(in: year).map(\.date).filter { $0.weekday != .sunday })
        #expect(
            ours == expected, "only ours: \(ours.subtracting(expected)), only oracle: \(expected.subtracting(ours))")
        #expect(expected.count >= 11)
    }

    /// Movable days from Easter (Gregorian computus) in every covered year.
    @Test(arguments: 2024...2030)
    func movableDays(year: Int) throws {
        let easter = Easter.sunday(of: year)
        let names = { (offset: Int) in try Pamplona.calendar.holidays(on: easter.adding(days: offset)).map(\.name.es) }
        #expect(try names(-3) == ["Jueves Santo"])
        #expect(try names(-2) == ["Viernes Santo"])
        #expect(try names(-1) == [])  // Holy Saturday is not a public holiday; the tariff frees it.
        #expect(try names(1) == ["Lunes de Pascua"])
    }

    @Test func pamplonaLocalDays() throws {
        let cal = Pamplona.calendar
        #expect(try cal.holidays(on: date("2025-11-29")).map(\.layer) == ["es-nc-pamplona"])  // a Saturday
        #expect(try cal.holidays(on: date("2026-11-29")).isEmpty)  // Sunday: moved to Monday
        #expect(try cal.holidays(on: date("2026-11-30")).map(\.name.en) == ["Saint Saturninus' Day (moved to Monday)"])
        #expect(try cal.holidays(on: date("2027-11-29")).map(\.name.es) == ["San Saturnino"])
        #expect(try cal.holidays(on: date("2026-07-07")).map(\.name.es) == ["San Fermín"])
        #expect(try cal.holidays(on: date("2026-12-03")).map(\.layer) == ["es-nc"])
        #expect(try cal.holidays(on: date("2026-12-08")).map(\.layer) == ["es"])
        #expect(try cal.holidays(on: date("2026-11-23")).isEmpty)
    }

    @Test func coverageAndProvisionalYears() throws {
        let cal = Pamplona.calendar
        #expect(cal.covers == 2024...2030)
        #expect(!cal.isProvisional(2026))
        #expect(cal.isProvisional(2027))
        #expect(throws: ScheduleError.yearNotCovered(year: 2031, covered: 2024...2030)) {
            try cal.holidays(on: date("2031-01-01"))
        }
    }

    @Test func malformedLayerFilesNameTheField() {
        let bothKinds = Data(
            #"{"id":"x","title":"t","source":"s","covers":[2024,2030],"published_through":2026,"rules":[{"date":"01-01","easter":1,"name":{"es":"a","eu":"b","en":"c"}}]}"#
                .utf8)
        #expect(
            throws: ScheduleError.calendarMalformed(
                file: "x.json", path: "rules[0]",
                message: "give exactly one of 'date' (MM-DD) or 'easter' (days from Easter Sunday)")
        ) {
            try HolidayLayer.decode(bothKinds, file: "x.json")
        }
        let badDate = Data(
            #"{"id":"x","title":"t","source":"s","covers":[2024,2030],"published_through":2026,"rules":[{"date":"02-30","name":{"es":"a","eu":"b","en":"c"}}]}"#
                .utf8)
        #expect(
            throws: ScheduleError.calendarMalformed(
                file: "x.json", path: "rules[0].date", message: "expected MM-DD, found '02-30'")
        ) {
            try HolidayLayer.decode(badDate, file: "x.json")
        }
        let missingName = Data(
            #"{"id":"x","title":"t","source":"s","covers":[2024,2030],"published_through":2026,"rules":[{"date":"01-01","name":{"es":"a","en":"c"}}]}"#
                .utf8)
        #expect(
            throws: ScheduleError.calendarMalformed(
                file: "x.json", path: "rules[0].name.eu", message: "required field is missing")
        ) {
            try HolidayLayer.decode(missingName, file: "x.json")
        }
    }
}
