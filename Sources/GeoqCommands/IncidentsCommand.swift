import ArgumentParser
import Foundation
import GeoqCore
import GeoqFetch
import GeoqFormats
import GeoqIncidents
import GeoqLayers
import GeoqQuery
import GeoqSchedule

// IncidentType.init?(argument:) (a number or a code) already has the shape ArgumentParser needs.
extension IncidentType: ExpressibleByArgument {}

/// `geoq incidents`: the city's incident feeds, kept in the store; list them or refresh them.
struct IncidentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "incidents",
        abstract: "Incidents from GeoRSS feeds: list what is near, or refresh from a feed.",
        discussion: """
            Each feed is a source, named after its address or file (or --source NAME); an \
            incident is keyed by its source and its id (guid, else link, else a digest of its \
            title, date and geometry), and refreshing one source never touches another's. \
            Categories are the entry's own <category> values, else the type's name.

            Zaragoza's types (SPEC §3, the id parameter of its feed addresses): 0 water-cut, \
            1 traffic-cut, 2 important-disruption, 3 all, 4 tram, 5 public-transport.

            Examples:
              geoq incidents refresh \\
                --feed 'https://www.zaragoza.es/sede/servicio/incidencia?id=1'
              geoq incidents refresh --feed feed.xml --type traffic-cut
              geoq incidents refresh --feed https://example.org/cortes.rss --source cortes
              geoq incidents
              geoq incidents --near 41.6488 -0.8891 --within 1000 --type 1 --type 4
              geoq incidents --source cortes --category obras --format geojson
              geoq incidents --since 2026-11-20T00:00 --format json
              geoq incidents refresh --feed feed.xml \\
                --store postgresql://geoq@127.0.0.1:5432/geoq

            Exit status: 0 answered (also "no incidents"), 64 bad arguments, 65 the feed is not a \
            readable RSS/Atom feed, 69 the feed could not be downloaded, 74 the store could not \
            be written; with a PostgreSQL --store: 69 the server cannot be reached or lacks \
            PostGIS, 77 it refused the credentials, 66 no such database. After a failed refresh the incidents already held are untouched, and the \
            message says how old they are.
            """,
        subcommands: [IncidentsList.self, IncidentsRefresh.self], defaultSubcommand: IncidentsList.self)

    /// The store for incidents: --store, else the usual store.
    static func store(_ text: String?) throws -> IncidentStore {
        do throws(LayerError) {
            if let store = try StoreAddress.option(text) { return IncidentStore(store: store) }
            return IncidentStore(store: try DataLocations.resolveForCommand().store)
        } catch {
            if case .store(let failure) = error {
                IncidentsOutput.fail(failure.description, code: failure.code, format: .text)
                throw ExitCode(ExitStatus.of(failure))
            }
            throw ValidationError(error.description)
        }
    }

    /// The exit status of a store failure while reading or refreshing incidents.
    static func exitStatus(_ error: IncidentStoreError) -> Int32 {
        switch error {
        case .feedMalformed, .storeUnreadable: ExitStatus.dataError
        case .storeWriteFailed: ExitStatus.ioError
        case .store(let failure): ExitStatus.of(failure)
        }
    }
}

