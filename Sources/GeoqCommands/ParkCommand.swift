import ArgumentParser
import Foundation
import GeoqCore
import GeoqFormats
import GeoqLayers
import GeoqNearby
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTariffs

/// `geoq park LAT LON`: sector, zone, regulated or not, price and end time, residents' rules.
struct ParkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "park",
        abstract: "Can I park here, now? Sector, zone, regulated hours, price, end time, residents' rules.",
        discussion: """
            Joins the sector lookup (the city's residents' sectors; Pamplona's are approximated \
            until the official layer is loaded, and every answer says so) with the tariffs. The \
            zone comes from --zone (the colour on the street) or, where the city's zone lines \
            are loaded, from the nearest regulated segment within a tolerance; with neither, \
            the answer says the zone is unknown and gives every zone's rules.

            Examples:
              geoq park 42.8169 -1.6440 --zone blue --minutes 45
              geoq park 42.8169 -1.6440 --zone orange --euros 3 --at 2026-11-23T09:00 \\
                --format json
              geoq park 42.8169 -1.6440 --lang en
              geoq park 42.8030 -1.6510 --zone blue --minutes 30 --reminder 10 \\
                --ics ticket.ics

            Exit status: 0 answered, 5 refused by the tariff, 64 bad arguments, 65 malformed \
            data, 66 missing data file, 74 the calendar file could not be written.
            """)

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Latitude and longitude in degrees, latitude first.", valueName: "lat lon"))
    var coordinates: [String] = []

    @Option(name: .long, help: "The zone read on the street: blue, orange, red, green (or azul, urdina, ...).")
    var zone: String?

    @Option(name: .long, help: "When (ISO 8601; default now).")
    var at: String?

    @OptionGroup var parking: ParkingOptions

    @Option(name: .long, help: "Output format: text, json or geojson.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func validate() throws {
        _ = try point()
    }

    private func point() throws -> Point {
        do { return try CoordinateInput.point(fromArguments: coordinates) } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let language = parking.lang
        let point = try point()
        let reminders = try parking.reminderMinutes()
        let tariffs = try TariffReporting.reporting(format: format, language: language) { () throws(TariffError) in
            try parking.loadTariffs()
        }
        let library = try LayerLibrary.openForCommand(store: store, format: format)
        let sectors = try ExitStatus.reporting(format: format) { () throws(LayerError) in
            SectorLookup(
                layer: try library.layer(named: tariffs.sectorLayer ?? LayerCatalog.defaultLayerName),
                geodesic: EllipsoidGeodesic.wgs84)
        }
        let zones = try tariffs.zoneLayer.map { spec in
            try ExitStatus.reporting(format: format) { () throws(LayerError) in
                ZoneLocator(features: try library.features(of: spec.layer), spec: spec)
            }
        }
        let query = ParkQuery(tariffs: tariffs, sectors: sectors, zones: zones)
        let (answer, quote) = try TariffReporting.reporting(format: format, language: language) {
            () throws(TariffError) in
            let time = try parking.instant(at, option: "--at", tariffs: tariffs)
            let request = try parking.request()
            let result = try query.answer(
                at: point, time: time, zoneID: zone, request: request, reminders: reminders, language: language)
            if request != nil && result.quote == nil { throw .zoneNeeded(city: tariffs.city) }
            return result
        }
        if let path = parking.ics, let quote {
            let calendar = TicketCalendar.ics(
                quote, tariffs: tariffs, language: language, position: (point.y, point.x))
            try TariffReporting.writeCalendar(calendar, to: path, format: format)
        }
        var output = StandardOutput()
        switch format {
        case .text: output.write(answer.messages.joined(separator: "\n") + "\n")
        case .json: output.write(AnswerRenderer.encoded(answer) + "\n")
        case .geojson:
            output.write(
                AnswerRenderer.encoded(ParkFeature(answer: answer)) + "\n")
        }
    }
}
