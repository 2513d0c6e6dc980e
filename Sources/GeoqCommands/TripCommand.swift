import ArgumentParser
import Foundation
import GeoqCore
import GeoqTrips

/// `geoq trip FILE`: the length of a vehicle trip from its GPS trace (GPX or CSV).
struct TripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trip",
        abstract: "Measure a vehicle trip from its GPS trace (GPX or CSV).",
        discussion: """
            The length is the sum of geodesic distances (Karney, WGS84) between successive kept \
            fixes. A GPX file is read track segment by track segment (<trkseg>, or <rte>); the \
            gap between two segments is not counted. A CSV file has lines time,lat,lon[,accuracy] \
            (latitude first; the header is optional and may name the columns in another order; \
            time in ISO 8601 with a zone, or Unix seconds; accuracy in metres). Fixes whose \
            times go backwards are an error.

            --max-accuracy drops fixes whose accuracy is worse than the limit (fixes with no \
            accuracy are kept). --min-step then keeps a fix only when it is at least that far \
            from the last kept fix, as the vehicle app's distance filter did (500 m); the last \
            fix of each segment is always kept. A distance filter can only shorten a trip \
            (chords cut curves); the JSON report gives a proven upper bound on by how much.

            Examples:
              geoq trip drive.gpx
              geoq trip drive.csv --min-step 500
              geoq trip drive.csv --max-accuracy 50 --format json

            Exit status: 0 measured, 64 bad arguments, 65 malformed trace (the message names \
            the file and line), 66 missing or unreadable file.
            """)

    @Argument(help: ArgumentHelp("The trace: a .gpx file, or CSV time,lat,lon[,accuracy].", valueName: "file"))
    var file: String

    @Option(
        name: .long, help: ArgumentHelp("Keep a fix only this many metres from the last kept one.", valueName: "metres")
    )
    var minStep: Double = 0

    @Option(
        name: .long,
        help: ArgumentHelp("Drop fixes whose accuracy is worse than this many metres.", valueName: "metres"))
    var maxAccuracy: Double?

    @Option(name: .long, help: "Output format: text or json.")
    var format: TripOutputFormat = .text

    func validate() throws {
        guard minStep.isFinite, minStep >= 0 else { throw ValidationError("--min-step must be a number of metres ≥ 0") }
        if let maxAccuracy, !(maxAccuracy.isFinite && maxAccuracy > 0) {
            throw ValidationError("--max-accuracy must be a number of metres > 0")
        }
    }

    func run() throws {
        var output = StandardOutput()
        let status = execute(output: &output)
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Does the work with injectable output and returns the exit status; errors go to standard error.
    func execute(output: inout some TextOutputStream) -> Int32 {
        let trace: TripTrace
        do {
            trace = try TripTraceReader.read(contentsOf: URL(fileURLWithPath: file), source: file)
        } catch {
            var stderr = StandardError()
            if format == .text {
                stderr.write("geoq: error: \(error.description)\n")
            } else {
                stderr.write(Self.json(["error": ["code": error.code.rawValue, "message": error.description]]) + "\n")
            }
            // One mapping, as in ExitStatus: missing → noInput (66), malformed → dataError (65).
            return error.code == .fileMissing ? ExitStatus.noInput : ExitStatus.dataError
        }
        let trip = Trip(trace: trace, options: TripOptions(minStep: minStep, maxAccuracy: maxAccuracy))
        let report = trip.report(geodesic: KarneyGeodesic.wgs84)
        output.write(format == .text ? Self.text(report, file: file) : Self.json(report, file: file) + "\n")
        return ExitStatus.success
    }

    static func text(_ r: TripReport, file: String) -> String {
        var lines: [String] = []
        let km = (r.lengthMetres / 1000).formatted(.number.precision(.fractionLength(3)))
        lines.append(
            "\(file): \(km) km (\(Int(r.lengthMetres.rounded())) m) in \(r.segments) segment\(r.segments == 1 ? "" : "s")"
        )
        lines.append(
            "fixes: \(r.fixesRead) read, \(r.fixesKept) kept, \(r.droppedForAccuracy) dropped for accuracy, "
                + "\(r.droppedForStep) dropped by the distance filter")
        if let d = r.duration {
            var line = "duration: \(Self.duration(d))"
            if let v = r.averageSpeed {
                line += ", average speed \((v * 3.6).formatted(.number.precision(.fractionLength(1)))) km/h"
            }
            lines.append(line)
        } else {
            lines.append("duration: unknown (fewer than two fixes have times)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1 h 02 min 05 s`, `12 min 30 s`, `45 s`.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total % 3600 / 60, total % 60)
        if h > 0 { return "\(h) h \(String(format: "%02d", m)) min \(String(format: "%02d", s)) s" }
        if m > 0 { return "\(m) min \(s) s" }
        return "\(s) s"
    }

    static func json(_ r: TripReport, file: String) -> String {
        var object: [String: Any] = [
            "file": file, "lengthMetres": r.lengthMetres, "lengthKilometres": r.lengthMetres / 1000,
            "fixesRead": r.fixesRead, "fixesKept": r.fixesKept, "droppedForAccuracy": r.droppedForAccuracy,
            "droppedForStep": r.droppedForStep, "segments": r.segments, "stepFilterBoundMetres": r.stepFilterBound,
        ]
        let iso = Date.ISO8601FormatStyle()
        object["durationSeconds"] = r.duration ?? NSNull()
        object["averageSpeedMetresPerSecond"] = r.averageSpeed ?? NSNull()
        object["start"] = r.start.map { $0.formatted(iso) } ?? NSNull()
        object["end"] = r.end.map { $0.formatted(iso) } ?? NSNull()
        return json(object)
    }

    private static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `--format text|json` for `geoq trip` (GeoJSON has nothing to say about a length).
enum TripOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
