import ArgumentParser
import Foundation

/// The `geoq` command line: one subcommand per question.
@main
struct Geoq: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geoq",
        abstract: "Geospatial answers for city-mobility apps: sectors, zones, nearest places.",
        discussion: """
            Coordinates are WGS84 degrees, latitude first (as people write them). \
            Layers are read from the shared city data ($GEOQ_DATA_DIR, default \
            ../shared/data beside the repository) as described in data/layers.json.

            Examples:
              geoq which-sector 42.81 -1.64
              geoq which-sector 42.81 -1.64 --format json
              geoq which-sector 39.47 -0.376 --layer valencia-barrios
              printf '42.81,-1.64\\n42.818,-1.644\\n' | geoq which-sector --batch
              geoq nearest 39.4699 -0.3763 --layer fallas --category Especial -n 5
              geoq services 39.4699 -0.3763 -n 2
              geoq ar 39.4699 -0.3763 --heading 20 --max-distance 1500
              geoq trip drive.gpx --min-step 500
              geoq track drive.csv --device car-1 --format json
              geoq tariff --zone blue --minutes 30 --start 2026-11-23T13:50
              geoq park 42.8169 -1.6440 --zone blue --euros 1 --lang en
              geoq incidents refresh \\
                --feed 'https://www.zaragoza.es/sede/servicio/incidencia?id=1'
              geoq incidents --near 41.6488 -0.8891 --within 1000
              geoq import --all
              geoq layers
              geoq info valencia-census-sections
              geoq serve --port 8080
            """,
        subcommands: [
            WhichSector.self, NearestCommand.self, ServicesCommand.self, ARCommand.self, TripCommand.self,
            TrackCommand.self,
            TariffCommand.self, ParkCommand.self, IncidentsCommand.self, Import.self, ListLayers.self, Info.self,
            ServeCommand.self, HooksCommand.self, KeysCommand.self, DevicesCommand.self,
        ])

    /// Parses and runs the command; an error is reported as text, or as a JSON problem object
    /// on standard error when the command line asks for JSON (see ``CommandLineErrors``).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard CommandLineErrors.wantsJSON(arguments), let json = CommandLineErrors.json(for: error, command: self)
            else { exit(withError: error) }
            var stderr = StandardError()
            stderr.write(json + "\n")
            Foundation.exit(exitCode(for: error).rawValue)
        }
    }
}
