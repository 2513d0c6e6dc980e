import ArgumentParser
import Foundation
import GeoqAR
import GeoqCore
import GeoqFormats
import GeoqLayers

/// `geoq ar LAT LON --heading DEG --targets FILE`: the augmented-reality overlay (SPEC §2),
/// where each target's label goes on the camera image.
struct ARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ar",
        abstract: "Place labels of points (fallas, services) on a phone's camera view.",
        discussion: """
            For a device at LAT LON held with a compass heading, pitch and roll, \
            computes for each target: its geodesic distance and bearing (WGS84, \
            Karney), the bearing relative to the heading, the elevation angle, the \
            screen position through a pinhole camera of the given field of view \
            and screen size, whether it is visible, a label scale that shrinks \
            with distance (1 at 50 m or nearer, 0.4 at 2 km or farther), and \
            overlapping labels stacked upwards, nearest in front. Labels are \
            listed nearest first.

            Angles are degrees. The heading is where the camera looks, clockwise \
            from north; with --heading-ref magnetic it is corrected by \
            --declination (east positive): true = magnetic + declination. Pitch \
            is positive with the camera tilted up, roll positive with the phone \
            turned clockwise. Screen pixels count from the top-left corner. \
            Without --vfov the vertical field of view follows from --hfov and \
            the screen's aspect (square pixels). Give negative values as \
            --pitch=-5 or --pitch -5.

            Targets are the point features of a GeoJSON, KML, Shapefile or CSV \
            file (--targets), in any CRS geoq can reproject; --name-field and \
            --id-field pick the attributes to show. A numeric attribute \
            altitude, alt, elevation, ele or z gives a target's altitude in \
            metres; without one it is at the device's altitude.

            --stream reads compass readings from standard input, one JSON object \
            per line, e.g. {"heading": 12.5, "pitch": 3, "roll": 0} (pitch and \
            roll default to the options), smooths the heading on the unit circle \
            (so 359° and 1° give 0°, not 180°) and writes one overlay per \
            reading. A bad line gets an error line with its number and the \
            stream goes on.

            Examples:
              geoq ar 39.4699 -0.3763 --heading 15 --targets fallas.geojson
              geoq ar 39.4699 -0.3763 --heading 15 --max-distance 800 \\
                --targets falles-fallas.csv --name-field "Nom / Nombre"
              geoq ar 39.4699, -0.3763 --heading 350 --heading-ref magnetic \\
                --declination 1.2 --pitch=-5 --targets fallas.csv --format json
              geoq ar 39.4699 -0.3763 --heading 0 --hfov 66 --altitude 15 \\
                --width 1080 --height 1920 --curvature --targets fallas.geojson
              printf '{"heading": 359}\\n{"heading": 1, "pitch": 4}\\n' | \\
                geoq ar 39.4699 -0.3763 --stream --targets fallas.geojson

            Exit status: 0 done, 4 a stream had bad lines, 64 bad arguments, \
            65 malformed targets file, 66 missing targets file.
            """)

    /// Which north `--heading` (and streamed headings) are measured from.
    enum HeadingReference: String, ExpressibleByArgument, CaseIterable {
        case `true`
        case magnetic
    }

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Device latitude and longitude in degrees, latitude first.", valueName: "lat lon"))
    var coordinates: [String] = []

    @Option(
        name: .long, parsing: .unconditional,
        help: "Compass heading of the camera, degrees clockwise from north (not needed with --stream).")
    var heading: Double?

    @Option(name: .customLong("heading-ref"), help: "Whether headings are true or magnetic.")
    var headingReference: HeadingReference = .true

    @Option(
        name: .long, parsing: .unconditional,
        help: "Magnetic declination in degrees, east positive (true = magnetic + declination).")
    var declination: Double = 0

    @Option(name: .long, parsing: .unconditional, help: "Camera pitch in degrees, positive tilted up.")
    var pitch: Double = 0

    @Option(name: .long, parsing: .unconditional, help: "Camera roll in degrees, positive turned clockwise.")
    var roll: Double = 0

    @Option(name: .long, help: "Horizontal field of view of the camera, degrees.")
    var hfov: Double = 60

    @Option(name: .long, help: "Vertical field of view, degrees (default: from --hfov and the screen's aspect).")
    var vfov: Double?

    @Option(name: .long, help: "Screen width in pixels.")
    var width: Double = 1080

    @Option(name: .long, help: "Screen height in pixels.")
    var height: Double = 1920

    @Option(name: .long, parsing: .unconditional, help: "Device altitude in metres.")
    var altitude: Double = 0

    @Option(name: .long, help: "File of target points (GeoJSON, KML, Shapefile, CSV).")
    var targets: String?

    @Option(name: .long, help: "A point layer of the store or catalog to label (default: fallas, when no --targets).")
    var layer: String?

    @Option(name: .long, help: StoreHelp.read)
    var store: String?

    @Option(
        name: .customLong("name-field"),
        help:
            "Attribute holding each target's name (default: the format's name, else a column such as name or Nom / Nombre)."
    )
    var nameField: String?

    @Option(
        name: .customLong("id-field"), help: "Attribute holding each target's id (default: the format's id or the row)."
    )
    var idField: String?

    @Option(name: .customLong("max-distance"), help: "Targets farther than this many metres are not visible.")
    var maxDistance: Double?

    @Flag(name: .long, help: "Lower targets by the earth-curvature drop d²/(2R) (R = 6371 km).")
    var curvature = false

    @Option(name: .long, help: "Heading smoothing weight of a new reading in --stream, in (0, 1]; 1 = none.")
    var smoothing: Double = 0.3

    @Flag(name: .long, help: "Read compass readings (NDJSON) from standard input and answer each.")
    var stream = false

    @Flag(name: .customLong("visible-only"), help: "In JSON, list only the visible labels.")
    var visibleOnly = false

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    func validate() throws {
        if format == .geojson { throw ValidationError("geoq ar writes text or json, not geojson") }
        if !stream && heading == nil {
            throw ValidationError("missing --heading DEG (or use --stream to read headings from standard input)")
        }
        if targets != nil && layer != nil {
            throw ValidationError("give either --targets FILE or --layer NAME, not both")
        }
        if !(smoothing > 0 && smoothing <= 1) { throw ValidationError("--smoothing \(smoothing) is outside (0, 1]") }
        let camera = try camera(heading: heading ?? 0, pitch: pitch, roll: roll)
        do throws(ARError) {
            try camera.validate()
            try options.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    private func point() throws -> Point {
        do { return try CoordinateInput.point(fromArguments: coordinates) } catch {
            throw ValidationError(error.description.replacingOccurrences(of: "which-sector", with: "ar"))
        }
    }

    /// The camera for one reading; `heading` as given (true or magnetic, per --heading-ref).
    func camera(heading: Double, pitch: Double, roll: Double) throws -> ARCamera {
        let vertical = vfov ?? ARCamera.verticalFieldOfView(horizontal: hfov, width: width, height: height)
        return ARCamera(
            position: try point(), altitude: altitude, heading: trueHeading(heading), pitch: pitch, roll: roll,
            horizontalFieldOfView: hfov, verticalFieldOfView: vertical, width: width, height: height)
    }

    func trueHeading(_ heading: Double) -> Double {
        switch headingReference {
        case .true: ARAngles.normalized(heading)
        case .magnetic: ARAngles.trueHeading(magnetic: heading, declination: declination)
        }
    }

    var options: AROptions { AROptions(maxDistance: maxDistance, earthCurvature: curvature) }

    func run() throws {
        var output = StandardOutput()
        let status = try execute(input: { readLine(strippingNewline: true) }, output: &output)
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Does the work with injectable input and output, and returns the exit status.
    func execute(input: () -> String?, output: inout some TextOutputStream) throws -> Int32 {
        let loaded: [ARTarget]
        do {
            loaded = try loadTargets()
        } catch {
            ExitStatus.report(error, format: format)
            return ExitStatus.of(error)
        }
        let geodesic = KarneyGeodesic.wgs84
        if !stream {
            let camera = try camera(heading: heading ?? 0, pitch: pitch, roll: roll)
            let labels = AROverlay.compute(camera: camera, targets: loaded, geodesic: geodesic, options: options)
            switch format {
            case .text: output.write(text(camera: camera, labels: labels, total: loaded.count) + "\n")
            default:
                let answer = ARAnswer(camera: camera, labels: labels, visibleOnly: visibleOnly)
                output.write(AnswerRenderer.encoded(answer) + "\n")
            }
            return ExitStatus.success
        }
        var filter = HeadingFilter(alpha: smoothing)
        var number = 0
        var badLines = 0
        while let line = input() {
            number += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let reading: Reading
            do { reading = try JSONDecoder().decode(Reading.self, from: Data(line.utf8)) } catch {
                badLines += 1
                output.write(streamError("line \(number): \(Self.readingProblem(error))", line: number))
                continue
            }
            let raw = trueHeading(reading.heading)
            let smoothed = filter.update(raw)
            let camera = try camera(heading: 0, pitch: reading.pitch ?? pitch, roll: reading.roll ?? roll)
            var smoothedCamera = camera
            smoothedCamera.heading = smoothed
            let labels = AROverlay.compute(
                camera: smoothedCamera, targets: loaded, geodesic: geodesic, options: options)
            switch format {
            case .text:
                let shown = labels.filter(\.visible).map { l in
                    "\(l.name) (\(Int((l.x ?? 0).rounded())), \(Int((l.y ?? 0).rounded())))"
                }
                output.write(
                    "line \(number): heading \(ARAnswer.rounded(smoothed, 1))° (read \(ARAnswer.rounded(raw, 1))°), "
                        + "\(shown.count) visible\(shown.isEmpty ? "" : ": " + shown.joined(separator: "; "))\n")
            default:
                var answer = ARAnswer(camera: smoothedCamera, labels: labels, visibleOnly: visibleOnly)
                answer.line = number
                answer.camera.readHeading = ARAnswer.rounded(raw, 2)
                output.write(AnswerRenderer.encoded(answer, pretty: false) + "\n")
            }
        }
        return badLines == 0 ? ExitStatus.success : ExitStatus.batchHadBadLines
    }

    /// One streamed compass reading.
    struct Reading: Decodable {
        var heading: Double
        var pitch: Double?
        var roll: Double?
    }

    /// What is wrong with a line that is not a ``Reading``.
    static func readingProblem(_ error: any Error) -> String {
        let expected = "expected a JSON object such as {\"heading\": 12.5, \"pitch\": 3, \"roll\": 0}"
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return "missing \"\(key.stringValue)\"; \(expected)"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            guard let key = context.codingPath.last?.stringValue else { return "not a compass reading; \(expected)" }
            return "\"\(key)\" is not a number (degrees); \(expected)"
        default: return "not a compass reading; \(expected)"
        }
    }

    private func streamError(_ message: String, line: Int) -> String {
        switch format {
        case .text: return "\(message)\n"
        default:
            return AnswerRenderer.serialise(
                ["line": line, "error": ["code": "bad-input", "message": message]], pretty: false) + "\n"
        }
    }

    // MARK: Targets

    /// The point features of the --targets file as AR targets; other geometries are skipped
    /// with a note on standard error.
    func loadTargets() throws(LayerError) -> [ARTarget] {
        guard let path = targets else {
            // A layer of the store or catalog: the fallas by default, as the festival guide shows.
            let layer = try LayerLibrary(
                locations: try DataLocations.resolveForCommand(), store: try StoreAddress.option(store)
            ).pointLayer(named: self.layer ?? "fallas")
            return zip(layer.features, layer.positions).map { ARTarget(feature: $0, position: $1) }
        }
        let url = URL(fileURLWithPath: path)
        let spec = LayerSpec(
            name: "targets", title: "AR targets", source: path, idField: idField, nameField: nameField)
        let prepared = try LayerLoader().prepare(spec, from: url)
        var result: [ARTarget] = []
        var skipped = 0
        for f in prepared.features {
            let position: Point
            switch f.geometry {
            case .point(let p): position = p
            case .multiPoint(let ps) where ps.count == 1: position = ps[0]
            default:
                skipped += 1
                continue
            }
            result.append(ARTarget(feature: f, position: position))
        }
        if skipped > 0 {
            var stderr = StandardError()
            stderr.write("geoq: note: \(path): \(skipped) feature(s) are not points and were left out\n")
        }
        return result
    }

    // MARK: Rendering

    func text(camera: ARCamera, labels: [ARLabel], total: Int) -> String {
        let visible = labels.filter(\.visible)
        var lines = [
            "From \(camera.position.latitude), \(camera.position.longitude) (altitude \(ARAnswer.rounded(camera.altitude, 1)) m), "
                + "heading \(ARAnswer.rounded(camera.heading, 1))° true, pitch \(camera.pitch)°, roll \(camera.roll)°; "
                + "\(Int(camera.width))×\(Int(camera.height)) px, field of view \(ARAnswer.rounded(camera.horizontalFieldOfView, 1))°"
                + "×\(ARAnswer.rounded(camera.verticalFieldOfView, 1))°: \(visible.count) of \(total) targets visible."
        ]
        for l in visible {
            let side =
                l.relativeBearing == 0
                ? "ahead"
                : "\(ARAnswer.rounded(abs(l.relativeBearing), 1))° \(l.relativeBearing > 0 ? "right" : "left")"
            var line =
                "  \(l.name == l.id ? l.id : "\(l.name) (id \(l.id))"): \(AnswerRenderer.metres(l.distance)), "
                + "bearing \(ARAnswer.rounded(l.bearing, 1))° (\(side)), elevation \(ARAnswer.rounded(l.elevation, 2))°, "
                + "at x \(Int((l.x ?? 0).rounded())), y \(Int((l.y ?? 0).rounded())), scale \(ARAnswer.rounded(l.scale, 2))"
            if l.stackLevel > 0 { line += ", stacked \(l.stackLevel) up" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
