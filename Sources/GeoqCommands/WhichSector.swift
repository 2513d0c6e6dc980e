import ArgumentParser
import Foundation
import GeoqCore
import GeoqFormats
import GeoqLayers
import GeoqNearby
import GeoqQuery
import GeoqSchedule

/// `geoq which-sector LAT LON`: the feature(s) of a polygon layer that contain a point.
struct WhichSector: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which-sector",
        abstract: "Tell which sector (or other polygon) of a layer contains a point.",
        discussion: """
            A point on a sector's edge belongs to that sector ("covers"). Each answer gives the \
            feature's id, name and layer, whether the layer is approximate, and the distance \
            in metres to the feature's nearest edge (how safely inside). A point outside every \
            feature is an ordinary answer (exit status 3) that names the nearest feature.

            Layers come from the store (a GeoPackage, or PostgreSQL with --store postgresql://...; see `geoq import`); a catalog layer not \
            imported yet is read from its source file.

            The default layer, pamplona-sectors, approximates the resident parking sectors by \
            the city's neighbourhood units until the official layer is loaded; every answer \
            from it says so, in the language of --lang (English by default).

            Examples:
              geoq which-sector 42.81 -1.64
              geoq which-sector 42.81, -1.64 --layer pamplona-barrios --format json
              geoq which-sector 39.4699 -0.3763 --layer valencia-census-sections \\
                --format geojson
              printf 'lat,lon\\n42.81,-1.64\\n' | geoq which-sector --batch --format json
              geoq which-sector 40.4168 -3.7038 --layer timezones --at 2026-07-15T12:00:00Z

            On a time-zone layer (the catalog's `timezones`, fetched with \
            tools/fetch-benchmark-data.sh timezones), the answer also gives the IANA zone, its \
            offset from UTC and the local time, now or at --at.

            Exit status: 0 inside a feature, 3 outside every feature, 4 a batch had bad lines, \
            64 bad arguments, 65 malformed data, 66 missing data file.
            """)

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Latitude and longitude in degrees, latitude first.", valueName: "lat lon"))
    var coordinates: [String] = []

    @Option(name: .long, help: "The polygon layer to search (see `geoq layers`).")
    var layer: String = LayerCatalog.defaultLayerName

    @Option(name: .long, help: "Output format: text, json or geojson.")
    var format: OutputFormat = .text

    @Flag(
        name: .long,
        help: "Read points from standard input, one per line (CSV lat,lon[,id] or NDJSON), and answer each.")
    var batch = false

    @Flag(name: .long, help: "Load a layer even if GEOS finds invalid polygons in it (answers use the even-odd rule).")
    var allowInvalid = false

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    @Option(name: .long, help: "Language of the text answer and of an approximate layer's note: es, eu or en.")
    var lang: Language = .en

    @Option(
        name: .long,
        help: ArgumentHelp(
            "On a time-zone layer, give the local time at this instant (ISO 8601, e.g. 2026-07-15T12:00:00Z) instead of now.",
            valueName: "instant"))
    var at: String?

    func validate() throws {
        if batch && !coordinates.isEmpty {
            throw ValidationError("--batch reads points from standard input; do not also give LAT LON")
        }
        if !batch { _ = try point() }
        _ = try instant()
    }

    /// `--at`, or now.
    private func instant() throws -> Date {
        guard let at else { return Date() }
        guard let date = LocalTime.instant(parsing: at) else {
            throw ValidationError(
                "--at '\(at)' is not an ISO 8601 instant; write it as 2026-07-15T12:00:00Z or 2026-07-15T14:00:00+02:00"
            )
        }
        return date
    }

    private func point() throws -> Point {
        do { return try CoordinateInput.point(fromArguments: coordinates) } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        var output = StandardOutput()
        let status = try execute(input: { readLine(strippingNewline: true) }, output: &output)
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Does the work with injectable input and output, and returns the exit status. Layer
    /// errors are printed here (to standard error) so that every face gets the same message.
    func execute(input: () -> String?, output: inout some TextOutputStream) throws -> Int32 {
        let context: QueryContext
        let instant = try instant()
        do {
            context = try QueryContext(
                layerName: layer, allowInvalid: allowInvalid, store: store, language: lang, instant: instant)
        } catch {
            ExitStatus.report(error, format: format)
            return ExitStatus.of(error)
        }
        let renderer = AnswerRenderer(format: format, lookup: context.lookup, language: lang)
        if !batch {
            let answer = context.answer(for: try point())
            output.write(renderer.single(answer))
            return answer.isInside ? ExitStatus.success : ExitStatus.outside
        }
        var reader = BatchReader()
        var badLines = 0
        var number = 0
        while let line = input() {
            number += 1
            guard let item = reader.item(line: line, number: number) else { continue }
            switch item.result {
            case .success(let p):
                output.write(renderer.batchLine(context.answer(for: p), line: item.line, id: item.id))
            case .failure(let error):
                badLines += 1
                output.write(renderer.batchError(error.description, line: item.line, id: item.id))
            }
        }
        return badLines == 0 ? ExitStatus.success : ExitStatus.batchHadBadLines
    }

}

/// The layer for one run, from the store or the catalog, and the other layers, loaded at most
/// once and only when a point outside every feature might have its numbers swapped.
final class QueryContext {
    let lookup: SectorLookup
    private let library: LayerLibrary
    private lazy var otherLayers: [Layer] = library.otherPolygonLayers(than: lookup.layer.name)
    /// The language of the approximation note.
    let language: Language
    /// The instant a time-zone layer's answers give the local time for.
    let instant: Date

    init(
        layerName: String, allowInvalid: Bool, store: String?, language: Language = .en, instant: Date = Date()
    ) throws(LayerError) {
        self.language = language
        self.instant = instant
        library = try LayerLibrary(
            locations: try DataLocations.resolveForCommand(), store: try StoreAddress.option(store),
            invalidPolygons: allowInvalid ? .keep : .fail)
        lookup = SectorLookup(
            layer: try library.layer(named: layerName), geodesic: EllipsoidGeodesic.wgs84)
    }

    func answer(for point: Point) -> SectorAnswer {
        lookup.answer(for: point, language: language, at: instant, swapCandidates: { self.otherLayers })
    }
}
