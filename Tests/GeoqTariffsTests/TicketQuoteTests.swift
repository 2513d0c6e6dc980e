import Foundation
import GeoqSchedule
import GeoqTariffs
import Testing

@Suite struct TicketQuoteTests {
    let tariffs = Pamplona.tariffs

    func quote(
        _ request: TicketQuote.Request, zone: String = "blue", start: String, reminders: [Int] = []
    ) throws(TariffError) -> TicketQuote {
        try TicketQuote.compute(request, zone: zone, in: tariffs, start: Pamplona.at(start), remindersBefore: reminders)
    }

    @Test func spansTheLunchBreak() throws {
        let q = try quote(.minutes(30), start: "2026-11-23T13:50")
        #expect(q.amount.decimal == "0.60")
        #expect(q.minutes == 31)
        #expect(Pamplona.iso(q.end) == "2026-11-23T16:20:00+01:00")
        #expect(Pamplona.iso(q.validUntil) == "2026-11-23T16:21:00+01:00")
        #expect(q.freeUntil == nil)
    }

    @Test func saturdayToMonday() throws {
        let q = try quote(.minutes(60), start: "2026-11-21T13:30")
        #expect(Pamplona.iso(q.end) == "2026-11-23T09:00:00+01:00")
        // Unless Monday is a holiday: 30 November 2026 is San Saturnino (moved).
        let holiday = try quote(.minutes(60), start: "2026-11-28T13:30")
        #expect(Pamplona.iso(holiday.end) == "2026-12-01T09:00:00+01:00")
    }

    @Test func euros() throws {
        let q = try quote(.amount(Money(euros: "1.00")!), start: "2026-11-23T10:00")
        #expect(q.minutes == 55)
        #expect(Pamplona.iso(q.end) == "2026-11-23T10:55:00+01:00")
        #expect(q.end == q.validUntil)
        let orange = try quote(.amount(Money(euros: "4.35")!), zone: "orange", start: "2026-11-23T08:30")
        #expect(orange.minutes == 570)
        #expect(Pamplona.iso(orange.end) == "2026-11-23T20:00:00+01:00")
    }

    @Test func startOutsideRegulatedHoursIsFreeUntilTheNextRegulatedMinute() throws {
        let q = try quote(.minutes(30), start: "2026-11-22T12:00")  // Sunday
        #expect(Pamplona.iso(try #require(q.freeUntil)) == "2026-11-23T08:30:00+01:00")
        #expect(Pamplona.iso(q.end) == "2026-11-23T09:00:00+01:00")
        let holySaturday = try quote(.minutes(10), start: "2026-04-04T10:00")
        #expect(Pamplona.iso(try #require(holySaturday.freeUntil)) == "2026-04-07T08:30:00+02:00")
    }

    @Test func clockChangeWeekends() throws {
        #expect(Pamplona.iso(try quote(.minutes(60), start: "2026-03-28T13:30").end) == "2026-03-30T09:00:00+02:00")
        #expect(Pamplona.iso(try quote(.minutes(60), start: "2026-10-24T13:30").end) == "2026-10-26T09:00:00+01:00")
    }

