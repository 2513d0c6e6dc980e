import ArgumentParser
import Foundation
import GeoqLayers
import GeoqParking
import GeoqSchedule
import GeoqTariffs

extension Language: ExpressibleByArgument {}

/// Options shared by `geoq tariff` and `geoq park`: the city, the language, the ticket request,
/// reminders and the calendar file.
struct ParkingOptions: ParsableArguments {
    @Option(name: .long, help: "The city whose tariffs apply (a file in data/tariffs).")
    var city: String = "pamplona"

    @Option(name: .long, help: "Buy for this amount in euros (multiples of 0.05; 1.25 or 1,25).")
    var euros: String?

    @Option(name: .long, help: "Buy at least this many regulated minutes (the smallest amount is quoted).")
    var minutes: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Remind this many minutes before the end; several separated by commas.", valueName: "5,10,15"))
    var reminder: String?

    @Option(name: .long, help: "Write the ticket and its reminders to this iCalendar (RFC 5545) file.")
    var ics: String?

    @Option(name: .long, help: "Language of the answer: es, eu or en.")
    var lang: Language = .es

    func validate() throws {
        if euros != nil && minutes != nil { throw ValidationError("give --euros or --minutes, not both") }
        _ = try reminderMinutes()
    }

    /// The ticket request, or nil when neither --euros nor --minutes was given.
    func request() throws(TariffError) -> TicketQuote.Request? {
        if let minutes { return .minutes(minutes) }
        guard let euros else { return nil }
        guard let amount = Money(euros: euros) else { throw .notAnAmount(euros) }
        return .amount(amount)
    }

    func reminderMinutes() throws -> [Int] {
        guard let reminder else { return [] }
        return try TicketQuote.reminderMinutes(reminder).mapError { bad in
            ValidationError("--reminder expects minutes before the end, e.g. 5,10,15; '\(bad.item)' is not one")
        }.get()
    }

    /// The city's tariffs from data/tariffs beside the catalog.
    func loadTariffs() throws(TariffError) -> CityTariffs {
        let dataDirectory: URL
        do { dataDirectory = try DataLocations.resolveForCommand().catalogFile.deletingLastPathComponent() } catch {
            throw .fileMalformed(file: "data/layers.json", path: "(file)", message: error.description)
        }
        return try CityTariffs.load(city: city, dataDirectory: dataDirectory)
    }

    /// `--start` / `--at`: ISO 8601, the city's wall clock when no offset is given; now by default.
    func instant(_ text: String?, option: String, tariffs: CityTariffs) throws(TariffError) -> Date {
        guard let text else { return Date() }
        do {
            guard let date = try tariffs.clock.parse(text) else {
                throw TariffError.schedule(
                    .openingHours(
                        expression: text, offset: 0, message: "\(option) expects ISO 8601, e.g. 2026-11-23T13:50"))
            }
            return date
        } catch let error as TariffError {
            throw error
        } catch let error as ScheduleError {
            throw .schedule(error)
        } catch {
            throw .schedule(.unknownTimeZone("\(error)"))
        }
    }
}

/// Exit statuses and reports for tariff errors: one mapping, in one place.
enum TariffReporting {
    static func status(_ error: TariffError) -> Int32 {
        switch error {
        case .unknownCity, .unknownZone, .zoneNeeded, .notAnAmount, .notAPositiveDuration: ExitStatus.usage
        case .noTicketsInZone, .notMultipleOfCoin, .belowMinimum, .beyondMaxStay, .reminderInPast: ExitStatus.refused
        case .fileMalformed: ExitStatus.dataError
        case .schedule(let e):
            switch e {
            case .nonexistentLocalTime, .openingHours: ExitStatus.usage
            case .yearNotCovered: ExitStatus.refused
            case .calendarMalformed, .unknownTimeZone: ExitStatus.dataError
            }
        }
    }

    static func report(_ error: TariffError, format: OutputFormat, language: Language) {
        var stderr = StandardError()
        let message = error.message(language)
        guard format != .text else {
            stderr.write("geoq: error: \(message)\n")
            return
        }
        var body: [String: Any] = ["code": error.code, "message": message]
        if case .beyondMaxStay(_, _, let minutes, let price) = error {
            body["maximum"] = ["minutes": minutes, "amount": price.decimal]
        }
        if case .belowMinimum(_, let minimum, let minutes) = error {
            body["minimum"] = ["minutes": minutes, "amount": minimum.decimal]
        }
        stderr.write(AnswerRenderer.serialise(["error": body], pretty: false) + "\n")
    }

    /// Runs `body`; a tariff error is reported and ends the command with its exit status.
    static func reporting<T>(format: OutputFormat, language: Language, _ body: () throws(TariffError) -> T) throws -> T
    {
        do { return try body() } catch {
            report(error, format: format, language: language)
            throw ExitCode(status(error))
        }
    }

    /// Writes an iCalendar file whole or not at all.
    static func writeCalendar(_ text: String, to path: String, format: OutputFormat) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            var stderr = StandardError()
            let message = "cannot write the calendar file \(path): \(error.localizedDescription)"
            stderr.write(
                format == .text
                    ? "geoq: error: \(message)\n"
                    : AnswerRenderer.errorJSON(code: "ics-write-failed", message: message) + "\n")
            throw ExitCode(ExitStatus.ioError)
        }
    }
}