/// `geoq incidents [list]`.
struct IncidentsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the incidents held: nearest first with --near, else newest first.")

    @Option(name: .long, help: "Only these types (number or code; repeat for several).")
    var type: [IncidentType] = []

    @Option(name: .long, help: "Only incidents of these sources (as listed; repeat for several).")
    var source: [String] = []

    @Option(
        name: .long,
        help: "Only incidents in these categories (letter case and accents ignored; repeat for several).")
    var category: [String] = []

    @Flag(name: .long, help: "Order by distance from LAT LON (given after the options, latitude first).")
    var near = false

    @Argument(
        parsing: .allUnrecognized, help: ArgumentHelp("With --near: latitude and longitude.", valueName: "lat lon"))
    var coordinates: [String] = []

    @Option(name: .long, help: "With --near: only incidents within this many metres.")
    var within: Double?

    @Option(name: .long, help: "Only incidents published since (ISO 8601; Europe/Madrid without an offset).")
    var since: String?

    @Option(name: [.customShort("n"), .long], help: "At most this many.")
    var limit: Int?

    @Option(name: .long, help: "Output format: text, json or geojson.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.incidents)
    var store: String?

    func validate() throws {
        if near {
            _ = try position()
        } else if !coordinates.isEmpty {
            throw ValidationError("unexpected '\(coordinates.joined(separator: " "))' (did you mean --near LAT LON?)")
        }
        if within != nil && !near { throw ValidationError("--within needs --near LAT LON") }
        if let within, !(within > 0) { throw ValidationError("--within must be a positive number of metres") }
        for (option, values) in [("--source", source), ("--category", category)]
        where values.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("\(option) must not be empty")
        }
        if let since, IncidentsAnswer.since(since) == nil {
            throw ValidationError("--since expects ISO 8601, e.g. 2026-11-20T00:00 or 2026-11-20T00:00:00Z")
        }
    }

    func position() throws -> Point {
        do { return try CoordinateInput.point(fromArguments: coordinates) } catch {
            throw ValidationError("--near: \(error.description)")
        }
    }

    func run() throws {
        let incidentStore = try IncidentsCommand.store(store)
        let (incidents, refreshedAt): ([Incident], Date?)
        do { (incidents, refreshedAt) = try incidentStore.held() } catch {
            IncidentsOutput.fail(error.description, code: error.code, format: format)
            throw ExitCode(IncidentsCommand.exitStatus(error))
        }
        let query = IncidentQuery(
            types: Set(type), sources: Set(source), categories: category, near: near ? try position() : nil,
            withinMetres: within,
            since: since.flatMap(IncidentsAnswer.since))
        var hits = query.run(IncidentSet(incidents), geodesic: KarneyGeodesic.wgs84)
        if let limit { hits = Array(hits.prefix(max(0, limit))) }
        var output = StandardOutput()
        output.write(IncidentsOutput.render(hits, held: incidents.count, refreshedAt: refreshedAt, format: format))
    }
}

/// `geoq incidents refresh --feed URL_OR_FILE [--source NAME] [--type T]`.
struct IncidentsRefresh: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Download (or read) a feed and update its source's incidents, by id.",
        discussion: """
            The feed is read whole before the store is touched; the store is then updated in one \
            transaction. Incidents of the source that are no longer in its feed have ended and \
            are dropped; an empty feed means the source has no incidents now. Other sources are \
            left as they are.
            """)

    /// What refresh can print: a sentence or a JSON report (it has no map to draw).
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
        var output: OutputFormat { self == .text ? .text : .json }
    }

    @Option(name: .long, help: "The feed: an http(s) URL or a file.")
    var feed: String

    @Option(
        name: .long,
        help: "The source's name (default: from the URL's host, path and id, or the file's name).")
    var source: String?

    @Option(
        name: .long,
        help: "Zaragoza's incident type of the feed (default: the id of a zaragoza.es address; else none).")
    var type: IncidentType?

    @Option(name: .long, help: "Seconds to wait for the server.")
    var timeout: Double = 20

    @Option(name: .long, help: "Output format.")
    var format: Format = .text

    @Option(name: .long, help: StoreHelp.incidents)
    var store: String?

    func validate() throws {
        if let source, source.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("--source must not be empty")
        }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let incidentStore = try IncidentsCommand.store(store)
        let format = format.output
        let kept = { () -> String in
            let held = try? incidentStore.held()
            return "; "
                + IncidentsAnswer.status(held: held?.incidents.count ?? 0, refreshedAt: held?.refreshedAt ?? nil)
                + " (untouched)"
        }
        let data: Data
        do { data = try FeedFetcher(timeout: timeout).fetch(feed) } catch {
            // A local file that is not there is the user's input missing (66), not a download
            // that failed (69): the message names the path, with nothing about downloading.
            if case .unreadableFile = error {
                IncidentsOutput.fail(error.description + kept(), code: error.code, format: format)
                throw ExitCode(ExitStatus.noInput)
            }
            IncidentsOutput.fail("download failed: \(error.description)" + kept(), code: error.code, format: format)
            throw ExitCode(ExitStatus.unavailable)
        }
        let report: IncidentStore.Report
        do {
            report = try incidentStore.refresh(
                data: data, feed: feed, source: source?.trimmingCharacters(in: .whitespacesAndNewlines), type: type)
        } catch {
            IncidentsOutput.fail(error.description + kept(), code: error.code, format: format)
            throw ExitCode(IncidentsCommand.exitStatus(error))
        }
        var output = StandardOutput()
        output.write(IncidentsOutput.render(report, feed: feed, format: format))
    }
}