    @Test func refusals() throws {
        let blueName = try tariffs.zone("blue").name
        #expect(
            throws: TariffError.beyondMaxStay(
                zone: "blue", name: blueName, maxMinutes: 120, maxPrice: Money(cents: 210))
        ) {
            try quote(.amount(Money(euros: "2.15")!), start: "2026-11-23T10:00")
        }
        #expect(
            throws: TariffError.beyondMaxStay(
                zone: "blue", name: blueName, maxMinutes: 120, maxPrice: Money(cents: 210))
        ) {
            try quote(.minutes(121), start: "2026-11-23T10:00")
        }
        #expect(
            throws: TariffError.beyondMaxStay(
                zone: "orange", name: try tariffs.zone("orange").name, maxMinutes: 570, maxPrice: Money(cents: 435))
        ) {
            try quote(.amount(Money(euros: "4.40")!), zone: "orange", start: "2026-11-23T10:00")
        }
        #expect(throws: TariffError.notMultipleOfCoin(amount: Money(cents: 212), coin: Money(cents: 5))) {
            try quote(.amount(Money(euros: "2.12")!), start: "2026-11-23T10:00")
        }
        #expect(
            throws: TariffError.belowMinimum(amount: Money(cents: 20), minimum: Money(cents: 25), minimumMinutes: 10)
        ) {
            try quote(.amount(Money(euros: "0.20")!), start: "2026-11-23T10:00")
        }
        #expect(throws: TariffError.notAPositiveDuration(0)) { try quote(.minutes(0), start: "2026-11-23T10:00") }
        #expect(throws: TariffError.noTicketsInZone(zone: "green", name: try tariffs.zone("green").name)) {
            try quote(.minutes(10), zone: "green", start: "2026-11-23T10:00")
        }
        #expect(throws: TariffError.unknownZone("purple", known: ["blue", "orange", "red", "green"])) {
            try quote(.minutes(10), zone: "purple", start: "2026-11-23T10:00")
        }
    }

    @Test func zonesByNameInEveryLanguage() throws {
        #expect(try tariffs.zone("azul").id == "blue")
        #expect(try tariffs.zone("urdina").id == "blue")
        #expect(try tariffs.zone("Naranja").id == "orange")
        #expect(try tariffs.zone("RED").id == "red")
    }

    @Test func reminders() throws {
        let q = try quote(.minutes(30), start: "2026-11-23T13:50", reminders: [5, 10, 15])
        #expect(
            q.reminders.map { Pamplona.iso($0.at) } == [
                "2026-11-23T16:15:00+01:00", "2026-11-23T16:10:00+01:00", "2026-11-23T16:05:00+01:00",
            ])
        // 13:50 + 10 min ends at 14:00: a reminder 15 min before would be 13:45, already past.
        #expect(
            throws: TariffError.reminderInPast(
                minutesBefore: 15, at: "2026-11-23T13:45:00+01:00", now: "2026-11-23T13:50:00+01:00")
        ) {
            try quote(.minutes(10), start: "2026-11-23T13:50", reminders: [5, 15])
        }
    }

    @Test func regulationStatus() throws {
        func status(_ at: String) throws -> RegulationStatus { try RegulationStatus.at(Pamplona.at(at), in: tariffs) }
        let now = try status("2026-11-23T10:00")
        #expect(now.regulated && Pamplona.iso(now.until!) == "2026-11-23T14:00:00+01:00")
        let holiday = try status("2026-12-03T10:00")
        #expect(!holiday.regulated)
        #expect(
            holiday.reason
                == .holiday(
                    LocalizedText(
                        es: "San Francisco Javier, Día de Navarra", eu: "Frantzisko Xabierkoa, Nafarroaren eguna",
                        en: "Saint Francis Xavier, Day of Navarra")))
        #expect(
            try status("2026-04-04T10:00").reason
                == .exemption(
                    rule: "easter -1 day off",
                    name: LocalizedText(es: "Sábado Santo", eu: "Larunbat Santua", en: "Holy Saturday")))
        let sanFermin = try status("2026-07-06T10:00")
        #expect(
            sanFermin.reason
                == .exemption(
                    rule: "Jul 06-Jul 25 off",
                    name: LocalizedText(
                        es: "San Fermín (del 6 al 25 de julio)", eu: "San Fermin (uztailaren 6tik 25era)",
                        en: "San Fermín (6 to 25 July)")))
        #expect(
            Messages.status(sanFermin, clock: tariffs.clock, .es)
                == "Gratis: día exento por la tarifa (San Fermín (del 6 al 25 de julio)); regulado de nuevo el lunes 27/07/2026 08:30."
        )
        #expect(try status("2026-11-22T10:00").reason == .noHoursToday(.sunday))
        #expect(try status("2026-11-23T15:00").reason == .outsideHours(today: [510..<840, 960..<1200]))
        #expect(try status("2027-03-01T10:00").provisionalCalendar)
    }

    @Test func messagesInThreeLanguages() throws {
        let q = try quote(.amount(Money(euros: "1.00")!), start: "2026-11-23T10:00", reminders: [10])
        let clock = tariffs.clock
        #expect(Messages.purchase(q, .es) == "Zona azul: 1,00 EUR → 55 min de aparcamiento regulado")
        #expect(Messages.purchase(q, .eu) == "Gune urdina: 1,00 EUR → 55 min aparkaleku arautuan")
        #expect(Messages.purchase(q, .en) == "Blue zone: 1.00 EUR → 55 min of regulated parking")
        #expect(Messages.ticketEnds(q, clock: clock, .es).hasPrefix("El tique termina el lunes 23/11/2026 10:55"))
        #expect(Messages.ticketEnds(q, clock: clock, .eu).hasPrefix("Txartela astelehena 2026/11/23 10:55"))
        let free = try RegulationStatus.at(Pamplona.at("2026-11-22T10:00"), in: tariffs)
        #expect(
            Messages.status(free, clock: clock, .es) == "Gratis: domingo; regulado de nuevo el lunes 23/11/2026 08:30.")
        #expect(Messages.status(free, clock: clock, .en) == "Free: Sunday; regulated again on Monday 23/11/2026 08:30.")
        #expect(
            TariffError.notMultipleOfCoin(amount: Money(cents: 212), coin: Money(cents: 5)).message(.eu)
                == "2,12 EUR ez da 0,05 EUR(r)en multiploa: makinek 5 zentimotik gorako txanponak onartzen dituzte.")
    }
}
