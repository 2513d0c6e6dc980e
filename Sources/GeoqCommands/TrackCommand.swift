import ArgumentParser
import Foundation
import GeoqCore
import GeoqLayers
import GeoqNearby
import GeoqParking
import GeoqQuery
import GeoqTariffs
import GeoqTracking
import GeoqTrips

/// `geoq track FILE --device ID`: replays a GPS trace through the geofence engine.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Replay a GPS trace (GPX or CSV) through the geofences: enter, exit, dwell, parked, left.",
        discussion: """
            Reads the trace as `geoq trip` does (GPX, or CSV time,lat,lon[,accuracy], latitude \
            first) and feeds its fixes, in file order, to the geofence engine over the layer: \
            enter when inside a feature, exit only when outside by more than max(accuracy, 20 m), \
            dwell after 60 s inside, parked after 60 s slower than 2 m/s (with the park answer \
            of the Pamplona tariffs on the Pamplona sectors), left when a parked device moves \
            off, and a synthetic exit after 600 s of silence. Fixes that go back in time or \
            repeat a time are ignored and counted. The same file always gives the same output.

            With a point layer and --radius, each fence is the circle of that many metres             around a point (geodesic; a feature's own radius property wins): within 100 m of a             falla, at a car park's entrance. The rules are the same.

            Examples:
              geoq track drive.gpx --device car-1
              geoq track drive.csv --device car-1 --format json
              geoq track walk.csv --device phone-7 --layer valencia-barrios
              geoq track walk.csv --device phone-7 --layer fallas --radius 100

            Exit status: 0 replayed, 64 bad arguments, 65 malformed trace or data, 66 missing file.
            """)

    @Argument(help: ArgumentHelp("The trace: a .gpx file, or CSV time,lat,lon[,accuracy].", valueName: "file"))
    var file: String

    @Option(name: .long, help: "The device the fixes belong to.")
    var device: String

    @Option(name: .long, help: "The layer of features to fence (default pamplona-sectors).")
    var layer: String = LayerCatalog.defaultLayerName

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For a point layer (required there): the fences are circles of this many metres around its points.",
            valueName: "metres"))
    var radius: Double?

    @Option(name: .long, help: "Output format: text, or json (one event object per line).")
    var format: TripOutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func validate() throws {
        if let radius, !(radius.isFinite && radius > 0 && radius <= 50_000) {
            throw ValidationError("--radius \(radius) is not a number of metres in (0, 50000]")
        }
    }

    func run() throws {
        let outputFormat: OutputFormat = format == .json ? .json : .text
        let trace: TripTrace
        do {
            trace = try TripTraceReader.read(contentsOf: URL(fileURLWithPath: file), source: file)
        } catch {
            var stderr = StandardError()
            stderr.write(
                format == .text
                    ? "geoq: error: \(error.description)\n"
                    : AnswerRenderer.errorJSON(code: error.code.rawValue, message: error.description) + "\n")
            throw ExitCode(error.code == .fileMissing ? ExitStatus.noInput : ExitStatus.dataError)
        }
        let library = try LayerLibrary.openForCommand(store: store, format: outputFormat)
        let fencer: Geofencer
        if let radius {
            let points = try ExitStatus.reporting(format: outputFormat) { () throws(LayerError) in
                try library.pointLayer(named: layer)
            }
            fencer = Geofencer(points: points, radius: radius)
        } else {
            let fenced = try ExitStatus.reporting(format: outputFormat) { () throws(LayerError) in
                try library.layer(named: layer)
            }
            fencer = Geofencer(layer: fenced, parkQuery: parkQuery(for: fenced, library))
        }

        var output = StandardOutput()
        var track: DeviceTrack?
        var ignored = 0, untimed = 0, events = 0
        for point in trace.fixes {
            guard let time = point.time else {
                untimed += 1
                continue
            }
            let fix = Fix(
                device: device, time: time, latitude: point.point.y, longitude: point.point.x,
                accuracy: point.accuracy.flatMap { $0 >= 0 ? $0 : nil })
            let step = fencer.advance(&track, with: fix)
            if step.ignored != nil { ignored += 1 }
            for event in step.events {
                events += 1
                output.write((format == .json ? AnswerRenderer.encoded(event, pretty: false) : Self.text(event)) + "\n")
            }
        }
        if format == .text {
            output.write(
                "\(file): \(trace.fixCount) fixes, \(events) events, \(ignored) ignored (older or repeated)"
                    + (untimed > 0 ? ", \(untimed) without a time skipped" : "") + "\n")
        }
    }

    /// The Pamplona park answer for `parked`, when fencing the tariffs' own sector layer.
    private func parkQuery(for layer: Layer, _ library: LayerLibrary) -> ParkQuery? {
        guard let dataDirectory = try? DataLocations.resolveForCommand().catalogFile.deletingLastPathComponent(),
            let tariffs = try? CityTariffs.load(city: "pamplona", dataDirectory: dataDirectory),
            tariffs.sectorLayer == layer.name
        else { return nil }
        let zones = tariffs.zoneLayer.flatMap { spec in
            (try? library.features(of: spec.layer)).map { ZoneLocator(features: $0, spec: spec) }
        }
        return ParkQuery(
            tariffs: tariffs,
            sectors: SectorLookup(layer: layer, geodesic: EllipsoidGeodesic.wgs84),
            zones: zones)
    }

    static func text(_ e: TrackingEvent) -> String {
        var line = "\(e.sequence) \(e.time) \(e.event.rawValue) \(e.featureID)"
        if let name = e.featureName { line += " (\(name))" }
        line += " at \(e.position.latitude), \(e.position.longitude) visit \(e.visit)"
        if let reason = e.reason { line += " [\(reason)]" }
        if let park = e.park { line += " — " + park.messages.prefix(2).joined(separator: "; ") }
        return line
    }
}
