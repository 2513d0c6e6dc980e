import Foundation
import GeoqSchedule
import GeoqTariffs
import Testing

/// Why a ticket's paid time stops: the free days and hours between its start and its end, as
/// SPEC §1 and the holiday layers (data/holidays) give them.
@Suite struct TicketPauseTests {
    let tariffs = Pamplona.tariffs

    func quote(_ minutes: Int, start: String) throws -> TicketQuote {
        try TicketQuote.compute(.minutes(minutes), zone: "blue", in: tariffs, start: Pamplona.at(start))
    }

    static let sanSaturnino = LocalizedText(
        es: "San Saturnino (trasladado al lunes)", eu: "San Saturnino (astelehenera aldatua)",
        en: "Saint Saturninus' Day (moved to Monday)")
    static let sanFerminWeeks = TicketPause.Reason.exemption(
        rule: "Jul 06-Jul 25 off",
        name: LocalizedText(
            es: "San Fermín (del 6 al 25 de julio)", eu: "San Fermin (uztailaren 6tik 25era)",
            en: "San Fermín (6 to 25 July)"))

    /// Saturday 28 November 2026 13:30 + 45 min: 30 min to 14:00, Sunday 29 free, Monday 30
    /// San Saturnino (Pamplona's holiday, moved from the Sunday), Tuesday 08:30 + 15 min.
    @Test func saturdayOverSundayAndSanSaturnino() throws {
        let q = try quote(45, start: "2026-11-28T13:30")
        #expect(Pamplona.iso(q.end) == "2026-12-01T08:45:00+01:00")
        #expect(q.pauses.count == 1)
        let pause = try #require(q.pauses.first)
        #expect(Pamplona.iso(pause.from) == "2026-11-28T14:00:00+01:00")
        #expect(Pamplona.iso(pause.until) == "2026-12-01T08:30:00+01:00")
        #expect(pause.outsideHours)
        #expect(pause.days.map(\.date.description) == ["2026-11-29", "2026-11-30"])
        #expect(
            pause.days.map(\.reasons) == [
                [.noHours(.sunday)], [.holiday(name: Self.sanSaturnino, layer: "es-nc-pamplona")],
            ])
        let clock = tariffs.clock
        #expect(
            Messages.pause(pause, clock: clock, .es)
                == "El tique no corre del sábado 28/11/2026 14:00 al martes 01/12/2026 08:30: domingo 29/11/2026, los domingos no hay horario regulado; lunes 30/11/2026, festivo: San Saturnino (trasladado al lunes); el resto, fuera del horario regulado."
        )
        #expect(
            Messages.pause(pause, clock: clock, .eu)
                == "Txartela ez da zenbatzen larunbata 2026/11/28 14:00etatik asteartea 2026/12/01 08:30etara: igandea 2026/11/29, igandeetan ez dago ordutegi arauturik; astelehena 2026/11/30, jaieguna: San Saturnino (astelehenera aldatua); gainerakoa, ordutegi arautuaz kanpo."
        )
        #expect(
            Messages.pause(pause, clock: clock, .en)
                == "The ticket does not run from Saturday 28/11/2026 14:00 to Tuesday 01/12/2026 08:30: Sunday 29/11/2026, no regulated hours on Sundays; Monday 30/11/2026, public holiday: Saint Saturninus' Day (moved to Monday); the rest, outside regulated hours."
        )
    }

    /// Monday 23 November 2026 13:50 + 30 min: 10 min, the 14:00–16:00 break, 20 min.
    @Test func weekdayLunchBreak() throws {
        let q = try quote(30, start: "2026-11-23T13:50")
        #expect(Pamplona.iso(q.end) == "2026-11-23T16:20:00+01:00")
        let pause = try #require(q.pauses.first)
        #expect(q.pauses.count == 1)
        #expect(Pamplona.iso(pause.from) == "2026-11-23T14:00:00+01:00")
        #expect(Pamplona.iso(pause.until) == "2026-11-23T16:00:00+01:00")
        #expect(pause.days.isEmpty && pause.outsideHours)
        #expect(
            Messages.pause(pause, clock: tariffs.clock, .es)
                == "El tique no corre el lunes 23/11/2026 de 14:00 a 16:00: fuera del horario regulado.")
        #expect(
            Messages.pause(pause, clock: tariffs.clock, .en)
                == "The ticket does not run on Monday 23/11/2026 from 14:00 to 16:00: outside regulated hours.")
    }

    @Test func aTicketWithinRegulatedHoursNeverPauses() throws {
        #expect(try quote(55, start: "2026-11-23T10:00").pauses.isEmpty)
        // Ending exactly at the break: nothing is skipped.
        #expect(try quote(10, start: "2026-11-23T13:50").pauses.isEmpty)
    }

    /// Saturday 4 July 2026 13:30 + 45 min: Sunday 5, the San Fermín weeks (6–25 July, with
    /// San Fermín's own holiday on the 7th and two Sundays inside), Sunday 26, then Monday 27
    /// 08:30 + 15 min (25 July is a Navarra holiday only in 2024 and 2025).
    @Test func acrossSanFermin() throws {
        let q = try quote(45, start: "2026-07-04T13:30")
        #expect(Pamplona.iso(q.end) == "2026-07-27T08:45:00+02:00")
        let pause = try #require(q.pauses.first)
        #expect(q.pauses.count == 1)
        #expect(pause.days.map(\.date.day) == Array(5...26))
        let july = { (day: Int) in CivilDate(year: 2026, month: 7, day: day)! }
        let sanFermin = LocalizedText(es: "San Fermín", eu: "San Fermin", en: "Saint Fermin's Day")
        for day in pause.days {
            let expected: [TicketPause.Reason] =
                switch day.date.day {
                case 5, 26: [.noHours(.sunday)]
                case 7: [.holiday(name: sanFermin, layer: "es-nc-pamplona"), Self.sanFerminWeeks]
                case 12, 19: [.noHours(.sunday), Self.sanFerminWeeks]
                default: [Self.sanFerminWeeks]
                }
            #expect(day.reasons == expected, "\(day.date)")
        }
        #expect(pause.days.first?.date == july(5))
        #expect(
            Messages.pause(pause, clock: tariffs.clock, .es)
                == "El tique no corre del sábado 04/07/2026 14:00 al lunes 27/07/2026 08:30: domingo 05/07/2026, los domingos no hay horario regulado; del lunes 06/07/2026 al sábado 25/07/2026, exento por la tarifa: San Fermín (del 6 al 25 de julio); domingo 26/07/2026, los domingos no hay horario regulado; el resto, fuera del horario regulado."
        )
        #expect(
            Messages.pause(pause, clock: tariffs.clock, .eu)
                == "Txartela ez da zenbatzen larunbata 2026/07/04 14:00etatik astelehena 2026/07/27 08:30etara: igandea 2026/07/05, igandeetan ez dago ordutegi arauturik; astelehena 2026/07/06 – larunbata 2026/07/25, tarifak salbuetsia: San Fermin (uztailaren 6tik 25era); igandea 2026/07/26, igandeetan ez dago ordutegi arauturik; gainerakoa, ordutegi arautuaz kanpo."
        )
    }

    /// Wednesday 1 April 2026 19:30 + 45 min over Holy Week (Easter Sunday 5 April): Maundy
    /// Thursday (Navarra), Good Friday (Spain), Holy Saturday (the tariff), Sunday, Easter
    /// Monday (Navarra), then Tuesday 08:30 + 15 min.
    @Test func holyWeekNamesEveryKindOfDay() throws {
        let q = try quote(45, start: "2026-04-01T19:30")
        #expect(Pamplona.iso(q.end) == "2026-04-07T08:45:00+02:00")
        let pause = try #require(q.pauses.first)
        #expect(
            pause.days.map(\.reasons) == [
                [
                    .holiday(
                        name: LocalizedText(es: "Jueves Santo", eu: "Ostegun Santua", en: "Maundy Thursday"),
                        layer: "es-nc")
                ],
                [
                    .holiday(
                        name: LocalizedText(es: "Viernes Santo", eu: "Ostiral Santua", en: "Good Friday"), layer: "es")
                ],
                [
                    .exemption(
                        rule: "easter -1 day off",
                        name: LocalizedText(es: "Sábado Santo", eu: "Larunbat Santua", en: "Holy Saturday"))
                ],
                [.noHours(.sunday)],
                [
                    .holiday(
                        name: LocalizedText(es: "Lunes de Pascua", eu: "Pazko astelehena", en: "Easter Monday"),
                        layer: "es-nc")
                ],
            ])
        #expect(
            Messages.pause(pause, clock: tariffs.clock, .en)
                == "The ticket does not run from Wednesday 01/04/2026 20:00 to Tuesday 07/04/2026 08:30: Thursday 02/04/2026, public holiday: Maundy Thursday; Friday 03/04/2026, public holiday: Good Friday; Saturday 04/04/2026, exempt by the tariff: Holy Saturday; Sunday 05/04/2026, no regulated hours on Sundays; Monday 06/04/2026, public holiday: Easter Monday; the rest, outside regulated hours."
        )
    }

    /// Bought on a Sunday: the time before the first regulated minute is a pause too.
    @Test func aStartOutsideRegulatedHoursIsExplained() throws {
        let q = try quote(30, start: "2026-11-29T12:00")
        let pause = try #require(q.pauses.first)
        #expect(Pamplona.iso(pause.from) == "2026-11-29T12:00:00+01:00")
        #expect(Pamplona.iso(pause.until) == "2026-12-01T08:30:00+01:00")
        // The Sunday it was bought on is named too (from noon it is still free because it is
        // Sunday), then Monday 30, San Saturnino; Tuesday 00:00-08:30 is outside hours.
        #expect(pause.days.map(\.date.day) == [29, 30])
        #expect(pause.days.map { $0.reasons.count } == [1, 1])
        #expect(pause.outsideHours)
    }
}
