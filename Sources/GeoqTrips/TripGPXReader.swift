import Foundation
import GeoqXML

/// Reads a GPX 1.1 (or 1.0) trace with libxml2's streaming reader (``XMLStream``).
///
/// - Each `<trkseg>` of each `<trk>` is one segment of `<trkpt lat=".." lon="..">`. A file
///   with no track points is read from its routes instead, each `<rte>` one segment of
///   `<rtept>`; when a file has both, its routes are plans and are ignored. Waypoints (`<wpt>`)
///   are places, not a path: ignored.
/// - A point's `<time>` (ISO 8601) and `<ele>` are read; an `<accuracy>` element inside the
///   point (some apps write one in `<extensions>`) is read as the accuracy in metres. GPX's own
///   `<hdop>` is dimensionless and not used.
/// - Element prefixes are ignored (`gpx:trkpt` is `trkpt`); the root must be `gpx`.
/// - Errors name the line of the point; times going backwards are an error.
public struct TripGPXReader: Sendable {
    public init() {}

    public func read(_ data: Data, source: String) throws(TripReadError) -> TripTrace {
        guard !data.isEmpty else {
            throw TripReadError(
                .invalidSyntax, file: source, line: 1, message: "file is empty (expected a GPX document)")
        }
        let handler = GPXHandler(source: source)
        do {
            try XMLStream.read(data, source: source, into: handler)
        } catch {
            // The handler's own error came first in the document: the reader stopped there.
            if let failure = handler.failure { throw failure }
            throw TripReadError(.invalidSyntax, file: source, line: max(error.line ?? 1, 1), message: error.message)
        }
        if let failure = handler.failure { throw failure }
        guard handler.sawRoot else {
            throw TripReadError(
                .invalidSyntax, file: source, line: 1, message: "no XML element (expected a GPX document)")
        }
        // A file with a track is measured by its track: its routes are plans, not the drive.
        let tracks = TripTrace(segments: handler.trackSegments)
        let trace = tracks.fixCount > 0 ? tracks : TripTrace(segments: handler.routeSegments)
        guard trace.fixCount > 0 else {
            throw TripReadError(
                .noFixes, file: source,
                message: "no track points (<trkpt>) or route points (<rtept>); waypoints alone are not a path")
        }
        return trace
    }
}

/// The streaming handler: one per parse, on the calling thread.
private final class GPXHandler: XMLStreamHandler {
    struct OpenPoint {
        var line: Int
        var latitude: String
        var longitude: String
        var time: String?
        var elevation: String?
        var accuracy: String?
        var isRoute: Bool
    }

    let source: String
    var values: TraceValues
    var trackSegments: [[TripFix]] = []
    var routeSegments: [[TripFix]] = []
    /// Route points are checked for time order among themselves, apart from track points.
    var routeValues: TraceValues
    var failure: TripReadError?
    var sawRoot = false
    private var current: OpenPoint?
    private var text = ""
    /// Local names of the open elements, the root first.
    private var open: [String] = []

    init(source: String) {
        self.source = source
        values = TraceValues(file: source)
        routeValues = TraceValues(file: source)
    }

    private func fail(_ error: TripReadError) {
        if failure == nil { failure = error }
    }

    var stopsReading: Bool { failure != nil }

    func startElement(_ tag: XMLStartTag) {
        let name = tag.localName
        if !sawRoot {
            sawRoot = true
            guard name == "gpx" else {
                fail(
                    TripReadError(
                        .invalidSyntax, file: source, line: tag.line,
                        message: "root element is <\(tag.qualifiedName)>, expected <gpx>"))
                return
            }
        }
        open.append(name)
        text = ""
        switch name {
        case "trkseg": trackSegments.append([])
        case "rte": routeSegments.append([])
        case "trkpt", "rtept":
            let isRoute = name == "rtept"
            if isRoute ? routeSegments.isEmpty : trackSegments.isEmpty {
                if isRoute { routeSegments.append([]) } else { trackSegments.append([]) }
            }
            current = OpenPoint(
                line: tag.line, latitude: tag.attributes["lat"] ?? "", longitude: tag.attributes["lon"] ?? "",
                isRoute: isRoute)
        default: break
        }
    }

    func characters(_ string: String) {
        text += string
    }

    func endElement() {
        guard let name = open.popLast() else { return }
        if current != nil {
            switch name {
            case "time": current?.time = text
            case "ele": current?.elevation = text
            case "accuracy": current?.accuracy = text
            case "trkpt", "rtept": finishPoint()
            default: break
            }
        }
        text = ""
    }

    private func finishPoint() {
        guard let p = current else { return }
        current = nil
        do {
            let point = try values.point(latitude: p.latitude, longitude: p.longitude, line: p.line)
            let time = try p.time.flatMap { t throws(TripReadError) in try values.time(t, line: p.line) }
            let elevation = try values.number(p.elevation ?? "", line: p.line, field: "ele", required: false)
            let accuracy = try values.number(p.accuracy ?? "", line: p.line, field: "accuracy", required: false)
            let fix = TripFix(time: time, point: point, accuracy: accuracy, elevation: elevation)
            if p.isRoute {
                try routeValues.checkOrder(time, line: p.line)
                routeSegments[routeSegments.count - 1].append(fix)
            } else {
                try values.checkOrder(time, line: p.line)
                trackSegments[trackSegments.count - 1].append(fix)
            }
        } catch {
            fail(error)
        }
    }
}
