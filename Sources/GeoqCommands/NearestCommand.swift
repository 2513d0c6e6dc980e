import ArgumentParser
import Foundation
import GeoqCore
import GeoqFormats
import GeoqLayers
import GeoqQuery

extension NearestQuery.Order: ExpressibleByArgument {}

/// `geoq nearest LAT LON --layer L`: the nearest features of a point layer.
struct NearestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "List the features of a point layer nearest to a position, with distance, bearing and a geo: link.",
        discussion: """
            Distances are geodesic (WGS84, Karney's algorithm), bearings initial \
            bearings from true north. The search is a best-first walk of an R-tree with a proven \
            lower bound, so it is exact, including across the antimeridian and near the poles. \
            Ties are broken by the layer's order. Each hit has a geo: URI (RFC 5870) to get there.

            Fallas (layer fallas) show their section in words (E = Especial, \
            1A = Primera A, …, FC = Fuera de concurso), their children's falla and marquee, and \
            can be filtered by section and ordered by competition order.

            Examples:
              geoq nearest 39.4699 -0.3763 --layer fallas -n 5
              geoq nearest 39.4699 -0.3763 --layer fallas --category Especial -n 5
              geoq nearest 39.4699 -0.3763 --layer fallas --within 1000 --order category
              geoq nearest 39.47 -0.376 --layer valencia-valenbisi -n 3 --format json
            """)

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Latitude and longitude in degrees, latitude first.", valueName: "lat lon"))
    var coordinates: [String] = []

    @Option(name: .long, help: "The point layer to search (see `geoq layers`).")
    var layer: String

    @Option(name: .customShort("n"), help: "How many features at most.")
    var count: Int = 10

    @Option(name: .long, help: "Only features within this many metres.")
    var within: Double?

    @Option(name: .long, help: "Only features of this category (code or words; repeatable).")
    var category: [String] = []

    @Option(name: .long, help: "Order: distance (nearest first) or category (competition order, then nearest).")
    var order: NearestQuery.Order = .distance

    @Option(name: .long, help: "Output format: text, json or geojson.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func validate() throws {
        try SearchArguments.validate(coordinates: coordinates, count: count, within: within)
    }

    func run() throws {
        let point = try CoordinateInput.point(fromArguments: coordinates)
        let library = try LayerLibrary.openForCommand(store: store, format: format)
        let answer = try ExitStatus.reporting(format: format) { () throws(LayerError) in
            try NearestQuery(geodesic: KarneyGeodesic.wgs84).nearest(
                try library.pointLayer(named: layer), to: point, limit: count, within: within, categories: category,
                order: order, library: library)
        }
        var out = StandardOutput()
        out.write(NearestRenderer.render(answer, format: format) + "\n")
    }
}

/// `geoq services LAT LON`: the nearest services of each type.
struct ServicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "services",
        abstract: "List the nearest services (car parks, hospitals, bike stations, …) grouped by type.",
        discussion: """
            Service layers are the catalog's layers with a service type: car-park, hospital, \
            health-centre, bike-station, taxi-rank, ev-charger, disabled-parking, \
            traffic-camera (Valencia). Health centres and hospitals share a file and are told \
            apart by its type (Tipo). Each group is ordered by geodesic distance.

            Examples:
              geoq services 39.4699 -0.3763
              geoq services 39.4699 -0.3763 --type hospital --type car-park -n 3
              geoq services 39.4699 -0.3763 --within 500 --format json
            """)

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Latitude and longitude in degrees, latitude first.", valueName: "lat lon"))
    var coordinates: [String] = []

    @Option(name: .long, help: "Only this service type (repeatable).")
    var type: [String] = []

    @Option(name: .customShort("n"), help: "How many of each type at most.")
    var count: Int = 3

    @Option(name: .long, help: "Only services within this many metres.")
    var within: Double?

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    func validate() throws {
        try SearchArguments.validate(coordinates: coordinates, count: count, within: within)
    }

    func run() throws {
        let point = try CoordinateInput.point(fromArguments: coordinates)
        let library = try LayerLibrary.openForCommand(store: store, format: format)
        let answer = try ExitStatus.reporting(format: format) { () throws(LayerError) in
            try NearestQuery(geodesic: KarneyGeodesic.wgs84).services(
                at: point, types: type, perType: count, within: within, library: library)
        }
        var out = StandardOutput()
        switch format {
        case .text:
            for group in answer.groups {
                out.write("\(group.type) (\(group.layer)):\n")
                if group.hits.isEmpty { out.write("  none\(within.map { " within \(Int($0)) m" } ?? "")\n") }
                for (i, hit) in group.hits.enumerated() {
                    out.write("  " + NearestRenderer.line(hit, rank: i + 1) + "\n")
                }
            }
        case .json: out.write(AnswerRenderer.encoded(answer) + "\n")
        case .geojson: out.write(AnswerRenderer.serialise(answer.geoJSON, pretty: true) + "\n")
        }
    }
}

/// The checks shared by the commands that search around a position.
enum SearchArguments {
    /// A position, a count of 0 or more, and a radius in metres if any; usage errors otherwise.
    static func validate(coordinates: [String], count: Int, within: Double?) throws {
        guard count >= 0 else { throw ValidationError("-n must be 0 or more, got \(count)") }
        if let within, !(within.isFinite && within >= 0) {
            throw ValidationError("--within must be a distance in metres (0 or more), got \(within)")
        }
        do { _ = try CoordinateInput.point(fromArguments: coordinates) } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Text, JSON and GeoJSON for nearest answers.
enum NearestRenderer {
    static func render(_ a: NearestAnswer, format: OutputFormat) -> String {
        switch format {
        case .text:
            var lines = a.hits.enumerated().map { line($1, rank: $0 + 1) }
            if lines.isEmpty { lines = ["no features of \(a.layer) match"] }
            if let note = a.approximation { lines.append("Approximate: \(note)") }
            return lines.joined(separator: "\n")
        case .json:
            return AnswerRenderer.encoded(a)
        case .geojson:
            return AnswerRenderer.serialise(a.geoJSON, pretty: true)
        }
    }

    static func line(_ h: NearestAnswer.Hit, rank: Int) -> String {
        var s = "\(rank). \(h.name ?? h.id) (id \(h.id))"
        if let category = h.category { s += ", \(category)" }
        s +=
            ": \(AnswerRenderer.metres(h.distanceMetres)), bearing \(String(format: "%.0f", h.bearingDegrees))° \(compass(h.bearingDegrees)), \(h.geoURI)"
        if let links = h.links {
            for key in links.keys.sorted() {
                let l = links[key]!
                s += "; \(key): \(l.name ?? "\(l.geometryType) \(l.id)")"
            }
        }
        return s
    }

    /// The 8-point compass direction of a bearing.
    static func compass(_ degrees: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        return names[Int(((degrees + 22.5).truncatingRemainder(dividingBy: 360)) / 45) % 8]
    }
}
