import ArgumentParser
import Foundation

/// What both executables' root commands share: the name users type (`geoq`, also in what
/// `geoq-server` prints), the help, the commands that answer from a GeoPackage, and how a command
/// line is run.
package enum GeoqRoot {
    package static let commandName = "geoq"
    package static let abstract = "Geospatial answers for city-mobility apps: sectors, zones, nearest places."
    package static let discussion = """
        Coordinates are WGS84 degrees, latitude first (as people write them). \
        Layers are read from the shared city data ($GEOQ_DATA_DIR, default \
        ../shared/data beside the repository) as described in data/layers.json.

        serve, hooks, keys and any command on a PostgreSQL store run in geoq-server, built \
        beside geoq; geoq hands them to it.

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
        """

    /// The commands that answer from a GeoPackage (and, in `geoq-server`, from PostgreSQL too).
    package static let storeCommands: [any ParsableCommand.Type] = [
        WhichSector.self, NearestCommand.self, ServicesCommand.self, ARCommand.self, TripCommand.self,
        TrackCommand.self, TariffCommand.self, ParkCommand.self, IncidentsCommand.self, Import.self,
        ListLayers.self, Info.self, TilesCommand.self, DevicesCommand.self,
    ]

    /// The one-line help of the commands only `geoq-server` runs, for their own configuration
    /// and for `geoq --help`.
    package enum ServerAbstract {
        package static let serve = "Answer the geoq questions over HTTP (JSON)."
        package static let hooks = "Webhooks for tracking events: list, add, rotate their secret or delete them."
        package static let keys = "API keys: add, list or revoke them."
        package static let push = "Web Push: the service's key, and news sent to a topic's subscribers."
    }

    /// Parses `arguments` as a command line of `root` and runs the command; an error is reported
    /// as text, or as a JSON problem object on standard error when the command line asks for
    /// JSON (see ``CommandLineErrors``).
    package static func run(_ root: any ParsableCommand.Type, arguments: [String]) async -> Never {
        do {
            var command = try root.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(ExitStatus.success)
        } catch {
            guard CommandLineErrors.wantsJSON(arguments), let json = CommandLineErrors.json(for: error, command: root)
            else { root.exit(withError: error) }
            var stderr = StandardError()
            stderr.write(json + "\n")
            Foundation.exit(root.exitCode(for: error).rawValue)
        }
    }
}
