import ArgumentParser
import Foundation
import GeoqParking
import GeoqSchedule
import GeoqTariffs

/// `geoq tariff --zone Z (--euros X | --minutes M)`: what a ticket costs and when it runs out.
struct TariffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tariff",
        abstract: "Price a parking ticket and tell when it runs out, counting only regulated minutes.",
        discussion: """
            Euros -> minutes, or minutes -> euros (the smallest amount that buys at least that \
            long). Paid time runs only while the zone is regulated (Pamplona: Mo-Fr 08:30-14:00 \
            and 16:00-20:00, Sa 08:30-14:00; free on Sundays, public holidays, Holy Saturday and \
            6-25 July): 13:50 + 30 min ends at 16:20; Saturday 13:30 + 60 min ends on Monday at \
            09:00. A ticket bought outside regulated hours starts counting at the next regulated \
            minute. The answer names every day and hour the ticket skips and why (Sunday, a \
            holiday by name, a tariff exemption, outside hours). Beyond the zone's max stay the \
            request is refused and the maximum offered. \
            Tariffs, hours and holidays are data: data/tariffs/<city>.json, data/holidays/.

            --start takes ISO 8601; without an offset it is the city's wall clock \
            (Europe/Madrid for Pamplona). Default: now.

            Examples:
              geoq tariff --zone blue --euros 1.00
              geoq tariff --zone azul --minutes 30 --start 2026-11-23T13:50
              geoq tariff --zone orange --euros 4.35 --start 2026-11-23T08:30 --format json
              geoq tariff --zone blue --minutes 60 --start 2026-11-21T13:30 \\
                --reminder 5,10,15 --ics ticket.ics
              geoq tariff --zone red --minutes 90 --lang eu

            Exit status: 0 answered, 5 refused by the tariff (beyond the max stay, not a multiple \
            of 0.05 EUR, below the minimum ticket, residents-only zone, reminder in the past), \
            64 bad arguments, 65 malformed tariff or calendar file, 74 the calendar file could not \
            be written.
            """)

    @Option(name: .long, help: "The zone: blue, orange, red or green (or its name: azul, urdina, ...).")
    var zone: String

    @Option(name: .long, help: "When the ticket is bought (ISO 8601; default now).")
    var start: String?

    @OptionGroup var parking: ParkingOptions

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if parking.euros == nil && parking.minutes == nil {
            throw ValidationError("give --euros X or --minutes M")
        }
        if format == .geojson { throw ValidationError("a tariff answer has no geometry: use --format text or json") }
    }

    func run() throws {
        let language = parking.lang
        let reminders = try parking.reminderMinutes()
        let (answer, calendar) = try TariffReporting.reporting(format: format, language: language) {
            () throws(TariffError) -> (TariffAnswer, String?) in
            let tariffs = try parking.loadTariffs()
            let time = try parking.instant(start, option: "--start", tariffs: tariffs)
            let quote = try TicketQuote.compute(
                try parking.request()!, zone: zone, in: tariffs, start: time, remindersBefore: reminders)
            let calendar = parking.ics.map { _ in TicketCalendar.ics(quote, tariffs: tariffs, language: language) }
            return (try TariffAnswer(quote, tariffs: tariffs, language: language), calendar)
        }
        if let calendar, let path = parking.ics {
            try TariffReporting.writeCalendar(calendar, to: path, format: format)
        }
        var output = StandardOutput()
        switch format {
        case .json, .geojson: output.write(AnswerRenderer.encoded(answer) + "\n")
        case .text: output.write(answer.messages.joined(separator: "\n") + "\n")
        }
    }
}
